/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * ledger_int.h - what the two halves of the ledger share: the table of
 * entries (ledger.c) that the reading of a manifest (ledger_read.c)
 * fills.  Nothing outside them includes it.
 */
#ifndef MS_LEDGER_INT_H
#define MS_LEDGER_INT_H

#include "manifest/ledger.h"

/* Where a line's bytes lie in the manifest. */
struct ms_ledger_line {
	uint64_t	 off;		/* its start, or its "#@" line's */
	uint64_t	 len;		/* from there to past its newline */
	bool		 plain;		/* in l->shape, the "#@" line as
					   ms_ledger_write_stat writes it */
};

/*
 * One line's digest for name (nl bytes, no NUL inside): digest i of the
 * selection (SIZE_MAX: an algorithm not selected, only counted).  The
 * lines of one file follow each other and make one entry; fs (NULL:
 * none) is the "#@" line before the entry's first line; ln (NULL: not
 * plain) where the line lies.
 */
void	 ms_ledger_add(struct ms_ledger *l, const char *name, size_t nl,
	    size_t i, const unsigned char *digest, const struct ms_file_stat *fs,
	    const struct ms_ledger_line *ln);

/*
 * After the last line: the name index, sized once, and the later
 * entries of names listed twice marked MS_LEDGER_DUP.
 */
void	 ms_ledger_index(struct ms_ledger *l, const char *path);

#endif
