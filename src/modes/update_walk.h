/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * update_walk.h - a tree against a ledger: the shared walk of --update and
 * --audit.
 */
#ifndef MS_SURVEY_H
#define MS_SURVEY_H

#include <stdbool.h>

#include "engine/engine.h"
#include "manifest/ledger.h"
#include "modes/options.h"

struct ms_survey_ops {
	/*
	 * A file of the tree, its entry in the ledger (or NULL) and its
	 * status taken before any reading: true to hash it, false to
	 * carry the entry over unread.
	 */
	bool	(*need_hash)(void *arg, const struct ms_ledger_entry *e,
		    const struct ms_file_stat *fs);
	/*
	 * Every file, in walk order: t is the hashed task (t->err set if it
	 * could not be read), or NULL when the entry was carried over.
	 * Called on the caller's thread; t is freed after the call.
	 */
	void	(*result)(void *arg, const char *path, struct ms_ledger_entry *e,
		    const struct ms_file_stat *fs, struct ms_task *t);
};

/*
 * Walk the operands of o (with --shard), look each regular file up in l
 * (marking its entry MS_LEDGER_SEEN) and hand it to ops.  The manifest
 * at path, and the file open as out_fd (-1: none), are not part of the
 * tree even when they lie inside it.  Returns the number of paths that
 * could not be walked or stat'ed, after a message.
 */
size_t	 ms_survey_run(const struct ms_options *o, struct ms_ledger *l,
	    const char *manifest, int out_fd, const struct ms_survey_ops *ops,
	    void *arg);

/*
 * Would the run of o have visited name (with --shard: is it in this
 * shard)?  For entries the walk did not find.
 */
bool	 ms_survey_in_shard(const struct ms_options *o, const char *name);

/* Flush the report on standard output; -1 after a message if it failed. */
int	 ms_survey_flush(void);

#endif
