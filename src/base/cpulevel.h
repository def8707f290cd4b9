/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cpulevel.h - the one CPU probe, and the one rule by which a built-in
 * kernel family (BLAKE3's SIMD widths, the CRC folds, Whirlpool's)
 * picks its level: the highest whose needs this CPU meets, unless the
 * family's environment variable names another that it meets.
 *
 * A family's levels are data: a table of {name, needs, kernel} rows,
 * slowest first, that its kernel file defines and this file reads.
 */
#ifndef MS_CPULEVEL_H
#define MS_CPULEVEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The CPU features a kernel or --bench's machine line asks about, each
 * with its name in refusals: X(FEATURE, "name") makes MS_CPU_FEATURE.
 * x86's count only where the OS saves their registers (XCR0); then
 * Arm's (AArch64 hardware capabilities).
 */
#define MS_CPU_FEATURE_LIST(X)						\
	X(SSE2, "sse2") X(SSSE3, "ssse3") X(SSE41, "sse4.1")		\
	X(SSE42, "sse4.2") X(PCLMUL, "pclmul") X(AVX, "avx")		\
	X(AVX2, "avx2") X(AVX512F, "avx512f") X(AVX512VL, "avx512vl")	\
	X(AVX512BW, "avx512bw") X(AVX512VBMI, "avx512vbmi")		\
	X(GFNI, "gfni") X(VPCLMULQDQ, "vpclmulqdq") X(SHA_NI, "sha-ni")	\
	X(NEON, "neon") X(ARM_CRC32, "crc32") X(PMULL, "pmull")	\
	X(ARM_SHA1, "sha1") X(ARM_SHA2, "sha2") X(ARM_SHA512, "sha512") X(ARM_SHA3, "sha3")

enum ms_cpu_feature {
#define MS_CPU_ENUM(f, name)	MS_CPU_##f,
	MS_CPU_FEATURE_LIST(MS_CPU_ENUM)
#undef MS_CPU_ENUM
	MS_CPU_FEATURES
};

/* The bit of feature F in a mask: MS_CPU(AVX2). */
#define MS_CPU(f)	((uint64_t)1 << MS_CPU_##f)

/* The features of this CPU, as a mask of MS_CPU() bits: probed on the
 * first call, then cached. */
uint64_t ms_cpu_features(void);

static inline bool
ms_cpu_has(enum ms_cpu_feature f)
{
	return (ms_cpu_features() >> f & 1) != 0;
}

/* A feature's name in refusals: "avx512vbmi", "sse4.1". */
const char *ms_cpu_feature_name(enum ms_cpu_feature f);

/* One level of a kernel family: a row of its table. */
struct ms_level {
	const char	*name;		/* "pclmul": what the variable names */
	uint64_t	 needs;		/* MS_CPU() bits it runs on */
	const void	*kernel;	/* the family's own struct of code */
};

/*
 * A kernel family: its levels, slowest first (level[0] needs nothing),
 * the variable that forces one, and the choice, made once.  A kernel
 * file defines one (static data, the fields from ready on left zero) and
 * reads it with the functions below.
 */
struct ms_level_family {
	const char	*var;		/* "MULTISUM_CRC_LEVEL" */
	const char	*old_var;	/* its deprecated alias, "MULTISUM_CRC_IMPL" */
	/* every level any build has, NULL-terminated: level[] is those
	 * this one has (not x86-64, or configure --disable-avx512) */
	const char *const *known;
	const struct ms_level *level;
	unsigned	 count;
	atomic_bool	 ready;		/* chosen, read and why are set */
	unsigned	 chosen;	/* the level that runs */
	const char	*read;		/* the variable that named it */
	char		 why[192];	/* "" or the variable's refusal */
};

/* A family's definition: its variable, the old name, its table of levels
 * and the names of every level any build has. */
#define MS_LEVEL_FAMILY(var_, old_var_, levels_, ...) {			\
	.var = (var_), .old_var = (old_var_),				\
	.known = (const char *const []){ __VA_ARGS__, NULL },		\
	.level = (levels_), .count = sizeof(levels_) / sizeof((levels_)[0]), \
}

/*
 * The rule, pure: the level that the variable var set to value names on
 * a CPU with the features cpu.  NULL, "" and "auto" name the highest level
 * whose needs cpu meets.  A name that is not one of the levels, or one
 * whose needs cpu lacks, is refused: -1, with why set to one line naming
 * the variable and the levels ("VAR=NAME: not one of a, b, c", "VAR=NAME:
 * this CPU lacks gfni (it runs a, b)", "VAR=NAME: not in this build
 * (configure --disable-avx512)" for a known level this build left out).
 */
int	 ms_level_rule(const struct ms_level_family *f, uint64_t cpu,
	    const char *var, const char *value, char *why, size_t cap);

/* Make the choice: the rule over ms_cpu_features() and the environment
 * (var, else old_var).  ms_level_get calls it once. */
unsigned ms_level_choose(struct ms_level_family *f);

/* The level that runs: a refused variable leaves the highest the CPU
 * runs (and ms_level_setup reports the refusal). */
static inline unsigned
ms_level_get(struct ms_level_family *f)
{
	if (atomic_load_explicit(&f->ready, memory_order_acquire))
		return f->chosen;
	return ms_level_choose(f);
}

/* The kernel of the level that runs. */
static inline const void *
ms_level_kernel(struct ms_level_family *f)
{
	return f->level[ms_level_get(f)].kernel;
}

/* Settle the choice; -1 with *why set to the variable's refusal. */
int	 ms_level_setup(struct ms_level_family *f, const char **why);

/* The same for a digest row's load: -1 after printing the refusal. */
int	 ms_level_load(struct ms_level_family *f);

/* The name of the level that runs, or "invalid VAR" after a refusal. */
const char *ms_level_name(struct ms_level_family *f);

/* Can this CPU run level l? */
bool	 ms_level_runs(const struct ms_level_family *f, unsigned l);

/*
 * From now on run the level called name (for tests; call before threads
 * start); -1 if it is not one of the levels or this CPU cannot run it.
 */
int	 ms_level_force(struct ms_level_family *f, const char *name);

#endif
