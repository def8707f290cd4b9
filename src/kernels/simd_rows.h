/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * simd_rows.h - the message transposes of the kernels that hash one
 * message per 32-bit lane (md_avx2.c, md_avx512.c, and BLAKE3 across
 * files in blake3_sse41.c, blake3_avx2.c and blake3_avx512.c): 32-bit
 * word i of the 64-byte block at in[j] + off into lane j of w[i], for
 * 4, 8 or 16 lanes, each block wherever it lies.
 *
 * Each is a load per lane and per vector width of the block, then pairs
 * of words, pairs of pairs and, wider than 128 bits, 128-bit lane moves.
 * Included by the x86 kernel files only; every function carries its own
 * target, so a file may include it whatever its own target is.
 */
#ifndef MS_SIMD_ROWS_H
#define MS_SIMD_ROWS_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

static inline __attribute__((always_inline, target("sse4.1"))) void
ms_rows4_sse41(const uint8_t *const in[4], size_t off, __m128i w[16])
{
	_Pragma("GCC unroll 4")
	for (int q = 0; q < 4; q++) {
		__m128i r[4], t[4];

		_Pragma("GCC unroll 4")
		for (int j = 0; j < 4; j++)
			r[j] = _mm_loadu_si128((const __m128i *)(const void *)
			    (in[j] + off + 16 * q));
		t[0] = _mm_unpacklo_epi32(r[0], r[1]);
		t[1] = _mm_unpackhi_epi32(r[0], r[1]);
		t[2] = _mm_unpacklo_epi32(r[2], r[3]);
		t[3] = _mm_unpackhi_epi32(r[2], r[3]);
		w[4 * q + 0] = _mm_unpacklo_epi64(t[0], t[2]);
		w[4 * q + 1] = _mm_unpackhi_epi64(t[0], t[2]);
		w[4 * q + 2] = _mm_unpacklo_epi64(t[1], t[3]);
		w[4 * q + 3] = _mm_unpackhi_epi64(t[1], t[3]);
	}
}

/* Two 8x8 transposes, words 0..7 and 8..15. */
static inline __attribute__((always_inline, target("avx2"))) void
ms_rows8_avx2(const uint8_t *const in[8], size_t off, __m256i w[16])
{
	_Pragma("GCC unroll 2")
	for (int hf = 0; hf < 2; hf++) {
		__m256i r[8], t[8], u[8];

		_Pragma("GCC unroll 8")
		for (int j = 0; j < 8; j++)
			r[j] = _mm256_loadu_si256((const __m256i *)(const void *)
			    (in[j] + off + 32 * hf));
		_Pragma("GCC unroll 4")
		for (int k = 0; k < 4; k++) {
			t[2 * k] = _mm256_unpacklo_epi32(r[2 * k], r[2 * k + 1]);
			t[2 * k + 1] = _mm256_unpackhi_epi32(r[2 * k],
			    r[2 * k + 1]);
		}
		/* u[4k + c]: word 4L + c of lanes 4k .. 4k + 3, 128-bit lane L */
		_Pragma("GCC unroll 2")
		for (int k = 0; k < 2; k++) {
			u[4 * k] = _mm256_unpacklo_epi64(t[4 * k], t[4 * k + 2]);
			u[4 * k + 1] = _mm256_unpackhi_epi64(t[4 * k],
			    t[4 * k + 2]);
			u[4 * k + 2] = _mm256_unpacklo_epi64(t[4 * k + 1],
			    t[4 * k + 3]);
			u[4 * k + 3] = _mm256_unpackhi_epi64(t[4 * k + 1],
			    t[4 * k + 3]);
		}
		_Pragma("GCC unroll 4")
		for (int c = 0; c < 4; c++) {
			w[8 * hf + c] = _mm256_permute2x128_si256(u[c], u[4 + c],
			    0x20);
			w[8 * hf + 4 + c] = _mm256_permute2x128_si256(u[c],
			    u[4 + c], 0x31);
		}
	}
}

static inline __attribute__((always_inline, target("avx512f"))) void
ms_rows16_avx512(const uint8_t *const in[16], size_t off, __m512i w[16])
{
	__m512i r[16], t[16], u[16];

	_Pragma("GCC unroll 16")
	for (int j = 0; j < 16; j++)
		r[j] = _mm512_loadu_si512((const void *)(in[j] + off));
	_Pragma("GCC unroll 8")
	for (int k = 0; k < 8; k++) {
		t[2 * k] = _mm512_unpacklo_epi32(r[2 * k], r[2 * k + 1]);
		t[2 * k + 1] = _mm512_unpackhi_epi32(r[2 * k], r[2 * k + 1]);
	}
	/* u[4k + c]: word 4L + c of lanes 4k .. 4k + 3 in 128-bit lane L */
	_Pragma("GCC unroll 4")
	for (int k = 0; k < 4; k++) {
		u[4 * k] = _mm512_unpacklo_epi64(t[4 * k], t[4 * k + 2]);
		u[4 * k + 1] = _mm512_unpackhi_epi64(t[4 * k], t[4 * k + 2]);
		u[4 * k + 2] = _mm512_unpacklo_epi64(t[4 * k + 1], t[4 * k + 3]);
		u[4 * k + 3] = _mm512_unpackhi_epi64(t[4 * k + 1], t[4 * k + 3]);
	}
	_Pragma("GCC unroll 4")
	for (int c = 0; c < 4; c++) {
		__m512i x = _mm512_shuffle_i32x4(u[c], u[4 + c], 0x44);
		__m512i y = _mm512_shuffle_i32x4(u[c], u[4 + c], 0xee);
		__m512i x2 = _mm512_shuffle_i32x4(u[8 + c], u[12 + c], 0x44);
		__m512i y2 = _mm512_shuffle_i32x4(u[8 + c], u[12 + c], 0xee);

		w[c] = _mm512_shuffle_i32x4(x, x2, 0x88);
		w[4 + c] = _mm512_shuffle_i32x4(x, x2, 0xdd);
		w[8 + c] = _mm512_shuffle_i32x4(y, y2, 0x88);
		w[12 + c] = _mm512_shuffle_i32x4(y, y2, 0xdd);
	}
}

#endif
