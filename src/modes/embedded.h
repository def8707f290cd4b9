/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * embedded.h - CRC32s carried in file names, as RHash's -k and
 * --embed-crc read and write them ("name [BC5B1138].mkv").
 */
#ifndef MS_EMBEDDED_H
#define MS_EMBEDDED_H

#include <stdbool.h>

#include "digest/digest_set.h"

/*
 * The CRC32 path's file name carries, as RHash finds it: the last
 * "[XXXXXXXX]" or "(XXXXXXXX)" of eight hex digits (either case) in the
 * name after the last slash.  false if none.
 */
bool	 ms_embedded_crc(const char *path, unsigned char crc[4]);

/* The CRC32 of a result (sel holds crc32). */
const unsigned char *ms_embedded_digest(const struct ms_selection *sel,
	    const unsigned char *digest);

/*
 * path with "DELIM[XXXXXXXX]" (upper case) before the extension of its
 * file name (the last dot not at the name's start), or at its end.
 */
char	*ms_embedded_name(const char *path, const unsigned char crc[4],
	    char delim);

#endif
