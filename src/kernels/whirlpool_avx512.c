/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * whirlpool_avx512.c - Whirlpool's compression on 512-bit registers.
 *
 * Owns the AVX-512 (F, BW, VBMI) and GFNI form of the round in
 * whirlpool.c: the whole 8 x 8 state in one register, byte 8i + j
 * holding row i, column j, and the key schedule in a second one beside
 * it.  SubBytes is a 256-entry lookup done as two 128-entry vpermi2b and
 * a blend on each byte's top bit; ShiftColumns is one vpermb; MixRows
 * adds eight copies of the state, each with its rows rotated m bytes (a
 * 64-bit rotate) and times entry m of cir(1, 1, 4, 1, 8, 5, 2, 9).
 * Those products are one GF2P8AFFINEQB each, a bit matrix that
 * whirlpool.c builds for the 0x11d field; doubling bytes by hand (add,
 * then xor 0x1d where the top bit was set) measured a third slower.
 * Built on x86-64 unless configure --disable-avx512; whirlpool.c calls
 * it only when the CPU has those instructions.
 */
#include "kernels/whirlpool.h"

#include <immintrin.h>

#define TARGET	__attribute__((target("avx512f,avx512bw,avx512vbmi,gfni")))

#define XOR3	0x96	/* vpternlog: a ^ b ^ c */

struct consts {
	__m512i		 s0, s1, s2, s3;	/* the S-box, 64 entries each */
	__m512i		 shift;		/* ShiftColumns as vpermb indices */
	__m512i		 mul[8];	/* MixRows' products as bit matrices */
};

/* SubBytes: entries 0..127 and 128..255 looked up apart, then chosen
 * by the top bit of each byte. */
TARGET static inline __m512i
sub_bytes(const struct consts *c, __m512i x)
{
	__m512i lo = _mm512_permutex2var_epi8(c->s0, x, c->s1);
	__m512i hi = _mm512_permutex2var_epi8(c->s2, x, c->s3);

	return _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), lo, hi);
}

/* Rows rotated m columns right (column j takes column j - m), and their
 * bytes multiplied by MixRows' entry m.  A macro: the rotate's count
 * must be a constant even where the compiler does not inline. */
#define TERM(c, s, m)							\
	_mm512_rol_epi64(_mm512_gf2p8affine_epi64_epi8((s), (c)->mul[m], 0), \
	    8 * (m))

/* One round: SubBytes, ShiftColumns, MixRows, then the key. */
TARGET static inline __m512i
round_of(const struct consts *c, __m512i a, __m512i key)
{
	__m512i s = sub_bytes(c, _mm512_permutexvar_epi8(c->shift, a));
	/* Entries 0, 1 and 3 are 1: no product. */
	__m512i ones = _mm512_ternarylogic_epi64(s, _mm512_rol_epi64(s, 8),
	    _mm512_rol_epi64(s, 24), XOR3);
	__m512i u = _mm512_ternarylogic_epi64(TERM(c, s, 2), TERM(c, s, 4),
	    TERM(c, s, 5), XOR3);
	__m512i v = _mm512_ternarylogic_epi64(TERM(c, s, 6), TERM(c, s, 7),
	    key, XOR3);

	return _mm512_ternarylogic_epi64(ones, u, v, XOR3);
}

TARGET void
ms_whirlpool_avx512(unsigned char h[MS_WHIRLPOOL_LEN], const unsigned char *p,
    size_t cnt, const struct ms_whirlpool_simd *k)
{
	struct consts c;
	unsigned char shift[64];
	__m512i hv = _mm512_loadu_si512(h);

	/* Output row i, column j comes from row i - j, column j. */
	for (unsigned i = 0; i < 8; i++)
		for (unsigned j = 0; j < 8; j++)
			shift[8 * i + j] = (unsigned char)(8 * ((i - j) & 7) + j);
	c.s0 = _mm512_loadu_si512(k->sbox);
	c.s1 = _mm512_loadu_si512(k->sbox + 64);
	c.s2 = _mm512_loadu_si512(k->sbox + 128);
	c.s3 = _mm512_loadu_si512(k->sbox + 192);
	c.shift = _mm512_loadu_si512(shift);
	for (unsigned m = 0; m < 8; m++)
		c.mul[m] = _mm512_set1_epi64((long long)k->mul[m]);
	for (; cnt > 0; cnt--, p += MS_WHIRLPOOL_BLOCK) {
		__m512i m = _mm512_loadu_si512(p);
		__m512i key = hv, s = _mm512_xor_si512(m, hv);

		for (unsigned r = 0; r < 10; r++) {
			/* Round constant r: S-box entries 8r..8r+7 in row 0. */
			__m512i rc = _mm512_maskz_loadu_epi8(0xff, k->sbox + 8 * r);

			key = round_of(&c, key, rc);
			s = round_of(&c, s, key);
		}
		hv = _mm512_ternarylogic_epi64(hv, s, m, XOR3);
	}
	_mm512_storeu_si512(h, hv);
}
