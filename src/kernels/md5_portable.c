/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * md5_portable.c - MD5's compression (RFC 1321, 3.4) in portable C: one
 * stream, the four words of the state in and out, whole 64-byte blocks
 * padded by the caller (backend_md.c).  The rounds are written out: each
 * step's function, message word, shift and constant are known where it
 * is compiled, and the G rounds add their two terms apart, so that they
 * do not wait for each other.
 */
#include "kernels/md_kernels.h"

static inline uint32_t
rotl(uint32_t x, unsigned s)
{
	return x << s | x >> (32 - s);
}

static inline uint32_t
word_le(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/* Step i of the 64: a = b + ((a + f(b, c, d) + x[g] + K[i]) <<< s). */
#define STEP_F(a, b, c, d, g, s, i)					\
	a += (((c ^ d) & b) ^ d) + x[g] + ms_md5_k[i];			\
	a = rotl(a, s) + b
#define STEP_G(a, b, c, d, g, s, i)					\
	a += (d & b) + x[g] + ms_md5_k[i];				\
	a += ~d & c;							\
	a = rotl(a, s) + b
#define STEP_H(a, b, c, d, g, s, i)					\
	a += (b ^ c ^ d) + x[g] + ms_md5_k[i];				\
	a = rotl(a, s) + b
#define STEP_I(a, b, c, d, g, s, i)					\
	a += (c ^ (b | ~d)) + x[g] + ms_md5_k[i];			\
	a = rotl(a, s) + b

/* Four steps of a round: the state turned a quarter each time. */
#define FOUR(S, g0, g1, g2, g3, s0, s1, s2, s3, i)			\
	S(a, b, c, d, g0, s0, i);					\
	S(d, a, b, c, g1, s1, i + 1);					\
	S(c, d, a, b, g2, s2, i + 2);					\
	S(b, c, d, a, g3, s3, i + 3)

void
ms_md5_portable(uint32_t h[8], const uint8_t *p, size_t blocks)
{
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3];

	for (; blocks > 0; blocks--, p += 64) {
		uint32_t x[16];
		uint32_t a0 = a, b0 = b, c0 = c, d0 = d;

		for (int i = 0; i < 16; i++)
			x[i] = word_le(p + 4 * i);
		FOUR(STEP_F, 0, 1, 2, 3, 7, 12, 17, 22, 0);
		FOUR(STEP_F, 4, 5, 6, 7, 7, 12, 17, 22, 4);
		FOUR(STEP_F, 8, 9, 10, 11, 7, 12, 17, 22, 8);
		FOUR(STEP_F, 12, 13, 14, 15, 7, 12, 17, 22, 12);
		FOUR(STEP_G, 1, 6, 11, 0, 5, 9, 14, 20, 16);
		FOUR(STEP_G, 5, 10, 15, 4, 5, 9, 14, 20, 20);
		FOUR(STEP_G, 9, 14, 3, 8, 5, 9, 14, 20, 24);
		FOUR(STEP_G, 13, 2, 7, 12, 5, 9, 14, 20, 28);
		FOUR(STEP_H, 5, 8, 11, 14, 4, 11, 16, 23, 32);
		FOUR(STEP_H, 1, 4, 7, 10, 4, 11, 16, 23, 36);
		FOUR(STEP_H, 13, 0, 3, 6, 4, 11, 16, 23, 40);
		FOUR(STEP_H, 9, 12, 15, 2, 4, 11, 16, 23, 44);
		FOUR(STEP_I, 0, 7, 14, 5, 6, 10, 15, 21, 48);
		FOUR(STEP_I, 12, 3, 10, 1, 6, 10, 15, 21, 52);
		FOUR(STEP_I, 8, 15, 6, 13, 6, 10, 15, 21, 56);
		FOUR(STEP_I, 4, 11, 2, 9, 6, 10, 15, 21, 60);
		a += a0;
		b += b0;
		c += c0;
		d += d0;
	}
	h[0] = a;
	h[1] = b;
	h[2] = c;
	h[3] = d;
}
