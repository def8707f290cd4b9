/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * engine_pieces.h - a file's digest piece by piece (engine_pieces.c), for
 * --update --piece-size and for --audit to say where a file changed.
 */
#ifndef MS_ENGINE_PIECES_H
#define MS_ENGINE_PIECES_H

#include <stdint.h>

#include "manifest/ledger.h"

/* The digest of each piece: CRC-64/NVME, 8 bytes, 16 hex digits. */
#define MS_PIECE_ALGO		MS_LEDGER_PIECE_ALGO
#define MS_PIECE_HEX		MS_LEDGER_PIECE_HEX

/*
 * Read path and write the hex of each piece's digest (piece bytes a
 * piece, the last one shorter) into *hex (malloc'd, NUL-terminated).
 * The file must still be what expect describes (size, times, inode),
 * before and after: else -1 with errno EAGAIN ("changed while read"),
 * as any other failure -1 with errno.
 */
int	 ms_pieces_of(const char *path, uint64_t piece,
	    const struct ms_file_stat *expect, char **hex);

#endif
