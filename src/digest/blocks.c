/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blocks.c - the blocks of a digest of block digests (blocks.h): where
 * each block's digest goes, and --part's saved list of them.
 *
 * Owns the count and the saved and joined digests, so that S3's and
 * Dropbox's rows (backend_s3.c) and HDFS's (backend_hdfs.c) share one
 * rule: a part of --part holds whole blocks but for the file's last, and
 * saves its blocks' digests in order; a merge feeds them on, checking
 * that each part comes where the last one ended and holds as many as
 * its length has blocks.  How a block is digested, and the outer digest's
 * final form, are the rows'.
 */
#include "digest/blocks.h"

#include <string.h>

void
ms_blocks_init(struct ms_blocks *b)
{
	b->count = 0;
	b->saving = b->joining = false;
	b->joined = 0;
	b->saved.len = 0;
}

void
ms_blocks_free(struct ms_blocks *b)
{
	ms_bytes_free(&b->saved);
}

void
ms_blocks_done(struct ms_blocks *b, const unsigned char *d)
{
	if (b->saving) {
		ms_bytes_add(&b->saved, d, b->dlen);
	} else {
		b->feed(b->outer, d, b->dlen);
		memcpy(b->last, d, b->dlen);
	}
	b->count++;
}

void
ms_blocks_begin(void *state, uint64_t off)
{
	struct ms_blocks *b = state;

	(void)off;
	b->saving = true;
}

/* Saved: the digests of the part's blocks, its last one ended where the
 * part does (the file's end, or a block's). */
void
ms_blocks_save(void *state, struct ms_bytes *out)
{
	struct ms_blocks *b = state;

	b->end(state);
	ms_bytes_add(out, b->saved.p, b->saved.len);
}

int
ms_blocks_join(void *state, const unsigned char *p, size_t n, uint64_t off,
    uint64_t len)
{
	struct ms_blocks *b = state;
	uint64_t blocks = len / b->block + (len % b->block != 0);

	if (off != b->joined || n % b->dlen != 0 || n / b->dlen != blocks ||
	    b->count + blocks > UINT32_MAX)
		return -1;
	b->joining = true;
	for (size_t i = 0; i < n; i += b->dlen)
		ms_blocks_done(b, p + i);
	b->joined += len;
	return 0;
}
