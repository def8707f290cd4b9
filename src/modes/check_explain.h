/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * check_explain.h - the messages that explain how check mode chose the
 * algorithm of a line, or why it could not verify one (check_explain.c).
 */
#ifndef MS_CHECK_EXPLAIN_H
#define MS_CHECK_EXPLAIN_H

#include <stdbool.h>

#include "digest/digest_set.h"
#include "io/output.h"
#include "manifest/manifest.h"

/* Why check mode itself did not hash an entry (a task's err < 0). */
enum {
	MS_ERR_TOO_MANY = -2,	/* more digests of one member than a set holds */
	MS_ERR_LINK_UNLISTED = -3,	/* a hard link whose target was not read */
	MS_ERR_LINK_DIGESTS = -4,	/* ... or read without the digests needed */
	MS_ERR_NAMESAKES = -5,	/* more lines name a member than it has namesakes */
};

/* The text of one of those. */
const char *ms_explain_err(int err);

/*
 * Each of these says what it says on standard error after writing what
 * out (the report) holds, so that the two stay in order.
 */

/* --debug: "debug: MANIFEST: LINE: FILE: sha256 (by its length)". */
void	 ms_explain_debug(struct ms_output *out, const char *manifest,
	    unsigned long line, const char *path,
	    const struct ms_selection *sel, enum ms_resolved how);

/*
 * After a FAILED line whose algorithm was a guess (its length or the
 * manifest's name): what was assumed and how to name another; tried:
 * its stand-ins were tried too, and only those that may not stand in
 * are named.  manifest is NULL for --expect.  Returns whether it said
 * anything.
 */
bool	 ms_explain_hint(struct ms_output *out, const char *manifest,
	    const struct ms_digest_spec *s, enum ms_resolved how, bool tried);

/* A non-cryptographic default taken by length is named; said or not. */
bool	 ms_explain_note(struct ms_output *out, const char *manifest,
	    const struct ms_digest_spec *s, enum ms_resolved how);

#endif
