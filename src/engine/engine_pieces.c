/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * engine_pieces.c - one file, piece by piece, on the calling thread: the
 * CRC-64/NVME of each aligned piece, for the ledger's "#%" bookkeeping
 * (--update --piece-size) and for --audit, which compares them with the
 * stored ones to name the byte ranges of a corrupt file that changed.
 * A CRC is enough: the whole-file digests say whether the file changed;
 * the pieces only say where, and a 64-bit CRC detects every burst of up
 * to 64 bits and misses other damage once in 2^64.  The file is read
 * again after the engine hashed it, and must not have changed in
 * between: its size, times and inode are compared before and after.
 */
#include "engine/engine_pieces.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "digest/digest_set.h"
#include "io/source.h"
#include "base/util.h"

#define BUFFER	(1u << 18)

/* Is the open file still what expect describes? */
static bool
unchanged(int fd, const struct ms_file_stat *expect)
{
	struct stat st;
	struct ms_file_stat now;

	if (fstat(fd, &st) == -1)
		return false;
	ms_file_stat_from(&now, &st);
	return now.size == expect->size && now.mtime_ns == expect->mtime_ns &&
	    now.ctime_ns == expect->ctime_ns && now.ino == expect->ino;
}

int
ms_pieces_of(const char *path, uint64_t piece, const struct ms_file_stat *expect,
    char **hex)
{
	struct ms_selection sel = { 0 };
	struct ms_digest_spec spec;
	struct ms_digest_set set;
	struct ms_source src;
	struct ms_chunk c;
	const char *why;
	unsigned char *buf, d[8];
	uint64_t n = piece == 0 ? 0 : (expect->size + piece - 1) / piece;
	uint64_t in_piece = 0, done = 0;
	int r, err = 0;

	if (ms_algo_resolve(MS_PIECE_ALGO, 0, &spec, &why) == -1)
		ms_bug("no crc64nvme");
	ms_selection_add(&sel, &spec);
	if (ms_selection_load(&sel) == -1 || n > SIZE_MAX / MS_PIECE_HEX - 1) {
		errno = ENOMEM;
		return -1;
	}
	if (ms_source_open(&src, path, MS_IO_READ) == -1)
		return -1;
	if (!unchanged(src.fd, expect)) {
		ms_source_close(&src);
		errno = EAGAIN;
		return -1;
	}
	*hex = ms_xmalloc((size_t)n * MS_PIECE_HEX + 1);
	**hex = '\0';
	buf = ms_xaligned(4096, BUFFER);
	ms_digest_set_create(&set, &sel);
	ms_digest_set_init(&set);
	while ((r = ms_source_next(&src, &c, buf, BUFFER)) == 1) {
		const unsigned char *p = c.p;
		size_t len = c.len;

		while (len > 0) {
			size_t take = piece - in_piece < len ?
			    (size_t)(piece - in_piece) : len;

			ms_digest_set_update(&set, p, take);
			p += take;
			len -= take;
			in_piece += take;
			if (in_piece == piece && done < n) {
				ms_digest_set_final(&set, d);
				ms_hex(*hex + done++ * MS_PIECE_HEX, d, 8);
				ms_digest_set_init(&set);
				in_piece = 0;
			}
		}
		ms_chunk_release(&c);
	}
	if (r == -1)
		err = errno;
	else if (in_piece > 0 && done < n) {
		ms_digest_set_final(&set, d);
		ms_hex(*hex + done++ * MS_PIECE_HEX, d, 8);
	}
	if (err == 0 && (done != n || !unchanged(src.fd, expect)))
		err = EAGAIN;
	ms_digest_set_destroy(&set);
	ms_source_close(&src);
	free(buf);
	if (err != 0) {
		free(*hex);
		*hex = NULL;
		errno = err;
		return -1;
	}
	return 0;
}
