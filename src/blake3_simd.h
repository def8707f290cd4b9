/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3_simd.h - the one body of every SIMD level's many-input
 * compression, included once by each of blake3_sse41.c, blake3_avx2.c
 * and blake3_avx512.c after they define:
 *
 *   VEC, DEGREE        the vector type and how many 32-bit lanes it has
 *   TARGET             the target attribute of every function in the file
 *   ADD XOR SET1 LOADU STOREU ROT16 ROT12 ROT8 ROT7   lane-wise operations
 *   load_msg(rows, off, m)   word w of the block at rows[j] + off into
 *                            lane j of m[w], for DEGREE inputs
 *   MANY, NEXT         this level's function and the one taking the rest
 *
 * Lane j works on input j: the inputs are compressed side by side, one
 * block of each per step, exactly as the portable code does one by one.
 * A last group of more than DEGREE / 2 inputs still takes the full width
 * (the spare lanes repeat the last input and are not stored); fewer go to
 * the next narrower level.
 */
#include <string.h>

#define VG(a, b, c, d, x, y) do {					\
	v[a] = ADD(ADD(v[a], v[b]), x); v[d] = ROT16(XOR(v[d], v[a]));	\
	v[c] = ADD(v[c], v[d]); v[b] = ROT12(XOR(v[b], v[c]));		\
	v[a] = ADD(ADD(v[a], v[b]), y); v[d] = ROT8(XOR(v[d], v[a]));	\
	v[c] = ADD(v[c], v[d]); v[b] = ROT7(XOR(v[b], v[c]));		\
} while (0)

static inline __attribute__((always_inline)) TARGET void
round_fn(VEC v[16], const VEC m[16], int r)
{
	const uint8_t *s = ms_b3_schedule[r];

	VG(0, 4, 8, 12, m[s[0]], m[s[1]]);
	VG(1, 5, 9, 13, m[s[2]], m[s[3]]);
	VG(2, 6, 10, 14, m[s[4]], m[s[5]]);
	VG(3, 7, 11, 15, m[s[6]], m[s[7]]);
	VG(0, 5, 10, 15, m[s[8]], m[s[9]]);
	VG(1, 6, 11, 12, m[s[10]], m[s[11]]);
	VG(2, 7, 8, 13, m[s[12]], m[s[13]]);
	VG(3, 4, 9, 14, m[s[14]], m[s[15]]);
}

TARGET void
MANY(const uint8_t *in, size_t cnt, size_t blocks, const uint32_t key[8],
    uint64_t counter, int inc, uint8_t flags, uint8_t flags_start,
    uint8_t flags_end, uint8_t *out)
{
	size_t stride = blocks * 64;

	while (cnt > DEGREE / 2) {
		size_t lanes = cnt < DEGREE ? cnt : DEGREE;
		const uint8_t *rows[DEGREE];
		uint32_t lo[DEGREE], hi[DEGREE], h_out[8][DEGREE];
		VEC h[8], m[16], v[16], ctr_lo, ctr_hi;

		MS_B3_UNROLL
		for (size_t j = 0; j < DEGREE; j++) {
			uint64_t c = counter + (inc ? j : 0);

			lo[j] = (uint32_t)c;
			hi[j] = (uint32_t)(c >> 32);
			rows[j] = in + (j < lanes ? j : lanes - 1) * stride;
		}
		ctr_lo = LOADU(lo);
		ctr_hi = LOADU(hi);
		MS_B3_UNROLL
		for (int i = 0; i < 8; i++)
			h[i] = SET1((int)key[i]);
		for (size_t b = 0; b < blocks; b++) {
			uint8_t f = flags;

			if (b == 0)
				f |= flags_start;
			if (b + 1 == blocks)
				f |= flags_end;
			load_msg(rows, b * 64, m);
			MS_B3_UNROLL
			for (int i = 0; i < 8; i++)
				v[i] = h[i];
			MS_B3_UNROLL
			for (int i = 0; i < 4; i++)
				v[8 + i] = SET1((int)ms_b3_iv[i]);
			v[12] = ctr_lo;
			v[13] = ctr_hi;
			v[14] = SET1(64);
			v[15] = SET1(f);
			round_fn(v, m, 0);
			round_fn(v, m, 1);
			round_fn(v, m, 2);
			round_fn(v, m, 3);
			round_fn(v, m, 4);
			round_fn(v, m, 5);
			round_fn(v, m, 6);
			MS_B3_UNROLL
			for (int i = 0; i < 8; i++)
				h[i] = XOR(v[i], v[i + 8]);
		}
		/* x86 is little-endian: lane words are the output bytes. */
		MS_B3_UNROLL
		for (int i = 0; i < 8; i++)
			STOREU(h_out[i], h[i]);
		for (size_t j = 0; j < lanes; j++)
			MS_B3_UNROLL
			for (int i = 0; i < 8; i++)
				memcpy(out + 32 * j + 4 * i, &h_out[i][j], 4);
		in += lanes * stride;
		out += lanes * 32;
		if (inc)
			counter += lanes;
		cnt -= lanes;
	}
	if (cnt > 0)
		NEXT(in, cnt, blocks, key, counter, inc, flags, flags_start,
		    flags_end, out);
}
