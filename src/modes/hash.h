/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * hash.h - hash mode, shared by multisum and the coreutils personalities,
 * which differ only in the few quirks a struct ms_hash_style names.
 */
#ifndef MS_HASH_H
#define MS_HASH_H

#include <stdbool.h>

#include "modes/options.h"

struct ms_hash_style {
	/* cksum 9.1's CRC reader takes a directory for an empty file. */
	bool		 crc_dir_empty;
	/* Written (as a warning) once, before the first CRC result: cksum
	 * --debug's line naming the implementation; NULL for none. */
	const char	*crc_debug;
};

/*
 * Hash every operand of o (o->files, --files-from lists, directory walks
 * or --archive members; standard input if none) through the engine and
 * write the result lines in operand order to standard output or -o.
 * o->sel must be loaded.  Returns the exit status.
 */
int	 ms_hash_run(const struct ms_options *o, const struct ms_hash_style *style);

/* multisum's hash mode: ms_hash_run in its native style. */
int	 ms_hash_main(const struct ms_options *o);

#endif
