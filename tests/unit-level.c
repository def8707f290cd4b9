/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * unit-level.c - the one rule that picks a kernel's level (cpulevel.c),
 * over fake families and fake feature masks: the highest level whose
 * needs the CPU meets, a named level that it meets, and the refusals,
 * one line each naming the variable and the levels (an unknown name, a
 * level whose needs are missing, one the build left out); the
 * environment, with the old name as an alias that the new one beats;
 * forcing a level.  Then the probe itself against /proc/cpuinfo's flags,
 * which the kernel fills from its own reading of the CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpulevel.h"
#include "base/util.h"
#include "kernels/blake3.h"
#include "kernels/crc.h"
#include "kernels/md_lanes.h"
#include "kernels/whirlpool.h"

#include "tap.h"

static const struct ms_level fake_levels[] = {
	{ "base", 0, NULL },
	{ "mid", MS_CPU(SSE41), NULL },
	{ "top", MS_CPU(SSE41) | MS_CPU(AVX2) | MS_CPU(GFNI), NULL },
};

static struct ms_level_family fake = MS_LEVEL_FAMILY("MULTISUM_FAKE_LEVEL",
    "MULTISUM_FAKE_IMPL", fake_levels, "base", "mid", "top", "wide");

/* The rule's answer for value on cpu, and its refusal in why. */
static int
rule(uint64_t cpu, const char *value, char *why)
{
	why[0] = '\0';
	return ms_level_rule(&fake, cpu, fake.var, value, why, 192);
}

static void
test_rule(void)
{
	const uint64_t all = MS_CPU(SSE41) | MS_CPU(AVX2) | MS_CPU(GFNI);
	char why[192];

	tap_is_int(rule(0, NULL, why), 0, "no features, no variable: base");
	tap_is_int(rule(MS_CPU(SSE41), NULL, why), 1, "sse4.1: mid");
	tap_is_int(rule(MS_CPU(SSE41) | MS_CPU(AVX2), "", why), 1,
	    "sse4.1 and avx2 but no gfni, empty value: still mid");
	tap_is_int(rule(all, "auto", why), 2, "everything, auto: top");
	tap_is_int(rule(MS_CPU(AVX2) | MS_CPU(GFNI), NULL, why), 0,
	    "top's other needs without sse4.1: base");
	tap_is_int(rule(all, "mid", why), 1, "a lower level named: it runs");
	tap_is_int(rule(MS_CPU(SSE41), "base", why), 0, "base named: it runs");

	tap_is_int(rule(MS_CPU(SSE41), "top", why), -1,
	    "a level whose needs are missing is refused");
	tap_is_str(why, "MULTISUM_FAKE_LEVEL=top: this CPU lacks avx2, gfni "
	    "(it runs base, mid)", "in one line naming the variable, what is "
	    "missing and the levels it runs");
	tap_is_int(rule(MS_CPU(SSE41) | MS_CPU(AVX2), "top", why), -1,
	    "one need missing is enough");
	tap_is_str(why, "MULTISUM_FAKE_LEVEL=top: this CPU lacks gfni "
	    "(it runs base, mid)", "and names just that one");
	tap_is_int(rule(all, "nope", why), -1, "an unknown name is refused");
	tap_is_str(why, "MULTISUM_FAKE_LEVEL=nope: not one of base, mid, top",
	    "naming the variable and every level");
	tap_is_int(rule(all, "wide", why), -1, "a level left out is refused");
	tap_is_str(why, MS_SIMD_X86_64 ?
	    "MULTISUM_FAKE_LEVEL=wide: not in this build (configure "
	    "--disable-avx512)" : MS_SIMD_AARCH64 ?
	    "MULTISUM_FAKE_LEVEL=wide: not in this build (built for x86-64 "
	    "only)" : "MULTISUM_FAKE_LEVEL=wide: not in this build "
	    "(its SIMD levels are built for x86-64 only)",
	    "saying the build left it out");
	tap_is_int(rule(all, "Top", why), -1, "names are exact");
}

/* Choose afresh with the variables set as given (NULL: unset). */
static unsigned
choose(const char *new_value, const char *old_value)
{
	if (new_value != NULL)
		setenv(fake.var, new_value, 1);
	else
		unsetenv(fake.var);
	if (old_value != NULL)
		setenv(fake.old_var, old_value, 1);
	else
		unsetenv(fake.old_var);
	atomic_store(&fake.ready, false);
	return ms_level_get(&fake);
}

static void
test_environment(void)
{
	static const struct ms_level plain[] = {
		{ "base", 0, "k0" }, { "also", 0, "k1" },
	};
	const char *why;

	fake.level = plain;
	fake.count = MS_ARRAY_LEN(plain);
	tap_is_int(choose(NULL, NULL), 1, "no variable: the highest level");
	tap_is_str((const char *)ms_level_kernel(&fake), "k1", "and its kernel");
	tap_is_int(choose(NULL, "base"), 0, "the old name alone forces a level");
	tap_ok(ms_level_setup(&fake, &why) == 0 && *why == '\0',
	    "and is no error");
	tap_is_int(choose("also", "bogus"), 1, "both set: the new name wins");
	tap_ok(ms_level_setup(&fake, &why) == 0,
	    "and the old one is not read at all");
	tap_is_int(choose("", "base"), 0, "an empty new name is no name");
	tap_is_int(choose(NULL, "bogus"), 1,
	    "a refused value leaves the highest level");
	tap_ok(ms_level_setup(&fake, &why) == -1, "and is reported");
	tap_is_str(why, "MULTISUM_FAKE_IMPL=bogus: not one of base, also",
	    "by the name that was read");
	tap_is_str(ms_level_name(&fake), "invalid MULTISUM_FAKE_IMPL",
	    "the level's name says so");
	tap_is_int(ms_level_force(&fake, "bogus"), -1, "forcing a bogus level fails");
	tap_is_int(ms_level_force(&fake, "base"), 0, "forcing a real one works");
	tap_ok(ms_level_get(&fake) == 0 && ms_level_setup(&fake, &why) == 0 &&
	    strcmp(ms_level_name(&fake), "base") == 0,
	    "and it runs, with the refusal gone");
	unsetenv(fake.var);
	unsetenv(fake.old_var);
}

#if defined(__x86_64__) && defined(__linux__)
/* The x86 features as /proc/cpuinfo spells them. */
static const struct {
	enum ms_cpu_feature f;
	const char	*flag;
} x86_flags[] = {
	{ MS_CPU_SSE2, "sse2" }, { MS_CPU_SSSE3, "ssse3" },
	{ MS_CPU_SSE41, "sse4_1" }, { MS_CPU_SSE42, "sse4_2" },
	{ MS_CPU_PCLMUL, "pclmulqdq" }, { MS_CPU_AVX, "avx" },
	{ MS_CPU_AVX2, "avx2" }, { MS_CPU_AVX512F, "avx512f" },
	{ MS_CPU_AVX512VL, "avx512vl" }, { MS_CPU_AVX512BW, "avx512bw" },
	{ MS_CPU_AVX512VBMI, "avx512vbmi" }, { MS_CPU_GFNI, "gfni" },
	{ MS_CPU_VPCLMULQDQ, "vpclmulqdq" }, { MS_CPU_SHA_NI, "sha_ni" },
};
#endif

static void
test_probe(void)
{
#if defined(__x86_64__) && defined(__linux__)
	static char line[16384];
	FILE *fp = fopen("/proc/cpuinfo", "r");
	bool found = false;

	while (fp != NULL && fgets(line, sizeof(line), fp) != NULL)
		if (strncmp(line, "flags", 5) == 0) {
			found = true;
			break;
		}
	if (fp != NULL)
		fclose(fp);
	if (!found) {
		tap_skip("no flags line in /proc/cpuinfo", "the probe");
		return;
	}
	line[strcspn(line, "\n")] = ' ';
	for (size_t i = 0; i < MS_ARRAY_LEN(x86_flags); i++) {
		char word[32];

		snprintf(word, sizeof(word), " %s ", x86_flags[i].flag);
		tap_is_int(ms_cpu_has(x86_flags[i].f), strstr(line, word) != NULL,
		    ms_cpu_feature_name(x86_flags[i].f));
	}
#else
	tap_skip("x86-64 Linux only", "the probe against /proc/cpuinfo");
#endif
	tap_ok(ms_cpu_features() == ms_cpu_features(), "the probe is cached");
}

/* Each family's table: level 0 runs anywhere, every level is known. */
static void
test_families(void)
{
	struct ms_level_family *const fam[] = { &ms_blake3_levels,
	    &ms_crc_levels, &ms_whirlpool_levels, &ms_md5_levels,
	    &ms_sha1_levels, &ms_sha256_levels };

	for (size_t i = 0; i < MS_ARRAY_LEN(fam); i++) {
		const struct ms_level_family *f = fam[i];
		bool ok = f->count > 0 && f->level[0].needs == 0;

		for (unsigned l = 0; l < f->count && ok; l++) {
			const char *const *k = f->known;

			while (*k != NULL && strcmp(*k, f->level[l].name) != 0)
				k++;
			ok = *k != NULL && f->level[l].kernel != NULL;
		}
		tap_ok(ok, "%s: a level that needs nothing first, every level "
		    "known and with code", f->var);
	}
}

int
main(void)
{
	test_rule();
	test_families();
	test_environment();
	test_probe();
	return tap_done();
}
