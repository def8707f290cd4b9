/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * archive_source.h - sources that are members of an archive, read in
 * one streaming pass through libarchive (loaded only when used).
 */
#ifndef MS_ARCHIVE_SOURCE_H
#define MS_ARCHIVE_SOURCE_H

#include <stdio.h>

#include "io/source.h"

struct ms_archive;

/* Open an archive file ("-" is standard input); NULL after a message. */
struct ms_archive *ms_archive_open(const char *path);

/*
 * Advance to the next regular member.  Returns 1 with its name (without
 * a leading "./") and a source over its data, 0 at the end, -1 after a
 * message if the archive is damaged.  With link non-NULL, a hard link to
 * an earlier member (which carries no data of its own) is returned too,
 * with *link naming its target and no source; *link is NULL for a
 * regular member.  With link NULL, hard links are skipped.
 */
int	 ms_archive_next(struct ms_archive *ar, const char **name,
	    const char **link, struct ms_source *src);

void	 ms_archive_close(struct ms_archive *ar);

/*
 * A compressed file (gzip, xz, bzip2, zstd: what libarchive's filters
 * read) as a stream of its decompressed bytes; NULL with errno set,
 * EBADMSG for damaged data (a read of the stream fails so too).
 */
FILE	*ms_archive_uncompressed(const char *path);

#endif
