/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * crc_vpclmul.c - CRC folding by VPCLMULQDQ on 512-bit registers.
 *
 * Owns the AVX-512 form of crc_clmul.c's method: four registers of four
 * 128-bit lanes each run 256 bytes per round, then fold to one register,
 * to one lane, and over the last 16-byte blocks.  Built on x86-64 unless
 * configure --disable-avx512; crc.c calls it only when the CPU and the OS
 * offer AVX-512 (F, VL, BW) and VPCLMULQDQ.
 */
#include "kernels/crc.h"

#include <immintrin.h>

#define TARGET	__attribute__((target( \
	"avx512f,avx512vl,avx512bw,vpclmulqdq,pclmul,ssse3")))

TARGET static inline __m512i
mul512(__m512i x, struct ms_crc_mul k)
{
	__m512i kk = _mm512_broadcast_i32x4(_mm_set_epi64x((long long)k.hi,
	    (long long)k.lo));

	return _mm512_xor_si512(_mm512_clmulepi64_epi128(x, kk, 0x00),
	    _mm512_clmulepi64_epi128(x, kk, 0x11));
}

TARGET static inline __m128i
mul128(__m128i x, struct ms_crc_mul k)
{
	__m128i kk = _mm_set_epi64x((long long)k.hi, (long long)k.lo);

	return _mm_xor_si128(_mm_clmulepi64_si128(x, kk, 0x00),
	    _mm_clmulepi64_si128(x, kk, 0x11));
}

/* Byte-reverse each 128-bit lane: forward CRCs count bits from the top. */
TARGET static inline __m512i
load512(const struct ms_crc_fold *k, const unsigned char *p)
{
	__m512i x = _mm512_loadu_si512((const void *)p);

	if (!k->reflected)
		x = _mm512_shuffle_epi8(x, _mm512_broadcast_i32x4(_mm_set_epi8(
		    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)));
	return x;
}

TARGET static inline __m128i
load128(const struct ms_crc_fold *k, const unsigned char *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);

	if (!k->reflected)
		x = _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7,
		    8, 9, 10, 11, 12, 13, 14, 15));
	return x;
}

TARGET size_t
ms_crc_fold_vpclmul(const struct ms_crc_fold *k, uint64_t crc,
    const unsigned char *p, size_t n, unsigned char rem[16])
{
	const unsigned char *start = p;
	__m128i seed = k->reflected ? _mm_set_epi64x(0, (long long)crc) :
	    _mm_set_epi64x((long long)(crc << (64 - k->width)), 0);
	__m512i z0 = _mm512_xor_si512(load512(k, p),
	    _mm512_zextsi128_si512(seed));
	__m512i z1 = load512(k, p + 64), z2 = load512(k, p + 128),
	    z3 = load512(k, p + 192);
	__m128i x;

	for (p += 256, n -= 256; n >= 256; p += 256, n -= 256) {
		z0 = _mm512_xor_si512(mul512(z0, k->by2048), load512(k, p));
		z1 = _mm512_xor_si512(mul512(z1, k->by2048), load512(k, p + 64));
		z2 = _mm512_xor_si512(mul512(z2, k->by2048), load512(k, p + 128));
		z3 = _mm512_xor_si512(mul512(z3, k->by2048), load512(k, p + 192));
	}
	z0 = _mm512_xor_si512(mul512(z0, k->by512), z1);
	z0 = _mm512_xor_si512(mul512(z0, k->by512), z2);
	z0 = _mm512_xor_si512(mul512(z0, k->by512), z3);
	for (; n >= 64; p += 64, n -= 64)
		z0 = _mm512_xor_si512(mul512(z0, k->by512), load512(k, p));
	x = _mm512_extracti32x4_epi32(z0, 0);
	x = _mm_xor_si128(mul128(x, k->by128), _mm512_extracti32x4_epi32(z0, 1));
	x = _mm_xor_si128(mul128(x, k->by128), _mm512_extracti32x4_epi32(z0, 2));
	x = _mm_xor_si128(mul128(x, k->by128), _mm512_extracti32x4_epi32(z0, 3));
	for (; n >= 16; p += 16, n -= 16)
		x = _mm_xor_si128(mul128(x, k->by128), load128(k, p));
	if (!k->reflected)
		x = _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7,
		    8, 9, 10, 11, 12, 13, 14, 15));
	_mm_storeu_si128((__m128i *)(void *)rem, x);
	return (size_t)(p - start);
}
