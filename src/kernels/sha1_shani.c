/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * sha1_shani.c - SHA-1's compression (FIPS 180-4, 6.1.2) with the SHA
 * extensions: sha1rnds4 does four rounds on A..D (one register, A in
 * the top word) with E folded into the message words by sha1nexte;
 * sha1msg1, a xor and sha1msg2 make the schedule, four words at a time.
 * One stream: the state is the five words of the specification, in and
 * out; blocks are whole 64-byte blocks, padded by the caller
 * (backend_md.c).
 */
#include "kernels/md_kernels.h"

#include <immintrin.h>

#define TARGET	__attribute__((target("sha,sse4.1")))

/* Four rounds of the function of rounds 20f .. 20f + 19: an immediate. */
static inline __attribute__((always_inline)) TARGET __m128i
rounds4(__m128i abcd, __m128i e, int f)
{
	switch (f) {
	case 0: return _mm_sha1rnds4_epu32(abcd, e, 0);
	case 1: return _mm_sha1rnds4_epu32(abcd, e, 1);
	case 2: return _mm_sha1rnds4_epu32(abcd, e, 2);
	default: return _mm_sha1rnds4_epu32(abcd, e, 3);
	}
}

TARGET void
ms_sha1_shani(uint32_t h[8], const uint8_t *p, size_t blocks)
{
	/* the 16 bytes reversed: big-endian words, the first on top */
	const __m128i swap = _mm_set_epi64x(0x0001020304050607ULL,
	    0x08090a0b0c0d0e0fULL);
	__m128i abcd = _mm_shuffle_epi32(
	    _mm_loadu_si128((const __m128i *)h), 0x1B);
	__m128i e0 = _mm_set_epi32((int)h[4], 0, 0, 0);

	for (; blocks > 0; blocks--, p += 64) {
		__m128i save_abcd = abcd, save_e = e0, before = abcd, e;
		__m128i w[4];

		for (int g = 0; g < 4; g++)
			w[g] = _mm_shuffle_epi8(_mm_loadu_si128(
			    (const __m128i *)(p + 16 * g)), swap);
		/*
		 * Quad q: rounds 4q .. 4q + 3 on words group q (register
		 * q % 4), E from the A..D of the quad before.  The schedule
		 * runs ahead: group q + 1 is finished (sha1msg2), group
		 * q + 2 gets its xor and group q + 3 its sha1msg1.
		 */
		_Pragma("GCC unroll 20")	/* whole: the ifs and q / 5 fold */
		for (int q = 0; q < 20; q++) {
			e = q == 0 ? _mm_add_epi32(e0, w[0]) :
			    _mm_sha1nexte_epu32(before, w[q & 3]);
			before = abcd;
			abcd = rounds4(abcd, e, q / 5);
			if (q >= 3 && q <= 18)
				w[(q + 1) & 3] = _mm_sha1msg2_epu32(
				    w[(q + 1) & 3], w[q & 3]);
			if (q >= 2 && q <= 17)
				w[(q + 2) & 3] = _mm_xor_si128(w[(q + 2) & 3],
				    w[q & 3]);
			if (q >= 1 && q <= 16)
				w[(q + 3) & 3] = _mm_sha1msg1_epu32(
				    w[(q + 3) & 3], w[q & 3]);
		}
		e0 = _mm_sha1nexte_epu32(before, save_e);
		abcd = _mm_add_epi32(abcd, save_abcd);
	}
	_mm_storeu_si128((__m128i *)h, _mm_shuffle_epi32(abcd, 0x1B));
	h[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}
