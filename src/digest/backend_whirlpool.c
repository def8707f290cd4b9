/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend_whirlpool.c - the "whirlpool" algorithm row on the built-in
 * Whirlpool (whirlpool.c).
 *
 * Needs no library: its level table (ops.levels) is all there is to
 * load, and the first state builds the tables.
 */
#include <stdlib.h>

#include "digest/backend.h"
#include "digest/state_create.h"
#include "kernels/whirlpool.h"

static void
whirlpool_init(void *state)
{
	ms_whirlpool_init(state);
}

static void
whirlpool_update(void *state, const void *p, size_t n)
{
	ms_whirlpool_update(state, p, n);
}

static void
whirlpool_final(void *state, unsigned char *out)
{
	ms_whirlpool_final(state, out);
}

static void
whirlpool_destroy(void *state)
{
	free(state);
}

/* Loading settles the level, which --debug and --list-algorithms name. */
const struct ms_digest_ops ms_ops_whirlpool = {
	.backend = "built-in", .create = ms_state_create,
	.state_size = sizeof(struct ms_whirlpool),
	.init = whirlpool_init,
	.update = whirlpool_update, .final = whirlpool_final,
	.destroy = whirlpool_destroy,
	.levels = &ms_whirlpool_levels,
};
