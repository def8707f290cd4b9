/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * walk.h - operands to an ordered stream of paths: directory recursion,
 * excludes, the symlink policy, and operand lists read from files.
 */
#ifndef MS_WALK_H
#define MS_WALK_H

#include <stdbool.h>
#include <stddef.h>

struct ms_output;

struct ms_walk_opts {
	bool		 recursive;	/* -r */
	bool		 dereference;	/* -L: follow symlinks inside trees */
	const char	**excludes;	/* --exclude globs */
	size_t		 nexcludes;
	/* -o: its target and temporary are never listed; an operand naming
	 * them is refused.  NULL without -o. */
	const struct ms_output *output;
};

/*
 * Called once per path, in order; path is valid during the call only.
 * walked: the walk found it in a directory as a regular file (open it
 * with ms_source_open_regular); false for operands and list entries.
 */
typedef void ms_walk_fn(void *arg, const char *path, bool walked);

/*
 * Give fn the operand itself or, with -r and a directory, every regular
 * file below it in byte order of names.  Directories that cannot be read
 * are reported; returns how many were.
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

#endif
