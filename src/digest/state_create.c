/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * state_create.c - a backend state and its parts made, or nothing left
 * behind (state_create.h).
 */
#include "digest/state_create.h"

#include <stdlib.h>

void *
ms_state_create(size_t size, const struct ms_digest_spec *spec,
    bool (*make)(void *state, const struct ms_digest_spec *spec),
    void (*destroy)(void *state))
{
	void *s = calloc(1, size);

	if (s != NULL && !make(s, spec)) {
		destroy(s);
		s = NULL;
	}
	return s;
}
