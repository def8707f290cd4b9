/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * edonr.c - the built-in EDON-R 256 and 512: the quasigroup operation
 * Q (two orthogonal Latin squares of eight words each), the compression
 * of a block into the double pipe in four rows of e-transformations, and
 * Merkle-Damgard framing with a little-endian 64-bit bit count.
 *
 * Both widths share the description of Q below: which input words each
 * square's eight sums take, their rotations, and how the halves combine;
 * a macro spells out the 32- and 64-bit code from it.
 */
#include "kernels/edonr.h"

#include <string.h>

#include "base/bytes.h"
#include "kernels/block_feed.h"

/* Bit i of sum_x[k] (sum_y[k]): word i enters sum k of the first
 * (second) Latin square. */
static const uint8_t sum_x[8] = {
	0x97, 0x9b, 0xd3, 0xec, 0x6e, 0x3d, 0xe3, 0x7c,
};
static const uint8_t sum_y[8] = {
	0xa7, 0x5b, 0x2f, 0xdc, 0x3b, 0xf4, 0xe6, 0xd9,
};
/* The sums' left rotations, 32- and 64-bit words. */
static const uint8_t rot_x32[8] = { 0, 5, 11, 13, 17, 19, 29, 31 };
static const uint8_t rot_y32[8] = { 0, 3, 7, 11, 17, 19, 23, 29 };
static const uint8_t rot_x64[8] = { 0, 5, 19, 29, 31, 41, 57, 61 };
static const uint8_t rot_y64[8] = { 0, 3, 17, 23, 31, 37, 45, 59 };
/* Output word k: the XOR of the first square's three sums mix_x[k] plus
 * the XOR of the second's mix_y[k] (three bits set in each). */
static const uint8_t mix_x[8] = {
	0x13, 0x91, 0xc2, 0x1c, 0x83, 0x68, 0x64, 0x2c,
};
static const uint8_t mix_y[8] = {
	0x23, 0xc4, 0x0b, 0x19, 0x26, 0x58, 0xa4, 0xd0,
};

#define DEFINE_EDONR(W, T)						\
static inline T								\
rol##W(T x, unsigned n)							\
{									\
	return n == 0 ? x : (T)(x << n | x >> (W - n));			\
}									\
									\
static inline void							\
square##W(T s[8], const T x[8], const uint8_t sum[8],			\
    const uint8_t rot[8], T konst)					\
{									\
	for (int k = 0; k < 8; k++) {					\
		T a = k == 0 ? konst : 0;				\
									\
		for (int i = 0; i < 8; i++)				\
			if (sum[k] >> i & 1)				\
				a += x[i];				\
		s[k] = rol##W(a, rot[k]);				\
	}								\
}									\
									\
/* z = Q(x, y) */							\
static void								\
q##W(T z[8], const T x[8], const T y[8])				\
{									\
	T a[8], b[8];							\
									\
	square##W(a, x, sum_x, rot_x##W, (T)0xaaaaaaaaaaaaaaaaULL);	\
	square##W(b, y, sum_y, rot_y##W, (T)0x5555555555555555ULL);	\
	for (int k = 0; k < 8; k++) {					\
		T u = 0, v = 0;						\
									\
		for (int i = 0; i < 8; i++) {				\
			if (mix_x[k] >> i & 1)				\
				u ^= a[i];				\
			if (mix_y[k] >> i & 1)				\
				v ^= b[i];				\
		}							\
		z[k] = u + v;						\
	}								\
}									\
									\
/* The four rows of e-transformations (q may write over its input). */	\
static void								\
compress##W(T p[16], const T m[16])					\
{									\
	T rev_hi[8], rev_lo[8], a[8], b[8];				\
									\
	for (int i = 0; i < 8; i++) {					\
		rev_hi[i] = m[15 - i];					\
		rev_lo[i] = m[7 - i];					\
	}								\
	q##W(a, rev_hi, m);						\
	q##W(b, a, m + 8);						\
	q##W(a, p + 8, a);						\
	q##W(b, a, b);							\
	q##W(a, a, p);							\
	q##W(b, b, a);							\
	q##W(p, rev_lo, a);						\
	q##W(p + 8, p, b);						\
}

DEFINE_EDONR(32, uint32_t)
DEFINE_EDONR(64, uint64_t)

static void
block(struct ms_edonr *e, const unsigned char *p)
{
	if (e->block == 64) {
		uint32_t m[16];

		for (int i = 0; i < 16; i++)
			m[i] = ms_load_le32(p + 4 * i);
		compress32(e->p.w32, m);
	} else {
		uint64_t m[16];

		for (int i = 0; i < 16; i++)
			m[i] = ms_load_le64(p + 8 * i);
		compress64(e->p.w64, m);
	}
}

void
ms_edonr_init(struct ms_edonr *e, size_t outlen)
{
	memset(e, 0, sizeof(*e));
	/* The initial double pipes: the bytes 0x40..0x7f (EDON-R256) or
	 * 0x80..0xff, each word read big-endian. */
	if (outlen == 32) {
		e->block = 64;
		for (int i = 0; i < 16; i++)
			e->p.w32[i] = 0x40414243u + 0x04040404u * (uint32_t)i;
	} else {
		e->block = 128;
		for (int i = 0; i < 16; i++)
			e->p.w64[i] = 0x8081828384858687ULL +
			    0x0808080808080808ULL * (uint64_t)i;
	}
}

/* k whole blocks at q (ms_block_feed's callback) */
static void
edonr_blocks(void *ctx, const unsigned char *q, size_t k)
{
	struct ms_edonr *c = ctx;

	for (; k > 0; k--, q += c->block)
		block(c, q);
}

void
ms_edonr_update(struct ms_edonr *e, const void *v, size_t n)
{
	e->len += n;
	ms_block_feed(e->buf, &e->fill, e->block, v, n, edonr_blocks, e);
}

void
ms_edonr_final(struct ms_edonr *e, unsigned char *out)
{
	size_t outlen = e->block / 2;

	e->buf[e->fill++] = 0x80;
	if (e->fill > e->block - 8) {
		memset(e->buf + e->fill, 0, e->block - e->fill);
		block(e, e->buf);
		e->fill = 0;
	}
	memset(e->buf + e->fill, 0, e->block - e->fill);
	ms_store_le64(e->buf + e->block - 8, e->len << 3);
	block(e, e->buf);
	for (size_t i = 0; i < outlen / (e->block / 16); i++)
		if (e->block == 64)
			ms_store_le32(out + 4 * i, e->p.w32[8 + i]);
		else
			ms_store_le64(out + 8 * i, e->p.w64[8 + i]);
	memset(e, 0, sizeof(*e));
}
