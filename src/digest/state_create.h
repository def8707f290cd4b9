/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * state_create.h - the create of the backends whose state holds states or
 * buffers of its own (btih, btv2, AICH, HDFS, the MD and OpenSSL rows):
 * the state allocated zeroed, its parts made, and on a failure whatever
 * was made freed again, in one place (state_create.c).
 */
#ifndef MS_STATE_CREATE_H
#define MS_STATE_CREATE_H

#include <stdbool.h>
#include <stddef.h>

#include "digest/algorithm.h"

/*
 * A state of size bytes, zeroed, whose parts make(state, spec) makes.
 * NULL when there is no memory for it or make returns false; then
 * destroy, which must take a state half made, has freed what was made.
 */
void	*ms_state_create(size_t size, const struct ms_digest_spec *spec,
	    bool (*make)(void *state, const struct ms_digest_spec *spec),
	    void (*destroy)(void *state));

#endif
