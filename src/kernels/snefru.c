/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * snefru.c - the built-in Snefru: Merkle's compression of a 16-word
 * block (the chaining value, then the message words, big-endian) in 8
 * passes of the S-boxes, and its framing: a partial last block padded
 * with zeros, then a block holding only the 64-bit bit count.
 */
#include "kernels/snefru.h"

#include <string.h>

#include "base/bytes.h"
#include "kernels/block_feed.h"
#include "kernels/snefru_sbox.h"

static inline uint32_t
ror32(uint32_t x, unsigned n)
{
	return x >> n | x << (32 - n);
}

static void
compress(struct ms_snefru *s, const unsigned char *p)
{
	static const uint8_t shift[4] = { 16, 8, 16, 24 };
	size_t hw = s->outlen / 4;
	uint32_t w[16];

	memcpy(w, s->h, hw * sizeof(*w));
	for (size_t i = hw; i < 16; i++)
		w[i] = ms_load_be32(p + 4 * (i - hw));
	for (int pass = 0; pass < 8; pass++)
		for (int r = 0; r < 4; r++) {
			for (int i = 0; i < 16; i++) {
				uint32_t x = sbox[2 * pass + (i >> 1 & 1)]
				    [w[i] & 0xff];

				w[(i + 15) & 15] ^= x;
				w[(i + 1) & 15] ^= x;
			}
			for (int i = 0; i < 16; i++)
				w[i] = ror32(w[i], shift[r]);
		}
	for (size_t i = 0; i < hw; i++)
		s->h[i] ^= w[15 - i];
}

void
ms_snefru_init(struct ms_snefru *s, size_t outlen)
{
	memset(s, 0, sizeof(*s));
	s->outlen = outlen;
	s->block = 64 - outlen;
}

/* k whole blocks at q (ms_block_feed's callback) */
static void
snefru_blocks(void *ctx, const unsigned char *q, size_t k)
{
	struct ms_snefru *c = ctx;

	for (; k > 0; k--, q += c->block)
		compress(c, q);
}

void
ms_snefru_update(struct ms_snefru *s, const void *v, size_t n)
{
	s->len += n;
	ms_block_feed(s->buf, &s->fill, s->block, v, n, snefru_blocks, s);
}

void
ms_snefru_final(struct ms_snefru *s, unsigned char *out)
{
	if (s->fill > 0) {
		memset(s->buf + s->fill, 0, s->block - s->fill);
		compress(s, s->buf);
	}
	memset(s->buf, 0, s->block);
	ms_store_be64(s->buf + s->block - 8, s->len << 3);
	compress(s, s->buf);
	for (size_t i = 0; i < s->outlen / 4; i++)
		ms_store_be32(out + 4 * i, s->h[i]);
	memset(s, 0, sizeof(*s));
}
