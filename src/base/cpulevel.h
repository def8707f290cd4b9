/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cpulevel.h - the one rule by which a built-in kernel (BLAKE3's SIMD
 * widths, the CRC folds, Whirlpool's) picks its level: the highest this
 * CPU runs, unless an environment variable names another that it runs.
 */
#ifndef MS_CPULEVEL_H
#define MS_CPULEVEL_H

#include <stddef.h>

/*
 * A kernel's levels, numbered from 0 (portable C, runs everywhere) up:
 * env is the variable that forces one ("MULTISUM_CRC_IMPL"), names[l]
 * names level l, cpu has bit l set when this CPU runs it (bit 0 always).
 */
struct ms_levels {
	const char		*env;
	const char *const	*names;
	unsigned		 count;
	unsigned		 cpu;
};

/*
 * The level called name, if the CPU runs it; else -1, with why set to
 * one line naming the variable: "ENV=NAME: not one of a, b, c" or
 * "ENV=NAME: this CPU cannot run it".  "auto" is the highest level.
 */
int	 ms_level_named(const struct ms_levels *lv, const char *name,
	    char *why, size_t cap);
/*
 * The level to run: the highest the CPU runs, or the one the variable
 * names.  A name ms_level_named refuses leaves why set (the caller then
 * refuses to hash) and the highest level chosen; else why is "".
 */
unsigned ms_level_choose(const struct ms_levels *lv, char *why, size_t cap);

#endif
