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

MS_KERNEL_CALLS(whirlpool, ms_whirlpool_init, ms_whirlpool_update,
    ms_whirlpool_final)

/* Loading settles the level, which --debug and --list-algorithms name. */
const struct ms_digest_ops ms_ops_whirlpool = {
	.backend = "built-in", .create = ms_state_create,
	.state_size = sizeof(struct ms_whirlpool),
	.init = whirlpool_init,
	.update = whirlpool_update, .final = whirlpool_final,
	.destroy = free,
	.levels = &ms_whirlpool_levels,
};
