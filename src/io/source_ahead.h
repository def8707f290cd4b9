/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * source_ahead.h - read-ahead for a large file that is not in the page
 * cache (source_ahead.c), for source.c and the engine's --debug line.
 */
#ifndef MS_SOURCE_AHEAD_H
#define MS_SOURCE_AHEAD_H

#include <stdbool.h>

#include "io/source.h"

/* After each chunk handed out: the first time, decide whether s is read
 * ahead (large, and not in the page cache); then keep the reads that far
 * ahead of s->pos. */
void	 ms_ahead_next(struct ms_source *s);
/* Is s large, not in the page cache, and not yet read ahead: a file a
 * ring should read (engine.c promotes it whatever its digests' speed)? */
bool	 ms_ahead_planned(const struct ms_source *s);
/* A ring of several workers is about to read s (engine_big.c): if s was
 * planned for read-ahead, read it with O_DIRECT instead, past the page
 * cache (a mapped file's rest too, read, not mapped).  true if so. */
bool	 ms_ahead_direct(struct ms_source *s);
/* Back to reads through the page cache; 0, or -1 with errno. */
int	 ms_ahead_direct_off(struct ms_source *s);
/* --debug: what was decided for s, and why (nothing for a small file). */
void	 ms_ahead_say(const struct ms_source *s);

#endif
