/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * update_int.h - what the two halves of --update share: the run's state
 * (update.c: fates, results, the summary) and the writing of entries
 * taken from the old ledger, kept ones and checkpoints (update_keep.c).
 * Nothing outside them includes it.
 */
#ifndef MS_UPDATE_INT_H
#define MS_UPDATE_INT_H

#include <stdint.h>

#include "io/output.h"
#include "manifest/ledger.h"
#include "modes/options.h"

enum fate { FATE_UNCHANGED, FATE_ADDED, FATE_CHANGED, FATE_REMOVED,
    FATE_KEPT, FATE_CORRUPT, FATE_CNT };

struct update {
	const struct ms_options *o;
	struct ms_ledger l;
	struct ms_ledger_shape shape;	/* of the lines this run writes */
	struct ms_ledger_head head;	/* this run's bookkeeping */
	struct ms_output out;
	bool		 ndjson;	/* fates on standard output */
	size_t		 cnt[FATE_CNT];
	size_t		 rehashed;	/* unchanged ones that were read */
	size_t		 failed;	/* files not read: entries kept, exit 1 */
	size_t		 fatal;		/* operands not read: not updated */
	/* Plain entries carried over: bytes of the old manifest still to
	 * copy, and whether anything else was written. */
	uint64_t	 copy_off, copy_len;
	bool		 wrote;
	/* Checkpoints (update_keep.c): every interval_ns (0: none), when
	 * something was hashed since the last one. */
	int64_t		 interval_ns, due_ns;
	size_t		 fresh;
	unsigned	 tick;
	size_t		 checkpoints;
};

/* Write the old manifest's bytes still to copy. */
void	 ms_update_flush_copy(struct update *u);

/* Carry e over unread (its file, fs, is as recorded). */
bool	 ms_update_carry(struct update *u, struct ms_ledger_entry *e,
	    const struct ms_file_stat *fs);

/*
 * Write e as the old ledger had it (a file that could not be read now):
 * its bytes when it is plain and trusted, else formatted, its "#@" line
 * only if trusted (ms_ledger_trusted).  False if it cannot be written
 * (a legacy sum's line without a recorded size): then it is lost.
 */
bool	 ms_update_keep(struct update *u, struct ms_ledger_entry *e);

/* Start the checkpoint clock (--checkpoint; 0: none). */
void	 ms_update_checkpoint_start(struct update *u);
/* After each result (hashed: it was read): a checkpoint if one is due. */
void	 ms_update_tick(struct update *u, bool hashed);

#endif
