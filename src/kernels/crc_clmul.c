/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * crc_clmul.c - CRC folding by PCLMULQDQ, 128 bits at a time.
 *
 * Owns the intrinsics of one method: four 128-bit lanes run 64 bytes
 * apart, each lane multiplied forward (carry-less, modulo the polynomial)
 * and xor'ed into the data that lies where it lands, then the lanes fold
 * into one.  What is left, 16 bytes plus the tail, crc.c finishes with
 * its tables.  The constants come from crc.c (see crc.h); this file is
 * built on x86-64 only and called only on CPUs with PCLMULQDQ.
 */
#include "kernels/crc.h"

#include <immintrin.h>

#define TARGET	__attribute__((target("pclmul,ssse3")))

TARGET static inline __m128i
mul(__m128i x, struct ms_crc_mul k)
{
	__m128i kk = _mm_set_epi64x((long long)k.hi, (long long)k.lo);

	return _mm_xor_si128(_mm_clmulepi64_si128(x, kk, 0x00),
	    _mm_clmulepi64_si128(x, kk, 0x11));
}

/* A lane of the message as the arithmetic wants it. */
TARGET static inline __m128i
load(const struct ms_crc_fold *k, const unsigned char *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);

	if (!k->reflected)
		x = _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7,
		    8, 9, 10, 11, 12, 13, 14, 15));
	return x;
}

TARGET static inline void
store(const struct ms_crc_fold *k, unsigned char *p, __m128i x)
{
	if (!k->reflected)
		x = _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7,
		    8, 9, 10, 11, 12, 13, 14, 15));
	_mm_storeu_si128((__m128i *)(void *)p, x);
}

/* The running CRC, placed over the message's first bytes. */
TARGET static inline __m128i
seed(const struct ms_crc_fold *k, uint64_t crc)
{
	if (k->reflected)
		return _mm_set_epi64x(0, (long long)crc);
	return _mm_set_epi64x((long long)(crc << (64 - k->width)), 0);
}

TARGET size_t
ms_crc_fold_pclmul(const struct ms_crc_fold *k, uint64_t crc,
    const unsigned char *p, size_t n, unsigned char rem[16])
{
	const unsigned char *start = p;
	__m128i x0 = _mm_xor_si128(load(k, p), seed(k, crc));
	__m128i x1 = load(k, p + 16), x2 = load(k, p + 32), x3 = load(k, p + 48);

	for (p += 64, n -= 64; n >= 64; p += 64, n -= 64) {
		x0 = _mm_xor_si128(mul(x0, k->by512), load(k, p));
		x1 = _mm_xor_si128(mul(x1, k->by512), load(k, p + 16));
		x2 = _mm_xor_si128(mul(x2, k->by512), load(k, p + 32));
		x3 = _mm_xor_si128(mul(x3, k->by512), load(k, p + 48));
	}
	x0 = _mm_xor_si128(mul(x0, k->by128), x1);
	x0 = _mm_xor_si128(mul(x0, k->by128), x2);
	x0 = _mm_xor_si128(mul(x0, k->by128), x3);
	for (; n >= 16; p += 16, n -= 16)
		x0 = _mm_xor_si128(mul(x0, k->by128), load(k, p));
	store(k, rem, x0);
	return (size_t)(p - start);
}
