/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * update_walk.h - a tree against a ledger: the shared walk of --update and
 * --audit.
 */
#ifndef MS_UPDATE_WALK_H
#define MS_UPDATE_WALK_H

#include <stdbool.h>
#include <sys/stat.h>

#include "engine/engine.h"
#include "manifest/ledger.h"
#include "modes/options.h"

/* A path the survey could not hand over as a file (ops->missed). */
enum ms_update_walk_miss {
	/* Gone: found by the walk (or listed, with an entry of that name)
	 * and gone when it was examined or read.  Its entry, if any, is no
	 * longer MS_LEDGER_SEEN: the tree changed, this is no error. */
	MS_MISS_GONE,
	/* Could not be examined or read (err): an error.  operand: the path
	 * is an operand or list entry, not a file the walk found. */
	MS_MISS_FAILED,
	/* An entry below a directory that just FAILED: nothing is known of
	 * its file (err is the directory's).  Said once, for the directory. */
	MS_MISS_BELOW,
};

struct ms_update_walk_ops {
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
	/*
	 * In walk order too: a path that is not handed to result, e its
	 * entry (or NULL); MS_LEDGER_SEEN for FAILED and BELOW entries.
	 */
	void	(*missed)(void *arg, const char *path, struct ms_ledger_entry *e,
		    enum ms_update_walk_miss how, int err, bool operand);
	/* Is st the manifest (or its replacement)?  Never part of the tree. */
	bool	(*is_self)(void *arg, const struct stat *st);
};

/*
 * Walk the operands of o (with --shard), look each regular file up in l
 * (marking its entry MS_LEDGER_SEEN) and hand it to ops.  Files ops
 * calls self are not part of the tree even when they lie inside it.
 * Returns -1 if a --files-from list could not be read (after a message).
 */
int	 ms_update_walk_run(const struct ms_options *o, struct ms_ledger *l,
	    const struct ms_update_walk_ops *ops, void *arg);

/*
 * Before a run that must leave its ledger untouched when an operand is
 * missing: check every operand of o (ms_walk_probe).  The number that
 * failed, each after a message.
 */
size_t	 ms_update_walk_probe(const struct ms_options *o);

/*
 * Would the run of o have visited name (with --shard: is it in this
 * shard)?  For entries the walk did not find.
 */
bool	 ms_update_walk_in_shard(const struct ms_options *o, const char *name);

/* Flush the report on standard output; -1 after a message if it failed. */
int	 ms_update_walk_flush(void);

#endif
