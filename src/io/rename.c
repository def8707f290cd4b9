/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rename.c - renaming a file without ever replacing another (--embed-crc).
 *
 * Owns the choice between renameat2's RENAME_NOREPLACE and link+unlink.
 */
#include "io/rename.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int
ms_rename_noreplace(const char *from, const char *to)
{
#if defined(HAVE_RENAMEAT2) && defined(RENAME_NOREPLACE)
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	/* only a system or file system without the flag falls back */
	if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
		return -1;
#endif
	if (link(from, to) == -1)
		return -1;
	if (unlink(from) == -1) {
		int err = errno;

		/* the file keeps its one name */
		unlink(to);
		errno = err;
		return -1;
	}
	return 0;
}
