/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * levels.h - for the C unit tests of the built-in kernels: run a kernel
 * family at each level any build has (its known list), and report a
 * level that cannot run here as a skip with the rule's own reason (this
 * build left it out, or this CPU lacks what it needs), never as a pass
 * or a silent absence.
 */
#ifndef MS_TEST_LEVELS_H
#define MS_TEST_LEVELS_H

#include "base/cpulevel.h"
#include "tap.h"

/*
 * Force level name of family f for the checks that follow; or, if it
 * cannot run here, say why as a skip of what and return false.
 */
static inline bool
level_force_or_skip(struct ms_level_family *f, const char *name,
    const char *what)
{
	char why[192];

	if (ms_level_force(f, name) == 0)
		return true;
	if (ms_level_rule(f, ms_cpu_features(), f->var, name, why,
	    sizeof(why)) != -1)
		tap_ok(0, "%s at %s: the rule takes what force refused", what,
		    name);
	else
		tap_skip(why, "%s at %s", what, name);
	return false;
}

#endif
