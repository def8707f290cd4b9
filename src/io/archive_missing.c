/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * archive_missing.c - --archive in a build without libarchive.
 *
 * configure --without-libarchive drops archive_source.c; this file takes
 * its place with the same entry points, and opening an archive is
 * refused with one line naming the archive and the missing library.
 */
#include "io/archive_source.h"

#include <errno.h>

#include "base/util.h"

struct ms_archive *
ms_archive_open(const char *path)
{
	ms_warn("%s: this multisum was built without libarchive (configure "
	    "--without-libarchive), so --archive cannot read it", path);
	return NULL;
}

/* Never reached: nothing is opened. */
int
ms_archive_next(struct ms_archive *ar, const char **name, const char **link,
    struct ms_source *src)
{
	(void)ar, (void)name, (void)link, (void)src;
	return -1;
}

void
ms_archive_close(struct ms_archive *ar)
{
	(void)ar;
}

/* A compressed list cannot be read: said by the caller. */
FILE *
ms_archive_uncompressed(const char *path)
{
	(void)path;
	errno = ENOTSUP;
	return NULL;
}
