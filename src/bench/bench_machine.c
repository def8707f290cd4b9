/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_machine.c - the machine a bench run measures: the CPU model
 * (from /proc/cpuinfo, or uname) and the features that matter to digests
 * (from the one CPU probe, cpulevel.c), the online CPUs, the digest
 * libraries and their versions, and the compiler.  Probed once before
 * measuring; the report only reads it.
 */
#include "bench/bench.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/cpulevel.h"
#include "base/util.h"

/* Tokens as /proc/cpuinfo spells them: the CSV and JSON reports use them. */
static const struct ms_bench_feature features[] = {
	{ 'x', MS_CPU_SHA_NI, "sha_ni", "SHA-NI" },
	{ 'x', MS_CPU_AVX2, "avx2", "AVX2" },
	{ 'x', MS_CPU_AVX512F, "avx512f", "AVX-512" },
	{ 'x', MS_CPU_SSE42, "sse4_2", "SSE4.2" },
	{ 'x', MS_CPU_PCLMUL, "pclmulqdq", "PCLMUL" },
	{ 'a', MS_CPU_ARM_SHA1, "sha1", "SHA1" },
	{ 'a', MS_CPU_ARM_SHA2, "sha2", "SHA2" },
	{ 'a', MS_CPU_ARM_SHA512, "sha512", "SHA512" },
	{ 'a', MS_CPU_ARM_SHA3, "sha3", "SHA3" },
	{ 'a', MS_CPU_ARM_CRC32, "crc32", "CRC32" },
	{ 'a', MS_CPU_PMULL, "pmull", "PMULL" },
	{ 'a', MS_CPU_NEON, "asimd", "NEON" },
};

/* The architecture whose features the probe reads: 'x', 'a' or 0. */
#if defined(__x86_64__) || defined(__i386__)
#define PROBED_ARCH	'x'
#elif defined(__aarch64__) && defined(HAVE_GETAUXVAL)
#define PROBED_ARCH	'a'
#else
#define PROBED_ARCH	0
#endif

static char *
trim(char *s)
{
	char *e = s + strlen(s);

	while (isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* The features of this architecture, in table order, and which of
 * them the CPU has. */
static void
set_features(struct ms_bench_machine *m)
{
	m->arch = PROBED_ARCH;
	for (size_t i = 0; i < MS_ARRAY_LEN(features); i++)
		if (features[i].arch == m->arch &&
		    m->nfeat < MS_BENCH_FEATURES) {
			m->feat[m->nfeat] = &features[i];
			m->has[m->nfeat++] = ms_cpu_has(features[i].feature);
		}
}

/* The CPU model from /proc/cpuinfo; uname when there is none. */
static void
read_model(struct ms_bench_machine *m)
{
	FILE *fp = fopen("/proc/cpuinfo", "r");
	char line[8192];
	bool model = false;

	while (fp != NULL && fgets(line, sizeof(line), fp) != NULL) {
		char *colon = strchr(line, ':'), *key, *val;

		if (colon == NULL)
			continue;
		*colon = '\0';
		key = trim(line);
		val = trim(colon + 1);
		if (!model && *val && (strcmp(key, "model name") == 0 ||
		    strcmp(key, "Hardware") == 0 ||
		    strcmp(key, "cpu model") == 0 || strcmp(key, "cpu") == 0)) {
			snprintf(m->cpu, sizeof(m->cpu), "%s", val);
			model = true;
		}
	}
	if (fp != NULL)
		fclose(fp);
	if (!model) {
		struct utsname u;

		snprintf(m->cpu, sizeof(m->cpu), "%s",
		    uname(&u) == 0 ? u.machine : "unknown");
	}
}

/* Every backend with a version, once, in algorithm table order. */
static void
read_libraries(struct ms_bench_machine *m)
{
	for (size_t i = 0; i < ms_algo_count; i++) {
		const struct ms_digest_ops *ops = ms_algos[i].ops;
		size_t k;

		for (k = 0; k < m->nlibs; k++)
			if (strcmp(m->libname[k], ops->backend) == 0)
				break;
		if (k < m->nlibs || ops->version == NULL ||
		    m->nlibs == MS_BENCH_LIBS)
			continue;
		m->libname[k] = ops->backend;
		m->version[k] = ops->version();
		if (m->version[k] == NULL)
			continue;
		/* JSON keys are lower case: "openssl", "libb2". */
		m->lib[k] = ms_xstrdup(ops->backend);
		for (char *p = m->lib[k]; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		m->nlibs++;
	}
}

void
ms_bench_probe(struct ms_bench_machine *m)
{
	memset(m, 0, sizeof(*m));
	read_model(m);
	set_features(m);
	m->cores = sysconf(_SC_NPROCESSORS_ONLN);
	read_libraries(m);
#ifdef __VERSION__
	snprintf(m->compiler, sizeof(m->compiler), "%s", __VERSION__);
#endif
}

void
ms_bench_machine_free(struct ms_bench_machine *m)
{
	for (size_t i = 0; i < m->nlibs; i++)
		free(m->lib[i]);
	m->nlibs = 0;
}

bool
ms_bench_has_feature(const struct ms_bench_machine *m, const char *token)
{
	for (size_t i = 0; i < m->nfeat; i++)
		if (strcmp(m->feat[i]->token, token) == 0)
			return m->has[i];
	return false;
}
