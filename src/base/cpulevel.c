/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cpulevel.c - the one CPU probe and the rule that chooses a built-in
 * kernel's level (cpulevel.h), with one wording of its refusals, for
 * blake3.c, crc.c, whirlpool.c and --bench's machine line.
 *
 * Owns every question put to the CPU: x86's cpuid and xgetbv (a vector
 * feature counts only if the OS saves its registers), AArch64's hardware
 * capabilities.  Nothing else in src/ asks the CPU anything.
 */
#include "base/cpulevel.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#elif defined(__aarch64__) && \
    (defined(HAVE_GETAUXVAL) || defined(HAVE_ELF_AUX_INFO))
#include <sys/auxv.h>
#endif

static const char *const feature_names[MS_CPU_FEATURES] = {
#define NAME(f, name)	[MS_CPU_##f] = name,
	MS_CPU_FEATURE_LIST(NAME)
#undef NAME
};

const char *
ms_cpu_feature_name(enum ms_cpu_feature f)
{
	return feature_names[f];
}

/* ------------------------------------------------------------- probe */

#if defined(__x86_64__) || defined(__i386__)

/* One cpuid bit: register r (0 eax .. 3 edx) of a leaf, and its feature. */
static const struct {
	unsigned	 leaf, reg, bit;
	enum ms_cpu_feature f;
} cpuid_bits[] = {
	{ 1, 3, 26, MS_CPU_SSE2 }, { 1, 2, 9, MS_CPU_SSSE3 },
	{ 1, 2, 19, MS_CPU_SSE41 }, { 1, 2, 20, MS_CPU_SSE42 },
	{ 1, 2, 1, MS_CPU_PCLMUL }, { 1, 2, 28, MS_CPU_AVX },
	{ 7, 1, 5, MS_CPU_AVX2 }, { 7, 1, 16, MS_CPU_AVX512F },
	{ 7, 1, 31, MS_CPU_AVX512VL }, { 7, 1, 30, MS_CPU_AVX512BW },
	{ 7, 2, 1, MS_CPU_AVX512VBMI }, { 7, 2, 8, MS_CPU_GFNI },
	{ 7, 2, 10, MS_CPU_VPCLMULQDQ }, { 7, 1, 29, MS_CPU_SHA_NI },
};

/* The features that use the AVX (YMM) or AVX-512 (ZMM, opmask) state. */
#define YMM_STATE	(MS_CPU(AVX) | MS_CPU(AVX2) | MS_CPU(VPCLMULQDQ))
#define ZMM_STATE	(MS_CPU(AVX512F) | MS_CPU(AVX512VL) | \
	MS_CPU(AVX512BW) | MS_CPU(AVX512VBMI))

static uint64_t
probe(void)
{
	unsigned r[2][4] = { { 0 } }, max, eax, ebx, ecx, edx;
	uint64_t v = 0, xcr0 = 0;

	if (__get_cpuid(0, &max, &ebx, &ecx, &edx) == 0)
		return 0;
	__cpuid_count(1, 0, r[0][0], r[0][1], r[0][2], r[0][3]);
	if (max >= 7)
		__cpuid_count(7, 0, r[1][0], r[1][1], r[1][2], r[1][3]);
	for (size_t i = 0; i < MS_ARRAY_LEN(cpuid_bits); i++)
		if (r[cpuid_bits[i].leaf == 7][cpuid_bits[i].reg] >>
		    cpuid_bits[i].bit & 1)
			v |= (uint64_t)1 << cpuid_bits[i].f;
	/* OSXSAVE: the OS says which register state it saves. */
	if (r[0][2] >> 27 & 1) {
		__asm__ volatile ("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
		xcr0 = (uint64_t)edx << 32 | eax;
	}
	if ((xcr0 & 0x6) != 0x6)		/* XMM and YMM */
		v &= ~(uint64_t)(YMM_STATE | ZMM_STATE);
	if ((xcr0 & 0xe0) != 0xe0)		/* opmask, ZMM_Hi256, Hi16_ZMM */
		v &= ~(uint64_t)ZMM_STATE;
	/* GFNI and VPCLMULQDQ count in their EVEX form only with AVX-512,
	 * which the levels that use them ask for too. */
	return v;
}

#elif defined(__aarch64__) && \
    (defined(HAVE_GETAUXVAL) || defined(HAVE_ELF_AUX_INFO))

/* AT_HWCAP: Linux's getauxval, else FreeBSD's elf_aux_info (whose arm64
 * HWCAP_* bits are Linux's, sys/arm64/include/elf.h); 0 if unknown. */
static unsigned long
hwcap(void)
{
#if defined(HAVE_GETAUXVAL)
	return getauxval(AT_HWCAP);
#else
	unsigned long hw = 0;

	return elf_aux_info(AT_HWCAP, &hw, sizeof(hw)) == 0 ? hw : 0;
#endif
}

/* AT_HWCAP bits of the Linux arm64 ABI. */
static uint64_t
probe(void)
{
	unsigned long hw = hwcap();
	uint64_t v = 0;

	v |= (hw >> 1 & 1) ? MS_CPU(NEON) : 0;		/* HWCAP_ASIMD */
	v |= (hw >> 4 & 1) ? MS_CPU(PMULL) : 0;		/* HWCAP_PMULL */
	v |= (hw >> 5 & 1) ? MS_CPU(ARM_SHA1) : 0;	/* HWCAP_SHA1 */
	v |= (hw >> 6 & 1) ? MS_CPU(ARM_SHA2) : 0;	/* HWCAP_SHA2 */
	v |= (hw >> 7 & 1) ? MS_CPU(ARM_CRC32) : 0;	/* HWCAP_CRC32 */
	v |= (hw >> 17 & 1) ? MS_CPU(ARM_SHA3) : 0;	/* HWCAP_SHA3 */
	v |= (hw >> 21 & 1) ? MS_CPU(ARM_SHA512) : 0;	/* HWCAP_SHA512 */
	return v;
}

#else

static uint64_t
probe(void)
{
	return 0;
}

#endif

static uint64_t features;
static pthread_once_t probed = PTHREAD_ONCE_INIT;

static void
probe_once(void)
{
	features = probe();
}

uint64_t
ms_cpu_features(void)
{
	pthread_once(&probed, probe_once);
	return features;
}

/* -------------------------------------------------------------- rule */

static bool
meets(uint64_t cpu, const struct ms_level *l)
{
	return (l->needs & ~cpu) == 0;
}

static unsigned
highest(const struct ms_level_family *f, uint64_t cpu)
{
	unsigned l = f->count - 1;

	while (l > 0 && !meets(cpu, &f->level[l]))
		l--;
	return l;
}

/* Append ", name" (or "name" first) for each level, to why[n..cap). */
static int
list_levels(const struct ms_level_family *f, uint64_t cpu, bool runs_only,
    char *why, int n, size_t cap)
{
	bool first = true;

	for (unsigned l = 0; l < f->count && n >= 0 && (size_t)n < cap; l++) {
		if (runs_only && !meets(cpu, &f->level[l]))
			continue;
		n += snprintf(why + n, cap - (size_t)n, "%s%s", first ? "" : ", ",
		    f->level[l].name);
		first = false;
	}
	return n;
}

int
ms_level_rule(const struct ms_level_family *f, uint64_t cpu, const char *var,
    const char *value, char *why, size_t cap)
{
	unsigned l;
	int n;

	if (value == NULL || *value == '\0' || strcmp(value, "auto") == 0)
		return (int)highest(f, cpu);
	for (l = 0; l < f->count; l++)
		if (strcmp(value, f->level[l].name) == 0)
			break;
	if (l < f->count && meets(cpu, &f->level[l]))
		return (int)l;
	if (l < f->count) {
		uint64_t lacks = f->level[l].needs & ~cpu;
		bool first = true;

		n = snprintf(why, cap, "%s=%s: this CPU lacks ", var, value);
		for (unsigned i = 0; i < MS_CPU_FEATURES; i++)
			if ((lacks >> i & 1) && n >= 0 && (size_t)n < cap) {
				n += snprintf(why + n, cap - (size_t)n, "%s%s",
				    first ? "" : ", ", feature_names[i]);
				first = false;
			}
		if (n >= 0 && (size_t)n < cap)
			n += snprintf(why + n, cap - (size_t)n, " (it runs ");
		n = list_levels(f, cpu, true, why, n, cap);
		if (n >= 0 && (size_t)n < cap)
			snprintf(why + n, cap - (size_t)n, ")");
		return -1;
	}
	for (const char *const *k = f->known; k != NULL && *k != NULL; k++)
		if (strcmp(value, *k) == 0) {
			snprintf(why, cap, "%s=%s: not in this build (%s)", var,
			    value, MS_SIMD_X86_64 ? "configure --disable-avx512" :
			    MS_SIMD_AARCH64 ? "built for x86-64 only" :
			    "its SIMD levels are built for x86-64 only");
			return -1;
		}
	n = snprintf(why, cap, "%s=%s: not one of ", var, value);
	list_levels(f, cpu, false, why, n, cap);
	return -1;
}

static pthread_mutex_t choosing = PTHREAD_MUTEX_INITIALIZER;

unsigned
ms_level_choose(struct ms_level_family *f)
{
	pthread_mutex_lock(&choosing);
	if (!atomic_load_explicit(&f->ready, memory_order_relaxed)) {
		const char *var = f->var, *value = getenv(f->var);
		uint64_t cpu = ms_cpu_features();
		int l;

		/* The old name is read only when the new one is not set. */
		if ((value == NULL || *value == '\0') && f->old_var != NULL &&
		    (value = getenv(f->old_var)) != NULL)
			var = f->old_var;
		f->why[0] = '\0';
		f->read = var;
		l = ms_level_rule(f, cpu, var, value, f->why, sizeof(f->why));
		f->chosen = l < 0 ? highest(f, cpu) : (unsigned)l;
		atomic_store_explicit(&f->ready, true, memory_order_release);
	}
	pthread_mutex_unlock(&choosing);
	return f->chosen;
}

int
ms_level_setup(struct ms_level_family *f, const char **why)
{
	ms_level_get(f);
	*why = f->why;
	return f->why[0] != '\0' ? -1 : 0;
}

int
ms_level_load(struct ms_level_family *f)
{
	const char *why;

	if (ms_level_setup(f, &why) == -1) {
		ms_warn("%s", why);
		return -1;
	}
	return 0;
}

const char *
ms_level_name(struct ms_level_family *f)
{
	static _Thread_local char buf[64];
	unsigned l = ms_level_get(f);

	if (f->why[0] == '\0')
		return f->level[l].name;
	snprintf(buf, sizeof(buf), "invalid %s", f->read);
	return buf;
}

bool
ms_level_runs(const struct ms_level_family *f, unsigned l)
{
	return l < f->count && meets(ms_cpu_features(), &f->level[l]);
}

int
ms_level_force(struct ms_level_family *f, const char *name)
{
	char why[sizeof(f->why)];
	int l;

	ms_level_get(f);
	l = ms_level_rule(f, ms_cpu_features(), f->var, name, why, sizeof(why));
	if (l < 0)
		return -1;
	f->chosen = (unsigned)l;
	f->why[0] = '\0';
	return 0;
}
