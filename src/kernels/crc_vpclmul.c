/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * crc_vpclmul.c - CRC folding by VPCLMULQDQ on 512-bit registers.
 *
 * Owns the AVX-512 instance of crc_fold.h's method: four registers of
 * four 128-bit lanes each run 256 bytes per round, then fold to one
 * register, to one lane (to_lane), and over the last 16-byte blocks.  Built on x86-64 unless
 * configure --disable-avx512; crc.c calls it only when the CPU and the OS
 * offer AVX-512 (F, VL, BW) and VPCLMULQDQ.
 */
#include "kernels/crc_lane.h"
#include "kernels/crc_fold.h"

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

/* The register's four lanes into one, then the last 16-byte blocks. */
TARGET static inline __m128i
to_lane(const struct ms_crc_fold *k, __m512i z, const unsigned char **pp,
    size_t *np)
{
	__m128i x = _mm512_extracti32x4_epi32(z, 0);

	x = _mm_xor_si128(lane_mul(x, k->by128), _mm512_extracti32x4_epi32(z, 1));
	x = _mm_xor_si128(lane_mul(x, k->by128), _mm512_extracti32x4_epi32(z, 2));
	x = _mm_xor_si128(lane_mul(x, k->by128), _mm512_extracti32x4_epi32(z, 3));
	for (; *np >= 16; *pp += 16, *np -= 16)
		x = _mm_xor_si128(lane_mul(x, k->by128), lane_load(k, *pp));
	return x;
}

CRC_FOLD(ms_crc_fold_vpclmul, TARGET, __m512i, 64, _mm512_xor_si512, mul512,
    load512, _mm512_zextsi128_si512, by2048, by512, to_lane)
