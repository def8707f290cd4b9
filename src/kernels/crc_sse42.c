/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * crc_sse42.c - CRC-32C by the SSE4.2 crc32 instruction.
 *
 * Owns one loop: eight bytes per instruction, then single bytes.  One
 * dependency chain, so it runs at the instruction's latency; crc.c
 * prefers the folding code where the CPU has PCLMULQDQ (faster here) and
 * keeps this level for CPUs with SSE4.2 alone and for MULTISUM_CRC_LEVEL.
 * Built on x86-64 only.
 */
#include "kernels/crc.h"

#include <nmmintrin.h>
#include <string.h>

__attribute__((target("sse4.2"))) uint32_t
ms_crc32c_sse42(uint32_t crc, const unsigned char *p, size_t n)
{
	uint64_t c = crc;

	for (; n >= 8; p += 8, n -= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c = _mm_crc32_u64(c, v);
	}
	for (; n > 0; p++, n--)
		c = _mm_crc32_u8((uint32_t)c, *p);
	return (uint32_t)c;
}
