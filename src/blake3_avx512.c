/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3_avx512.c - BLAKE3 compression of sixteen inputs at once with
 * AVX-512F (512-bit vectors, one input per 32-bit lane, native
 * rotations).  Only the operations and the message transpose live here;
 * the body is blake3_simd.h.
 */
#include "blake3_impl.h"

#ifdef MS_B3_X86
#include <immintrin.h>

#define TARGET		__attribute__((target("avx512f")))
#define VEC		__m512i
#define DEGREE		16
#define ADD(a, b)	_mm512_add_epi32(a, b)
#define XOR(a, b)	_mm512_xor_si512(a, b)
#define SET1(x)		_mm512_set1_epi32(x)
#define LOADU(p)	_mm512_loadu_si512((const void *)(p))
#define STOREU(p, x)	_mm512_storeu_si512((void *)(p), x)
#define ROT16(x)	_mm512_ror_epi32(x, 16)
#define ROT12(x)	_mm512_ror_epi32(x, 12)
#define ROT8(x)		_mm512_ror_epi32(x, 8)
#define ROT7(x)		_mm512_ror_epi32(x, 7)
#define MANY		ms_b3_many_avx512
#define NEXT		ms_b3_many_avx2

/* One 16x16 transpose: rows are inputs, columns message words. */
static inline __attribute__((always_inline)) TARGET void
load_msg(const uint8_t *const rows[], size_t off, __m512i m[16])
{
	__m512i r[16], t[16], u[16];

	MS_B3_UNROLL
	for (int j = 0; j < 16; j++) {
		r[j] = LOADU(rows[j] + off);
		_mm_prefetch((const char *)(rows[j] + off + 256), _MM_HINT_T0);
	}
	MS_B3_UNROLL
	for (int j = 0; j < 16; j += 2) {
		t[j] = _mm512_unpacklo_epi32(r[j], r[j + 1]);
		t[j + 1] = _mm512_unpackhi_epi32(r[j], r[j + 1]);
	}
	/* u[4g + c]: column 4k + c of rows 4g..4g+3, in 128-bit lane k */
	MS_B3_UNROLL
	for (int g = 0; g < 4; g++) {
		u[4 * g + 0] = _mm512_unpacklo_epi64(t[4 * g], t[4 * g + 2]);
		u[4 * g + 1] = _mm512_unpackhi_epi64(t[4 * g], t[4 * g + 2]);
		u[4 * g + 2] = _mm512_unpacklo_epi64(t[4 * g + 1], t[4 * g + 3]);
		u[4 * g + 3] = _mm512_unpackhi_epi64(t[4 * g + 1], t[4 * g + 3]);
	}
	/* A 4x4 transpose of 128-bit lanes for each column c. */
	MS_B3_UNROLL
	for (int c = 0; c < 4; c++) {
		__m512i a = _mm512_shuffle_i32x4(u[c], u[c + 4], 0x44);
		__m512i b = _mm512_shuffle_i32x4(u[c], u[c + 4], 0xEE);
		__m512i d = _mm512_shuffle_i32x4(u[c + 8], u[c + 12], 0x44);
		__m512i e = _mm512_shuffle_i32x4(u[c + 8], u[c + 12], 0xEE);

		m[c + 0] = _mm512_shuffle_i32x4(a, d, 0x88);
		m[c + 4] = _mm512_shuffle_i32x4(a, d, 0xDD);
		m[c + 8] = _mm512_shuffle_i32x4(b, e, 0x88);
		m[c + 12] = _mm512_shuffle_i32x4(b, e, 0xDD);
	}
}

/* One block alone: native 128-bit rotations (AVX-512VL) shorten the
 * chain, and one permute per round gathers that round's message words
 * in the order the row steps take them. */
#define ROW_TARGET	__attribute__((target("avx512f,avx512vl")))
#define ROW_FN		ms_b3_compress_avx512
#define RADD(a, b)	_mm_add_epi32(a, b)
#define RXOR(a, b)	_mm_xor_si128(a, b)
#define RROT16(x)	_mm_ror_epi32(x, 16)
#define RROT12(x)	_mm_ror_epi32(x, 12)
#define RROT8(x)	_mm_ror_epi32(x, 8)
#define RROT7(x)	_mm_ror_epi32(x, 7)
#define ROW_MSG(block)	__m512i msg = _mm512_loadu_si512((const void *)(block))
#define ROW_PICK(s, i, j, k, l)	_mm512_castsi512_si128(			\
	_mm512_permutexvar_epi32(_mm512_setr_epi32(s[i], s[j], s[k], s[l],	\
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), msg))
#include "blake3_row.h"

#include "blake3_simd.h"
#endif
