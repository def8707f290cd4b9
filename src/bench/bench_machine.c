/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_machine.c - the machine a bench run measures: the CPU model and
 * the features that matter to digests (from /proc/cpuinfo, or uname),
 * the online CPUs, the digest libraries and their versions, and the
 * compiler.  Probed once before measuring; the report only reads it.
 */
#include "bench/bench.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/util.h"

static const struct ms_bench_feature features[] = {
	{ 'x', "sha_ni", "SHA-NI" },
	{ 'x', "avx2", "AVX2" },
	{ 'x', "avx512f", "AVX-512" },
	{ 'x', "sse4_2", "SSE4.2" },
	{ 'x', "pclmulqdq", "PCLMUL" },
	{ 'a', "sha2", "SHA2" },
	{ 'a', "sha512", "SHA512" },
	{ 'a', "sha3", "SHA3" },
	{ 'a', "crc32", "CRC32" },
	{ 'a', "pmull", "PMULL" },
	{ 'a', "asimd", "NEON" },
};

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

static bool
has_token(const char *list, const char *tok)
{
	size_t tl = strlen(tok);

	for (const char *p = list; (p = strstr(p, tok)) != NULL; p += tl)
		if ((p == list || p[-1] == ' ') &&
		    (p[tl] == '\0' || p[tl] == ' '))
			return true;
	return false;
}

/* The features of arch, in table order, and which of them flags lists. */
static void
set_features(struct ms_bench_machine *m, const char *flags)
{
	for (size_t i = 0; i < MS_ARRAY_LEN(features); i++)
		if (features[i].arch == m->arch &&
		    m->nfeat < MS_BENCH_FEATURES) {
			m->feat[m->nfeat] = &features[i];
			m->has[m->nfeat++] = has_token(flags,
			    features[i].token);
		}
}

/* CPU model and features from /proc/cpuinfo; uname when there is none. */
static void
read_cpuinfo(struct ms_bench_machine *m)
{
	FILE *fp = fopen("/proc/cpuinfo", "r");
	char line[8192];
	bool model = false, flags = false;

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
		if (!flags && (strcmp(key, "flags") == 0 ||
		    strcmp(key, "Features") == 0)) {
			m->arch = strcmp(key, "flags") == 0 ? 'x' : 'a';
			set_features(m, val);
			flags = true;
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
	read_cpuinfo(m);
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
