/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blocks.h - a digest of its blocks' digests, the shape of S3's
 * multipart checksums, Dropbox's content_hash and HDFS's MD5 of block
 * MD5s (blocks.c): each block's digest is fed to an outer state, or for
 * --part saved, and a merge joins the saved ones.
 */
#ifndef MS_BLOCKS_H
#define MS_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "digest/algorithm.h"
#include "base/util.h"

/* The first member of the state of a row built on it. */
struct ms_blocks {
	/* the row's: end the block begun, if any (its digest goes to
	 * ms_blocks_done) */
	void		(*end)(void *state);
	uint64_t	 block;		/* bytes per block */
	size_t		 dlen;		/* bytes per block digest */
	/* the outer state that block digests are fed to */
	void		(*feed)(void *outer, const void *p, size_t n);
	void		*outer;
	uint64_t	 count;		/* block digests fed or joined */
	unsigned char	 last[MS_DIGEST_MAX / 8];	/* the last of them */
	bool		 saving;	/* --part: kept in saved, not fed */
	bool		 joining;	/* a merge: they come from join */
	uint64_t	 joined;	/* bytes of the file joined so far */
	struct ms_bytes	 saved;
};

/* A new file (or part): nothing counted, saved or joined. */
void	 ms_blocks_init(struct ms_blocks *b);
void	 ms_blocks_free(struct ms_blocks *b);

/* A block's digest (dlen bytes): fed to the outer state, or saved. */
void	 ms_blocks_done(struct ms_blocks *b, const unsigned char *d);

/* The compose operations (algorithm.h) but align, for such a row. */
void	 ms_blocks_begin(void *state, uint64_t off);
void	 ms_blocks_save(void *state, struct ms_bytes *out);
int	 ms_blocks_join(void *state, const unsigned char *p, size_t n,
	    uint64_t off, uint64_t len);

#endif
