/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * block_feed.h - the block buffer of the built-in kernels that compress
 * whole blocks (Tiger, MD4/HAS-160, GOST R 34.11-94, Streebog, EDON-R,
 * Snefru, Whirlpool): bytes held until a block is whole, whole blocks
 * compressed straight from the caller's data, the rest held.  Each
 * kernel keeps its own padding and length; this owns only the feeding.
 */
#ifndef MS_BLOCK_FEED_H
#define MS_BLOCK_FEED_H

#include <stddef.h>
#include <string.h>

/*
 * n bytes at p through buf, which holds *fill bytes of a block of block
 * bytes: blocks(ctx, q, k) compresses the k whole blocks at q (buf's
 * own, or the caller's data in place); what is left over stays in buf.
 * Inline, so that a kernel's blocks function is called directly.
 */
static inline void
ms_block_feed(unsigned char *buf, size_t *fill, size_t block,
    const unsigned char *p, size_t n,
    void (*blocks)(void *ctx, const unsigned char *q, size_t k), void *ctx)
{
	if (n == 0)
		return;		/* p may be NULL */
	if (*fill > 0) {
		size_t take = block - *fill < n ? block - *fill : n;

		memcpy(buf + *fill, p, take);
		*fill += take;
		p += take;
		n -= take;
		if (*fill < block)
			return;
		blocks(ctx, buf, 1);
		*fill = 0;
	}
	if (n >= block) {
		blocks(ctx, p, n / block);
		p += n / block * block;
		n %= block;
	}
	memcpy(buf, p, n);
	*fill = n;
}

#endif
