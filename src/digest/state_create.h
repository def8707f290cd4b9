/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * state_create.h - the one create of the backends whose state is a
 * struct of a known size (state_create.c): the rows point their ops'
 * create here and say the size and what makes the state's parts (its
 * inner states, buffers, the spec's values) in state_size and make.  The
 * state is allocated zeroed, its parts made, and on a failure whatever
 * was made freed again by the row's destroy, in one place.
 */
#ifndef MS_STATE_CREATE_H
#define MS_STATE_CREATE_H

#include "digest/algorithm.h"

/*
 * The create of a row whose ops say state_size and make: a state for
 * spec, of spec->algo->ops's size, zeroed, its parts made by its make
 * (none if NULL).  NULL when there is no memory for it or make returns
 * false; then the ops' destroy, which must take a state half made, has
 * freed what was made.
 */
void	*ms_state_create(const struct ms_digest_spec *spec);

/* The same with ops named, for a backend whose create also serves other
 * rows' specs (OpenSSL's, under the MD rows at level libcrypto). */
void	*ms_state_create_as(const struct ms_digest_ops *ops,
	    const struct ms_digest_spec *spec);

#endif
