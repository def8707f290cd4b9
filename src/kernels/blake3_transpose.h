/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3_transpose.h - the 4x4 transpose inside each 128-bit lane that
 * every SIMD level's message load is built on (blake3_sse41.c,
 * blake3_avx2.c, blake3_avx512.c, blake3_neon.c), and the 128-bit
 * levels' store of the chaining values, whose transpose back it needs
 * none of; from the level's VEC, DEGREE, TARGET, STOREU and UNPACKLO32 ..
 * UNPACKHI64 (blake3_simd.h): included once by each after it defines
 * them and before its load_msg.
 */
#ifndef MS_BLAKE3_TRANSPOSE_H
#define MS_BLAKE3_TRANSPOSE_H

/* Rows r[j] (four words of input j, per 128-bit lane) into columns: word
 * c of every input in w[c]. */
static inline __attribute__((always_inline)) TARGET void
transpose4(const VEC r[4], VEC w[4])
{
	VEC lo01 = UNPACKLO32(r[0], r[1]);
	VEC hi01 = UNPACKHI32(r[0], r[1]);
	VEC lo23 = UNPACKLO32(r[2], r[3]);
	VEC hi23 = UNPACKHI32(r[2], r[3]);

	w[0] = UNPACKLO64(lo01, lo23);
	w[1] = UNPACKHI64(lo01, lo23);
	w[2] = UNPACKLO64(hi01, hi23);
	w[3] = UNPACKHI64(hi01, hi23);
}

#if DEGREE == 4
/* The chaining values out after blake3_simd.h's transpose, at the
 * 128-bit levels (SSE4.1, NEON): words 0..3 and 4..7 of each lane are
 * whole vectors already. */
static inline __attribute__((always_inline)) TARGET void
store_rows(uint8_t *out, const VEC f[8], size_t lanes)
{
	MS_B3_UNROLL
	for (size_t c = 0; c < 4; c++)
		if (c < lanes) {
			STOREU(out + 32 * c, f[c]);
			STOREU(out + 32 * c + 16, f[4 + c]);
		}
}
#endif

#endif
