/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rename.h - renaming a file without ever replacing another.
 */
#ifndef MS_RENAME_H
#define MS_RENAME_H

/*
 * Rename from to to, atomically, unless to exists (EEXIST): renameat2's
 * RENAME_NOREPLACE where the system and the file system have it, else a
 * hard link to the new name and the old one removed.  -1 with errno.
 */
int	 ms_rename_noreplace(const char *from, const char *to);

#endif
