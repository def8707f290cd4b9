/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3_sse41.c - BLAKE3 compression of four inputs at once with SSE4.1
 * (128-bit vectors, one input per 32-bit lane), and of one block with
 * the state's rows in four vectors.  The many-input body is
 * blake3_simd.h; only its operations and message transpose live here.
 */
#include <string.h>

#include "kernels/blake3_impl.h"

#include <immintrin.h>

#include "kernels/simd_rows.h"

#define TARGET		__attribute__((target("sse4.1")))
#define VEC		__m128i
#define DEGREE		4
#define ADD(a, b)	_mm_add_epi32(a, b)
#define XOR(a, b)	_mm_xor_si128(a, b)
#define SET1(x)		_mm_set1_epi32(x)
#define LOADU(p)	_mm_loadu_si128((const __m128i *)(const void *)(p))
#define STOREU(p, x)	_mm_storeu_si128((__m128i *)(void *)(p), x)
#define ROT16(x)	_mm_shuffle_epi8(x, _mm_setr_epi8(2, 3, 0, 1, 6, 7, \
	4, 5, 10, 11, 8, 9, 14, 15, 12, 13))
#define ROT8(x)		_mm_shuffle_epi8(x, _mm_setr_epi8(1, 2, 3, 0, 5, 6, \
	7, 4, 9, 10, 11, 8, 13, 14, 15, 12))
#define ROT12(x)	_mm_or_si128(_mm_srli_epi32(x, 12), _mm_slli_epi32(x, 20))
#define ROT7(x)		_mm_or_si128(_mm_srli_epi32(x, 7), _mm_slli_epi32(x, 25))
#define UNPACKLO32	_mm_unpacklo_epi32
#define UNPACKHI32	_mm_unpackhi_epi32
#define UNPACKLO64	_mm_unpacklo_epi64
#define UNPACKHI64	_mm_unpackhi_epi64
#define LANE(j)		(j)
#define LANE_IDS	_mm_setr_epi32(0, 1, 2, 3)
#define MSG_IN_MEMORY	1
#define MANY		ms_b3_many_sse41
#define NEXT		ms_b3_many_portable

#include "kernels/blake3_transpose.h"

/* Two of the four 4x4 transposes, words 8h..8h+7: rows are inputs,
 * columns message words. */
static inline __attribute__((always_inline)) TARGET void
load_msg(const uint8_t *p, size_t stride, size_t lanes, __m128i m[16], int h)
{
	MS_B3_UNROLL
	for (int q = 2 * h; q < 2 * h + 2; q++) {
		const __m128i r[4] = {
			LOADU(p + ms_b3_row(0, lanes) * stride + 16 * q),
			LOADU(p + ms_b3_row(1, lanes) * stride + 16 * q),
			LOADU(p + ms_b3_row(2, lanes) * stride + 16 * q),
			LOADU(p + ms_b3_row(3, lanes) * stride + 16 * q),
		};

		transpose4(r, m + 4 * q);
	}
}

#define ROW_TARGET	TARGET
#define ROW_FN		ms_b3_compress_sse41
#define RADD		ADD
#define RXOR		XOR
#define RROT16		ROT16
#define RROT12		ROT12
#define RROT8		ROT8
#define RROT7		ROT7
#define ROW_MSG(block)	uint32_t m[16]; memcpy(m, block, sizeof(m))
#define ROW_PICK(s, i, j, k, l)	_mm_setr_epi32((int)m[s[i]], (int)m[s[j]], \
	(int)m[s[k]], (int)m[s[l]])
#include "kernels/blake3_row.h"

#include "kernels/blake3_simd.h"

/* BLAKE3 across files: chunks of different messages, a lane each. */
#define ROWS(rows, m)	ms_rows4_sse41(rows, 0, m)
#define BLEND(k, a, b)	_mm_blendv_epi8(b, a, k)
#define LANES		ms_b3_lanes_sse41
#include "kernels/blake3_lanes.h"
