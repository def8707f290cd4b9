/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * merkle.h - BitTorrent v2's SHA-256 Merkle trees (BEP 52), built from
 * their leaves as they come (merkle.c): the btv2 row's and a v2 torrent
 * check's.
 */
#ifndef MS_MERKLE_H
#define MS_MERKLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MS_MERKLE_HASH		32		/* SHA-256 */
#define MS_MERKLE_BLOCK		16384		/* BEP 52's leaf: 16 KiB */
#define MS_MERKLE_LEVELS	64

/*
 * A tree being built: the roots of the full subtrees so far, largest
 * first.  Level 0 is a leaf's (a 16 KiB block's hash); a tree may start
 * at any level (a file's root over its pieces' hashes).
 */
struct ms_merkle {
	void		*sha;		/* a SHA-256 state */
	const void	*ops;		/* its ops */
	size_t		 depth;
	unsigned char	 level[MS_MERKLE_LEVELS];
	unsigned char	 h[MS_MERKLE_LEVELS][MS_MERKLE_HASH];
	unsigned	 base;		/* the level of what ms_merkle_add takes */
	uint64_t	 count;		/* hashes added */
};

struct ms_digest_spec;

/* A tree hashed by sha256 (the sha256 row's spec, loaded); false if
 * memory ran out. */
bool	 ms_merkle_create(struct ms_merkle *m,
	    const struct ms_digest_spec *sha256);
void	 ms_merkle_free(struct ms_merkle *m);
void	 ms_merkle_init(struct ms_merkle *m, unsigned base);
/* SHA-256 of p[0..n) (a leaf). */
void	 ms_merkle_hash(struct ms_merkle *m, const void *p, size_t n,
	    unsigned char out[MS_MERKLE_HASH]);
/* The next hash, of level base. */
void	 ms_merkle_add(struct ms_merkle *m, const unsigned char *h);
/*
 * The root of what was added, padded with the hashes of all-zero
 * subtrees (BEP 52: zero leaves) to a power of two of hashes, and at
 * least to width of them (a power of two): a piece's hash is the root of
 * its blocks padded to the blocks a piece holds.  Nothing added: the
 * zero subtree of width.  The tree is then empty again.
 */
void	 ms_merkle_root(struct ms_merkle *m, uint64_t width,
	    unsigned char out[MS_MERKLE_HASH]);
/* The root of an all-zero subtree of the given level (0: zero leaf). */
void	 ms_merkle_zero(struct ms_merkle *m, unsigned level,
	    unsigned char out[MS_MERKLE_HASH]);

#endif
