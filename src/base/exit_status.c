/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * exit_status.c - the classes of failure a run met, and the exit status they
 * make (exit_status.h).
 *
 * Owns the priority rule and the face's mapping, nothing else: it prints
 * nothing and never decides whether something failed.  The classes are
 * bits set atomically, so a worker thread may note one.
 */
#include "base/exit_status.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "base/util.h"

static atomic_uint noted;	/* 1u << class, for every class noted */
static bool native;

void
ms_outcome_native(void)
{
	native = true;
}

void
ms_outcome_note(enum ms_outcome c)
{
	atomic_fetch_or(&noted, 1u << c);
}

int
ms_outcome_status(int mode_status)
{
	/* The lowest status that does not invite a retry wins. */
	static const enum ms_outcome order[] = {
		MS_OUTCOME_FAIL, MS_OUTCOME_SIGNATURE, MS_OUTCOME_RETRY,
	};
	unsigned int seen = atomic_load(&noted);

	if (mode_status != MS_EXIT_FAIL || !native)
		return mode_status;
	for (size_t i = 0; i < MS_ARRAY_LEN(order); i++)
		if (seen & 1u << order[i])
			return (int)order[i];
	return MS_EXIT_FAIL;
}

void
ms_outcome_exit(enum ms_outcome c)
{
	ms_outcome_note(c);
	exit(ms_outcome_status(MS_EXIT_FAIL));
}
