/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3_avx2.c - BLAKE3 compression of eight inputs at once with AVX2
 * (256-bit vectors, one input per 32-bit lane).  Only the operations and
 * the message transpose live here; the body is blake3_simd.h.
 */
#include "blake3_impl.h"

#ifdef MS_B3_X86
#include <immintrin.h>

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
#define MANY		ms_b3_many_avx2
#define NEXT		ms_b3_many_sse41

/* Two 8x8 transposes: rows are inputs, columns message words. */
static inline __attribute__((always_inline)) TARGET void
load_msg(const uint8_t *const rows[], size_t off, __m256i m[16])
{
	MS_B3_UNROLL
	for (int half = 0; half < 2; half++) {
		__m256i r[8], t[8], u[8];

		MS_B3_UNROLL
		for (int j = 0; j < 8; j++) {
			r[j] = LOADU(rows[j] + off + 32 * half);
			if (half == 0)
				_mm_prefetch((const char *)(rows[j] + off + 256),
				    _MM_HINT_T0);
		}
		MS_B3_UNROLL
		for (int j = 0; j < 8; j += 2) {
			t[j] = _mm256_unpacklo_epi32(r[j], r[j + 1]);
			t[j + 1] = _mm256_unpackhi_epi32(r[j], r[j + 1]);
		}
		/* u[4g + c]: column 4k + c of rows 4g..4g+3, in 128-bit lane k */
		MS_B3_UNROLL
		for (int g = 0; g < 2; g++) {
			u[4 * g + 0] = _mm256_unpacklo_epi64(t[4 * g], t[4 * g + 2]);
			u[4 * g + 1] = _mm256_unpackhi_epi64(t[4 * g], t[4 * g + 2]);
			u[4 * g + 2] = _mm256_unpacklo_epi64(t[4 * g + 1], t[4 * g + 3]);
			u[4 * g + 3] = _mm256_unpackhi_epi64(t[4 * g + 1], t[4 * g + 3]);
		}
		MS_B3_UNROLL
		for (int c = 0; c < 4; c++) {
			m[8 * half + c] = _mm256_permute2x128_si256(u[c], u[c + 4], 0x20);
			m[8 * half + c + 4] = _mm256_permute2x128_si256(u[c], u[c + 4], 0x31);
		}
	}
}

#include "blake3_simd.h"
#endif
