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
 * little-endian, as the instructions take them, on either byte order.
 * Built on aarch64 only; crc.c calls them only where AT_HWCAP has
 * HWCAP_CRC32.
 */
#include "kernels/crc.h"

#include "base/bytes.h"

/*
 * The compilers' own builtins: arm_acle.h declares __crc32d and the
 * others only when the whole file is built for +crc (clang's), and the
 * rest of the program must not be.
 */
#if defined(__clang__)
#define TARGET		__attribute__((target("crc")))
#define CRC32X		__builtin_arm_crc32d
#define CRC32B		__builtin_arm_crc32b
#define CRC32CX		__builtin_arm_crc32cd
#define CRC32CB		__builtin_arm_crc32cb
#else
#define TARGET		__attribute__((target("+crc")))
#define CRC32X		__builtin_aarch64_crc32x
#define CRC32B		__builtin_aarch64_crc32b
#define CRC32CX		__builtin_aarch64_crc32cx
#define CRC32CB		__builtin_aarch64_crc32cb
#endif

/* One loop for both polynomials: the instruction is the only difference. */
#define CRC_LOOP(name, op64, op8)					\
TARGET uint32_t								\
name(uint32_t crc, const unsigned char *p, size_t n)			\
{									\
	for (; n >= 8; p += 8, n -= 8)					\
		crc = op64(crc, ms_load_le64(p));			\
	for (; n > 0; p++, n--)						\
		crc = op8(crc, *p);					\
	return crc;							\
}

CRC_LOOP(ms_crc32_armv8, CRC32X, CRC32B)
CRC_LOOP(ms_crc32c_armv8, CRC32CX, CRC32CB)
