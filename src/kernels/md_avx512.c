/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * md_avx512.c - MD5, SHA-1 and SHA-256 of sixteen messages at once with
 * AVX-512F (one message per 32-bit lane, native rotations, every boolean
 * function of the rounds one vpternlogd).  Only the operations and the
 * message transpose live here; the rounds are md_simd.h.
 */
#include "kernels/md_kernels.h"

#include <immintrin.h>

#include "kernels/simd_rows.h"

#define TARGET		__attribute__((target("avx512f,avx512bw")))
#define VEC		__m512i
#define LANES		16
#define ADD(a, b)	_mm512_add_epi32(a, b)
#define XOR(a, b)	_mm512_xor_si512(a, b)
#define SET1(x)		_mm512_set1_epi32(x)
#define LOADU(p)	_mm512_loadu_si512((const void *)(p))
#define STOREU(p, x)	_mm512_storeu_si512((void *)(p), x)
#define SHR(x, n)	_mm512_srli_epi32(x, n)
#define ROTL(x, n)	_mm512_rol_epi32(x, n)
#define ROTR(x, n)	_mm512_ror_epi32(x, n)
/* vpternlogd's table: bit f(x, y, z) at index x << 2 | y << 1 | z */
#define CH(x, y, z)	_mm512_ternarylogic_epi32(x, y, z, 0xca)
#define MAJ(x, y, z)	_mm512_ternarylogic_epi32(x, y, z, 0xe8)
#define XOR3(x, y, z)	_mm512_ternarylogic_epi32(x, y, z, 0x96)
#define MD5G(x, y, z)	_mm512_ternarylogic_epi32(x, y, z, 0xe4)
#define MD5I(x, y, z)	_mm512_ternarylogic_epi32(x, y, z, 0x39)
#define MD5_MANY	ms_md5_avx512
#define SHA1_MANY	ms_sha1_avx512
#define SHA256_MANY	ms_sha256_avx512

/* Word i of lane j's block into lane j of w[i] (simd_rows.h), then, for
 * SHA, big-endian. */
static inline __attribute__((always_inline)) TARGET void
load_words(const uint8_t *const in[], size_t off, __m512i w[16], int swap)
{
	ms_rows16_avx512(in, off, w);
	if (swap) {
		const __m512i bswap = _mm512_broadcast_i32x4(_mm_set_epi64x(
		    0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL));

		MS_MD_UNROLL
		for (int i = 0; i < 16; i++)
			w[i] = _mm512_shuffle_epi8(w[i], bswap);
	}
}

#include "kernels/md_simd.h"
