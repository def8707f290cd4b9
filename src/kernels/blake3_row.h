/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3_row.h - the one body of the one-block compression on 128-bit
 * vectors (the last chunk, a one-chunk input, a lone parent, the root),
 * included by blake3_sse41.c and blake3_avx512.c after they define:
 *
 *   ROW_TARGET, ROW_FN     the target attribute and the function's name
 *   RADD RXOR RROT16 RROT12 RROT8 RROT7    128-bit lane-wise operations
 *   ROW_MSG(block)         declarations that load the block's 16 words
 *   ROW_PICK(s, i, j, k, l)  the vector of words s[i], s[j], s[k], s[l]
 *
 * The state's four rows are four vectors, so one G step works on the
 * four columns at once; the diagonal step rotates rows b, c and d across
 * lanes first and back after.  A chain of dependent steps: its speed is
 * the latency of the operations, hence native rotations where there are.
 */
#define ROWG(a, b, c, d, mx, my) do {					\
	a = RADD(RADD(a, mx), b); d = RROT16(RXOR(d, a));		\
	c = RADD(c, d); b = RROT12(RXOR(b, c));				\
	a = RADD(RADD(a, my), b); d = RROT8(RXOR(d, a));		\
	c = RADD(c, d); b = RROT7(RXOR(b, c));				\
} while (0)

ROW_TARGET void
ROW_FN(const uint32_t cv[8], const uint8_t block[64], uint8_t block_len,
    uint64_t counter, uint8_t flags, uint32_t v[16])
{
	ROW_MSG(block);
	__m128i a = _mm_loadu_si128((const __m128i *)(const void *)cv);
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(cv + 4));
	__m128i c = _mm_loadu_si128((const __m128i *)(const void *)ms_b3_iv);
	__m128i d = _mm_setr_epi32((int)(uint32_t)counter,
	    (int)(uint32_t)(counter >> 32), block_len, flags);

	MS_B3_UNROLL
	for (int r = 0; r < 7; r++) {
		const uint8_t *s = ms_b3_schedule[r];

		ROWG(a, b, c, d, ROW_PICK(s, 0, 2, 4, 6), ROW_PICK(s, 1, 3, 5, 7));
		b = _mm_shuffle_epi32(b, _MM_SHUFFLE(0, 3, 2, 1));
		c = _mm_shuffle_epi32(c, _MM_SHUFFLE(1, 0, 3, 2));
		d = _mm_shuffle_epi32(d, _MM_SHUFFLE(2, 1, 0, 3));
		ROWG(a, b, c, d, ROW_PICK(s, 8, 10, 12, 14),
		    ROW_PICK(s, 9, 11, 13, 15));
		b = _mm_shuffle_epi32(b, _MM_SHUFFLE(2, 1, 0, 3));
		c = _mm_shuffle_epi32(c, _MM_SHUFFLE(1, 0, 3, 2));
		d = _mm_shuffle_epi32(d, _MM_SHUFFLE(0, 3, 2, 1));
	}
	_mm_storeu_si128((__m128i *)(void *)v, a);
	_mm_storeu_si128((__m128i *)(void *)(v + 4), b);
	_mm_storeu_si128((__m128i *)(void *)(v + 8), c);
	_mm_storeu_si128((__m128i *)(void *)(v + 12), d);
}

#undef ROWG
