/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend_whirlpool.c - the "whirlpool" algorithm row on the built-in
 * Whirlpool (whirlpool.c).
 *
 * Needs no library: load only builds the tables and settles the code
 * level, which variant() reports for --debug and --list-algorithms.
 */
#include <stdlib.h>

#include "digest/backend.h"
#include "base/util.h"
#include "kernels/whirlpool.h"

static int
load(const struct ms_algo *a)
{
	const char *why;

	(void)a;
	if (ms_whirlpool_setup(&why) == -1) {
		ms_warn("%s", why);
		return -1;
	}
	return 0;
}

static void *
create(const struct ms_digest_spec *s)
{
	(void)s;
	return malloc(sizeof(struct ms_whirlpool));
}

static void
init(void *state)
{
	ms_whirlpool_init(state);
}

static void
update(void *state, const void *p, size_t n)
{
	ms_whirlpool_update(state, p, n);
}

static void
final(void *state, unsigned char *out)
{
	ms_whirlpool_final(state, out);
}

static void
destroy(void *state)
{
	free(state);
}

/* The code level that runs. */
static const char *
variant(const struct ms_digest_spec *s)
{
	(void)s;
	return ms_whirlpool_level();
}

const struct ms_digest_ops ms_ops_whirlpool = {
	.backend = "built-in", .load = load, .create = create, .init = init,
	.update = update, .final = final, .destroy = destroy,
	.variant = variant,
};
