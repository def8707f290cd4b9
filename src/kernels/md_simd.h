/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * md_simd.h - the one body of the many-lane compressions of MD5 (RFC
 * 1321), SHA-1 and SHA-256 (FIPS 180-4), one message per 32-bit lane,
 * included once by each of md_avx2.c and md_avx512.c after they define:
 *
 *   VEC, LANES         the vector type and how many 32-bit lanes it has
 *   TARGET             the target attribute of every function in the file
 *   ADD XOR AND OR SET1 LOADU STOREU SHR ROTL(x, n) ROTR(x, n)
 *                      lane-wise operations
 *   CH(x, y, z)        x ? y : z, bit by bit (MD5's F, SHA's Ch)
 *   MAJ(x, y, z)       the majority of the three
 *   XOR3(x, y, z)      x ^ y ^ z
 *   MD5G(x, y, z)      (x & z) | (y & ~z)
 *   MD5I(x, y, z)      y ^ (x | ~z)
 *   load_words(in, off, w, swap)   word i of the 64-byte block at
 *                      in[j] + off into lane j of w[i], byte-swapped
 *                      (big-endian words) if swap
 *   MD5_MANY, SHA1_MANY, SHA256_MANY   the names of this level's kernels
 *
 * Every round is written once, for all lanes: the lanes are independent
 * messages (md_lanes.c keeps them filled), so the chains of dependent
 * operations that bound one stream run LANES at a time.
 */

/* The state of h[0..LANES) into vectors of word w, and back. */
static inline __attribute__((always_inline)) TARGET void
state_in(VEC *s, uint32_t (*h)[8], int words)
{
	uint32_t t[LANES];

	for (int w = 0; w < words; w++) {
		for (int j = 0; j < LANES; j++)
			t[j] = h[j][w];
		s[w] = LOADU(t);
	}
}

static inline __attribute__((always_inline)) TARGET void
state_out(const VEC *s, uint32_t (*h)[8], int words)
{
	uint32_t t[LANES];

	for (int w = 0; w < words; w++) {
		STOREU(t, s[w]);
		for (int j = 0; j < LANES; j++)
			h[j][w] = t[j];
	}
}

/* ---------------------------------------------------------------- MD5 */

/* The message word step i reads. */
#define MD5_WORD(i)	((i) < 16 ? (i) : (i) < 32 ? (5 * (i) + 1) & 15 :	\
	(i) < 48 ? (3 * (i) + 5) & 15 : (7 * (i)) & 15)

/*
 * Step i (a literal: every operand is then a constant, the rotation an
 * immediate) on v, where v[-i & 3] is a, v[(1 - i) & 3] b and so on: the
 * new b goes where a was, so no value moves.
 */
#define MD5_STEP(FN, i, r) do {						\
	VEC *a_ = &v[-(i) & 3], b_ = v[(1 - (i)) & 3];			\
	VEC t_ = ADD(ADD(*a_, FN(b_, v[(2 - (i)) & 3], v[(3 - (i)) & 3])),	\
	    ADD(m[MD5_WORD(i)], SET1((int)ms_md5_k[i])));		\
									\
	*a_ = ADD(b_, ROTL(t_, r));					\
} while (0)
#define MD5_QUAD(FN, i, r0, r1, r2, r3) do {				\
	MD5_STEP(FN, i, r0); MD5_STEP(FN, (i) + 1, r1);			\
	MD5_STEP(FN, (i) + 2, r2); MD5_STEP(FN, (i) + 3, r3);		\
} while (0)
#define MD5_ROUND(FN, i, r0, r1, r2, r3) do {				\
	MD5_QUAD(FN, i, r0, r1, r2, r3);				\
	MD5_QUAD(FN, (i) + 4, r0, r1, r2, r3);				\
	MD5_QUAD(FN, (i) + 8, r0, r1, r2, r3);				\
	MD5_QUAD(FN, (i) + 12, r0, r1, r2, r3);				\
} while (0)

TARGET void
MD5_MANY(uint32_t (*h)[8], const uint8_t *const in[], size_t blocks)
{
	VEC s[4], m[16];

	state_in(s, h, 4);
	for (size_t b = 0; b < blocks; b++) {
		VEC v[4] = { s[0], s[1], s[2], s[3] };

		load_words(in, 64 * b, m, 0);
		/* RFC 1321's rotations: 7 12 17 22, 5 9 14 20, ... */
		MD5_ROUND(CH, 0, 7, 12, 17, 22);
		MD5_ROUND(MD5G, 16, 5, 9, 14, 20);
		MD5_ROUND(XOR3, 32, 4, 11, 16, 23);
		MD5_ROUND(MD5I, 48, 6, 10, 15, 21);
		for (int i = 0; i < 4; i++)
			s[i] = ADD(s[i], v[i]);
	}
	state_out(s, h, 4);
}

/* -------------------------------------------------------------- SHA-1 */

TARGET void
SHA1_MANY(uint32_t (*h)[8], const uint8_t *const in[], size_t blocks)
{
	VEC s[5], w[16];

	state_in(s, h, 5);
	for (size_t blk = 0; blk < blocks; blk++) {
		VEC a = s[0], b = s[1], c = s[2], d = s[3], e = s[4];

		load_words(in, 64 * blk, w, 1);
		_Pragma("GCC unroll 80")
		for (int t = 0; t < 80; t++) {
			VEC f, tmp;

			if (t >= 16)
				w[t & 15] = ROTL(XOR(XOR3(w[(t - 3) & 15],
				    w[(t - 8) & 15], w[(t - 14) & 15]),
				    w[t & 15]), 1);
			f = t < 20 ? CH(b, c, d) : t < 40 ? XOR3(b, c, d) :
			    t < 60 ? MAJ(b, c, d) : XOR3(b, c, d);
			tmp = ADD(ADD(ROTL(a, 5), f), ADD(ADD(e,
			    SET1((int)ms_sha1_k[t / 20])), w[t & 15]));
			e = d;
			d = c;
			c = ROTL(b, 30);
			b = a;
			a = tmp;
		}
		s[0] = ADD(s[0], a);
		s[1] = ADD(s[1], b);
		s[2] = ADD(s[2], c);
		s[3] = ADD(s[3], d);
		s[4] = ADD(s[4], e);
	}
	state_out(s, h, 5);
}

/* ------------------------------------------------------------ SHA-256 */

#define BSIG0(x)	XOR3(ROTR(x, 2), ROTR(x, 13), ROTR(x, 22))
#define BSIG1(x)	XOR3(ROTR(x, 6), ROTR(x, 11), ROTR(x, 25))
#define SSIG0(x)	XOR3(ROTR(x, 7), ROTR(x, 18), SHR(x, 3))
#define SSIG1(x)	XOR3(ROTR(x, 17), ROTR(x, 19), SHR(x, 10))

TARGET void
SHA256_MANY(uint32_t (*h)[8], const uint8_t *const in[], size_t blocks)
{
	VEC s[8], w[16];

	state_in(s, h, 8);
	for (size_t blk = 0; blk < blocks; blk++) {
		VEC v[8];

		for (int i = 0; i < 8; i++)
			v[i] = s[i];
		load_words(in, 64 * blk, w, 1);
		_Pragma("GCC unroll 64")
		for (int t = 0; t < 64; t++) {
			/* v[(8 - t) & 7] is a, v[(12 - t) & 7] is e, ... */
			VEC *a = &v[(8 - t) & 7], *b = &v[(9 - t) & 7];
			VEC *c = &v[(10 - t) & 7], *d = &v[(11 - t) & 7];
			VEC *e = &v[(12 - t) & 7], *f = &v[(13 - t) & 7];
			VEC *g = &v[(14 - t) & 7], *hh = &v[(15 - t) & 7];
			VEC t1;

			if (t >= 16)
				w[t & 15] = ADD(ADD(w[t & 15],
				    SSIG0(w[(t + 1) & 15])), ADD(w[(t + 9) & 15],
				    SSIG1(w[(t + 14) & 15])));
			t1 = ADD(ADD(*hh, BSIG1(*e)), ADD(CH(*e, *f, *g),
			    ADD(w[t & 15], SET1((int)ms_sha256_k[t]))));
			*d = ADD(*d, t1);
			/* the old h becomes the new a */
			*hh = ADD(t1, ADD(BSIG0(*a), MAJ(*a, *b, *c)));
		}
		for (int i = 0; i < 8; i++)
			s[i] = ADD(s[i], v[i]);
	}
	state_out(s, h, 8);
}
