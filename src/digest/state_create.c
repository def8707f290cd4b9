/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * state_create.c - a backend state and its parts made from the row's
 * state_size and make, or nothing left behind (state_create.h).
 */
#include "digest/state_create.h"

#include <stdlib.h>

#include "base/util.h"

void *
ms_state_create_as(const struct ms_digest_ops *ops,
    const struct ms_digest_spec *spec)
{
	void *s = calloc(1, ops->state_size);

	if (s != NULL && ops->make != NULL && !ops->make(s, spec)) {
		ops->destroy(s);
		s = NULL;
	}
	return s;
}

void *
ms_state_create(const struct ms_digest_spec *spec)
{
	const struct ms_digest_ops *ops = spec->algo->ops;

	if (ops->create != ms_state_create || ops->state_size == 0)
		ms_bug("ms_state_create: a row without a state size");
	return ms_state_create_as(ops, spec);
}
