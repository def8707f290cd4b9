/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * engine_members.h - the one pass over the members of an --archive, for hash and
 * check mode: which members to read is the caller's, reading them
 * through the engine and the hard links among them are this file's.
 */
#ifndef MS_ENGINE_MEMBERS_H
#define MS_ENGINE_MEMBERS_H

#include "engine/engine.h"

/*
 * The selection to read member name with (loaded, and alive until the
 * engine is finished), and in *user the value for its task's user; or
 * NULL to skip the member.
 */
typedef const struct ms_selection *ms_member_fn(void *arg, const char *name,
	    void **user);

/* Member name is a hard link to link, whose data was not read (skipped). */
typedef void ms_unread_link_fn(void *arg, const char *name, const char *link,
	    void *user);

/*
 * Submit the members of archive path to e in archive order, each one
 * choose selects; they are read on the calling thread.  The task of a
 * hard link carries its target's selection, digests, size and err (the
 * target's selection may differ from the one choose gave: the caller
 * compares); a link whose target was skipped goes to unread instead.
 * Returns 0; -1 after a message if the archive could not be opened
 * (nothing was submitted); -2 after a message if it is damaged (the
 * members before the damage were submitted).
 */
int	 ms_members_submit(const char *path, struct ms_engine *e,
	    ms_member_fn *choose, ms_unread_link_fn *unread, void *arg);

#endif
