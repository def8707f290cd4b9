/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3_avx2.c - BLAKE3 compression of eight inputs at once with AVX2
 * (256-bit vectors, one input per 32-bit lane).  Only the operations and
 * the message transpose live here; the body is blake3_simd.h.
 */
#include "kernels/blake3_impl.h"

#include <immintrin.h>

#include "kernels/simd_rows.h"

#define TARGET		__attribute__((target("avx2")))
#define VEC		__m256i
#define DEGREE		8
#define ADD(a, b)	_mm256_add_epi32(a, b)
#define XOR(a, b)	_mm256_xor_si256(a, b)
#define SET1(x)		_mm256_set1_epi32(x)
#define LOADU(p)	_mm256_loadu_si256((const __m256i *)(const void *)(p))
#define STOREU(p, x)	_mm256_storeu_si256((__m256i *)(void *)(p), x)
#define ROT16(x)	_mm256_shuffle_epi8(x, _mm256_setr_epi8(2, 3, 0, 1, \
	6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, \
	10, 11, 8, 9, 14, 15, 12, 13))
#define ROT8(x)		_mm256_shuffle_epi8(x, _mm256_setr_epi8(1, 2, 3, 0, \
	5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0, 5, 6, 7, 4, \
	9, 10, 11, 8, 13, 14, 15, 12))
#define ROT12(x)	_mm256_or_si256(_mm256_srli_epi32(x, 12), \
	_mm256_slli_epi32(x, 20))
#define ROT7(x)		_mm256_or_si256(_mm256_srli_epi32(x, 7), \
	_mm256_slli_epi32(x, 25))
#define UNPACKLO32	_mm256_unpacklo_epi32
#define UNPACKHI32	_mm256_unpackhi_epi32
#define UNPACKLO64	_mm256_unpacklo_epi64
#define UNPACKHI64	_mm256_unpackhi_epi64
#define LANE(j)		(j)
#define LANE_IDS	_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define MSG_IN_MEMORY	1
#define MANY		ms_b3_many_avx2
#define NEXT		ms_b3_many_sse41

/*
 * Half of the transpose, words 8h..8h+7: each register starts as the
 * same four words of inputs k and k + 4 (a 128-bit load and an insert
 * straight from memory, which any vector port runs), then two steps of
 * unpacks inside the 128-bit lanes.  Prefetches as for AVX-512: two
 * blocks ahead into L1, the next group of inputs into L2.
 */
static inline __attribute__((always_inline)) TARGET void
load_msg(const uint8_t *p, size_t stride, size_t lanes, __m256i m[16], int h)
{
	MS_B3_UNROLL
	for (int q = 2 * h; q < 2 * h + 2; q++) {
		__m256i r[4];

		MS_B3_UNROLL
		for (int k = 0; k < 4; k++) {
			const uint8_t *lo = p + ms_b3_row(k, lanes) * stride;
			const uint8_t *hi = p + ms_b3_row(k + 4, lanes) * stride;

			r[k] = _mm256_inserti128_si256(_mm256_castsi128_si256(
			    _mm_loadu_si128((const void *)(lo + 16 * q))),
			    _mm_loadu_si128((const void *)(hi + 16 * q)), 1);
			if (q == 0 || q == 2)
				ms_b3_prefetch(lo, hi, q == 0, 8 * stride);
		}
		__m256i lo01 = _mm256_unpacklo_epi32(r[0], r[1]);
		__m256i hi01 = _mm256_unpackhi_epi32(r[0], r[1]);
		__m256i lo23 = _mm256_unpacklo_epi32(r[2], r[3]);
		__m256i hi23 = _mm256_unpackhi_epi32(r[2], r[3]);

		m[4 * q + 0] = _mm256_unpacklo_epi64(lo01, lo23);
		m[4 * q + 1] = _mm256_unpackhi_epi64(lo01, lo23);
		m[4 * q + 2] = _mm256_unpacklo_epi64(hi01, hi23);
		m[4 * q + 3] = _mm256_unpackhi_epi64(hi01, hi23);
	}
}

/* The chaining values out after blake3_simd.h's in-lane transpose: the
 * two 128-bit halves of each lane joined, one store per input. */
static inline __attribute__((always_inline)) TARGET void
store_rows(uint8_t *out, const __m256i f[8], size_t lanes)
{
	MS_B3_UNROLL
	for (size_t c = 0; c < 4; c++) {
		if (c < lanes)
			STOREU(out + 32 * c,
			    _mm256_permute2x128_si256(f[c], f[4 + c], 0x20));
		if (4 + c < lanes)
			STOREU(out + 32 * (4 + c),
			    _mm256_permute2x128_si256(f[c], f[4 + c], 0x31));
	}
}

#include "kernels/blake3_simd.h"

/* BLAKE3 across files: chunks of different messages, a lane each. */
#define ROWS(rows, m)	ms_rows8_avx2(rows, 0, m)
#define BLEND(k, a, b)	_mm256_blendv_epi8(b, a, k)
#define LANES		ms_b3_lanes_avx2
#include "kernels/blake3_lanes.h"
