/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * md_avx2.c - MD5, SHA-1 and SHA-256 of eight messages at once with AVX2
 * (one message per 32-bit lane; rotations are two shifts and an or, the
 * boolean functions of the rounds their shortest and-or-xor forms).  Only
 * the operations and the message transpose live here; the rounds are
 * md_simd.h.
 */
#include "kernels/md_kernels.h"

#include <immintrin.h>

#include "kernels/simd_rows.h"

#define TARGET		__attribute__((target("avx2")))
#define VEC		__m256i
#define LANES		8
#define ADD(a, b)	_mm256_add_epi32(a, b)
#define XOR(a, b)	_mm256_xor_si256(a, b)
#define AND(a, b)	_mm256_and_si256(a, b)
#define OR(a, b)	_mm256_or_si256(a, b)
#define SET1(x)		_mm256_set1_epi32(x)
#define LOADU(p)	_mm256_loadu_si256((const void *)(p))
#define STOREU(p, x)	_mm256_storeu_si256((void *)(p), x)
#define SHR(x, n)	_mm256_srli_epi32(x, n)
#define ROTL(x, n)	OR(_mm256_slli_epi32(x, n), _mm256_srli_epi32(x, 32 - (n)))
#define ROTR(x, n)	OR(_mm256_srli_epi32(x, n), _mm256_slli_epi32(x, 32 - (n)))
#define CH(x, y, z)	XOR(AND(x, XOR(y, z)), z)
#define MAJ(x, y, z)	OR(AND(x, y), AND(z, OR(x, y)))
#define XOR3(x, y, z)	XOR(XOR(x, y), z)
#define MD5G(x, y, z)	CH(z, x, y)
#define MD5I(x, y, z)	XOR(y, OR(x, XOR(z, SET1(-1))))
#define MD5_MANY	ms_md5_avx2
#define SHA1_MANY	ms_sha1_avx2
#define SHA256_MANY	ms_sha256_avx2

/* Word i of lane j's block into lane j of w[i] (simd_rows.h), then, for
 * SHA, big-endian. */
static inline __attribute__((always_inline)) TARGET void
load_words(const uint8_t *const in[], size_t off, __m256i w[16], int swap)
{
	ms_rows8_avx2(in, off, w);
	if (swap) {
		const __m256i bswap = _mm256_broadcastsi128_si256(_mm_set_epi64x(
		    0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL));

		MS_MD_UNROLL
		for (int i = 0; i < 16; i++)
			w[i] = _mm256_shuffle_epi8(w[i], bswap);
	}
}

#include "kernels/md_simd.h"
