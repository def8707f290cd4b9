/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kat.h - known answers: the published digest of "abc" for every row of
 * the descriptor table, and a self-consistency check, so that a mode can
 * refuse to trust an algorithm whose backend computes something else.
 */
#ifndef MS_KAT_H
#define MS_KAT_H

#include <stddef.h>

#include "digest/algorithm.h"

enum ms_kat_result {
	MS_KAT_PASS,		/* known answer and consistency both hold */
	MS_KAT_NO_VECTOR,	/* consistent; no known answer at this length */
	MS_KAT_FAIL,
};

/* The published hex digest of "abc" for s, or NULL if there is none. */
const char *ms_kat_abc(const struct ms_digest_spec *s);

/* The spec name of the table's i-th answer, NULL past the end (tests). */
const char *ms_kat_name(size_t i);

/*
 * Check s (already loaded) against its known answer, and check that a
 * message fed in one piece, in odd pieces and through a reused state
 * gives one digest.  On MS_KAT_FAIL, why (cap bytes) says what differed.
 */
enum ms_kat_result ms_kat_check(const struct ms_digest_spec *s, char *why,
	    size_t cap);

#endif
