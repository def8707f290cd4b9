/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * walk.h - operands to an ordered stream of paths: directory recursion,
 * excludes, the symlink policy, and operand lists read from files.
 */
#ifndef MS_WALK_H
#define MS_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct ms_output;

/* What the walk met below an operand that is not a file to hand on. */
enum ms_walk_event {
	MS_WALK_VANISHED,	/* listed by its directory, gone when looked at */
	MS_WALK_LOOP,		/* -L: a symbolic link loop, not followed */
	MS_WALK_FAILED,		/* could not be examined or read (err) */
};

/*
 * Told of an event at path (a directory's: everything below it is
 * unknown).  Without one, the walk warns, and only MS_WALK_FAILED counts
 * as an error: a vanished file was not there to list, a loop holds
 * nothing the walk has not listed already.
 */
typedef void ms_walk_event_fn(void *arg, const char *path,
    enum ms_walk_event ev, int err);

struct ms_walk_opts {
	bool		 recursive;	/* -r */
	bool		 dereference;	/* -L: follow symlinks inside trees */
	const char	**excludes;	/* --exclude globs */
	size_t		 nexcludes;
	/* -o: its target and temporary are never listed; an operand naming
	 * them is refused.  NULL without -o. */
	const struct ms_output *output;
	ms_walk_event_fn *event;	/* NULL: warn (see above) */
	/*
	 * --per-dir: called with the walk's arg for each directory of a
	 * tree, the operand's included, once its entries are read and
	 * before the first is visited (enter), and after the last (leave).
	 * NULL: not told.
	 */
	void		(*folder)(void *arg, const char *path, bool enter);
};

/*
 * What the walk knows of a regular file it found in a directory, with no
 * stat of its own: its directory's device and the entry's inode number
 * (readdir's; a stat's where the directory gave no type).  Enough to
 * place the file on its device (engine_order.c).
 */
struct ms_walked {
	dev_t		 dev;
	ino_t		 ino;
};

/*
 * Called once per path, in order; path and found are valid during the
 * call only.  found: the walk found it in a directory as a regular file
 * (open it with ms_source_open_regular); NULL for operands and list
 * entries.
 */
typedef void ms_walk_fn(void *arg, const char *path,
    const struct ms_walked *found);

/*
 * Give fn the operand itself or, with -r and a directory, every regular
 * file below it in byte order of names.  Events go to o->event (with
 * fn's arg), or are reported; returns how many were MS_WALK_FAILED.
 */
size_t	 ms_walk(const struct ms_walk_opts *o, const char *operand,
	    ms_walk_fn *fn, void *arg);

/*
 * Read operands from list ("-" is standard input), one per line or, with
 * nul, NUL-terminated, and hand each to fn.  Returns -1 after a message
 * if the list cannot be read, or if a list read from standard input names
 * "-" (refused, as wc --files0-from=- does; the other names are handed on).
 */
int	 ms_walk_list(const char *list, bool nul, ms_walk_fn *fn, void *arg);

/*
 * Could an operand that a run leaves out (--shard) be read?  0, or the
 * errno its stat or, for a regular file or a directory, its open gives:
 * a shard fails on a missing or unreadable operand as a whole run does.
 */
int	 ms_walk_probe(const char *operand);

/* The warning for a file gone before it was read (then: what follows). */
void	 ms_walk_vanished(const char *path, const char *then);

#endif
