/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * crc_armv8.c - CRC-32 (zlib) and CRC-32C by the ARMv8 crc32x and
 * crc32cx instructions (the CRC32 extension, optional in ARMv8.0 and
 * required from ARMv8.1).
 *
 * Owns two loops: eight bytes per instruction, then single bytes, on a
 * raw register (no initial value or inversion: crc.h).  One dependency
 * chain, so they run at the instruction's latency; the words are read
 * little-endian, as the instructions take them, on either byte order.  Built on aarch64
 * only; crc.c calls them only where AT_HWCAP has HWCAP_CRC32.
 */
#include "kernels/crc.h"

#include <arm_acle.h>

#include "base/bytes.h"

/* One loop for both polynomials: the instruction is the only difference. */
#define CRC_LOOP(name, op64, op8)					\
__attribute__((target("+crc"))) uint32_t				\
name(uint32_t crc, const unsigned char *p, size_t n)			\
{									\
	for (; n >= 8; p += 8, n -= 8)					\
		crc = op64(crc, ms_load_le64(p));			\
	for (; n > 0; p++, n--)						\
		crc = op8(crc, *p);					\
	return crc;							\
}

CRC_LOOP(ms_crc32_armv8, __crc32d, __crc32b)
CRC_LOOP(ms_crc32c_armv8, __crc32cd, __crc32cb)
