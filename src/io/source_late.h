/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * source_late.h - the late watch's rules (source_late.c), for source.c.
 */
#ifndef MS_SOURCE_LATE_H
#define MS_SOURCE_LATE_H

#include <stdbool.h>
#include <sys/stat.h>

#include "io/source.h"

/* May the next file a walk found, opened for io, be watched late? */
bool	 ms_late_possible(enum ms_io io);
/* Just before its open: s->late, and the moment it is compared with. */
void	 ms_late_begin(struct ms_source *s);
/* After its first read, st its fstat: do the bytes read stand? */
bool	 ms_late_trusted(const struct ms_source *s, int fd,
	    const struct stat *st);

#endif
