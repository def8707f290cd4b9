/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * crc_lane.h - what the two folding kernels (crc_clmul.c, crc_vpclmul.c)
 * do to one 128-bit lane the same way: load it as the arithmetic wants
 * it (forward CRCs byte-reversed), store it back in message order, put
 * the running CRC over the message's first bytes, and multiply it D bits
 * on by one carry-less product per half (crc.h's struct ms_crc_mul).
 *
 * Included only by those two files (x86-64, PCLMULQDQ and SSSE3); each
 * function is inlined into the caller's wider instruction set.
 */
#ifndef MS_CRC_LANE_H
#define MS_CRC_LANE_H

#include <immintrin.h>

#include "kernels/crc.h"

#define LANE_TARGET	__attribute__((target("pclmul,ssse3"), always_inline))

/* Byte-reverse a lane: forward CRCs count bits from the top. */
static inline LANE_TARGET __m128i
lane_reversed(__m128i x)
{
	return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7,
	    8, 9, 10, 11, 12, 13, 14, 15));
}

static inline LANE_TARGET __m128i
lane_mul(__m128i x, struct ms_crc_mul k)
{
	__m128i kk = _mm_set_epi64x((long long)k.hi, (long long)k.lo);

	return _mm_xor_si128(_mm_clmulepi64_si128(x, kk, 0x00),
	    _mm_clmulepi64_si128(x, kk, 0x11));
}

/* A lane of the message as the arithmetic wants it. */
static inline LANE_TARGET __m128i
lane_load(const struct ms_crc_fold *k, const unsigned char *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);

	return k->reflected ? x : lane_reversed(x);
}

static inline LANE_TARGET void
lane_store(const struct ms_crc_fold *k, unsigned char *p, __m128i x)
{
	_mm_storeu_si128((__m128i *)(void *)p, k->reflected ? x :
	    lane_reversed(x));
}

/* The running CRC, placed over the message's first bytes. */
static inline LANE_TARGET __m128i
lane_seed(const struct ms_crc_fold *k, uint64_t crc)
{
	if (k->reflected)
		return _mm_set_epi64x(0, (long long)crc);
	return _mm_set_epi64x((long long)(crc << (64 - k->width)), 0);
}

#endif
