/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cpulevel.c - choosing a built-in kernel's level from the CPU and the
 * environment (cpulevel.h): one rule and one wording of its refusals for
 * blake3.c, crc.c and whirlpool.c.
 */
#include "base/cpulevel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned
highest(const struct ms_levels *lv)
{
	unsigned l = lv->count - 1;

	while (l > 0 && !(lv->cpu & 1u << l))
		l--;
	return l;
}

int
ms_level_named(const struct ms_levels *lv, const char *name, char *why,
    size_t cap)
{
	unsigned l;
	int n;

	if (strcmp(name, "auto") == 0)
		return (int)highest(lv);
	for (l = 0; l < lv->count; l++)
		if (strcmp(name, lv->names[l]) == 0)
			break;
	if (l < lv->count && (lv->cpu & 1u << l))
		return (int)l;
	if (l < lv->count) {
		snprintf(why, cap, "%s=%s: this CPU cannot run it", lv->env,
		    name);
		return -1;
	}
	n = snprintf(why, cap, "%s=%s: not one of", lv->env, name);
	for (l = 0; l < lv->count && n >= 0 && (size_t)n < cap; l++)
		n += snprintf(why + n, cap - (size_t)n, "%s %s",
		    l > 0 ? "," : "", lv->names[l]);
	return -1;
}

unsigned
ms_level_choose(const struct ms_levels *lv, char *why, size_t cap)
{
	const char *env = getenv(lv->env);
	int l;

	why[0] = '\0';
	if (env == NULL || *env == '\0')
		return highest(lv);
	l = ms_level_named(lv, env, why, cap);
	return l < 0 ? highest(lv) : (unsigned)l;
}
