/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * crc.h - what crc.c shares with the files that fold CRCs by carry-less
 * multiplication (crc_clmul.c, crc_vpclmul.c) or run the SSE4.2 crc32
 * instruction (crc_sse42.c).
 *
 * Those files hold only intrinsics, compiled for their instruction set
 * by target attributes; crc.c computes their constants, checks the CPU
 * and calls them only where it has the instructions.
 */
#ifndef MS_CRC_H
#define MS_CRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The levels, slowest first, NULL-terminated: "table", "sse42", ... */
extern const char *const ms_crc_level_names[];

/*
 * From now on run every CRC at the best level it has at or below name,
 * as MULTISUM_CRC_IMPL=name would (for tests; call before threads start).
 * Returns -1 if the name is unknown or this CPU cannot run it.
 */
int	 ms_crc_level_force(const char *name);

/*
 * Multipliers that move a 128-bit lane D bits further down the message,
 * modulo the CRC's polynomial: lo multiplies the lane's low 64 bits, hi
 * its high ones.  Reflected CRCs (LSB first: zlib, CRC-32C, CRC-64/NVME)
 * keep the lane as loaded, little-endian; forward ones (MSB first: POSIX
 * cksum) byte-reverse it first.
 */
struct ms_crc_mul {
	uint64_t	 lo, hi;
};

struct ms_crc_fold {
	unsigned	 width;		/* 32 or 64 */
	bool		 reflected;
	struct ms_crc_mul by128, by512, by2048;
};

/*
 * Fold the first n - n % 16 bytes of p (n >= 64), with the running CRC
 * crc xor'ed into the message's first bytes as the table code would, into
 * 16 bytes rem, in message order, that have the same CRC (from a zero
 * register) as those bytes.  Returns how many bytes it consumed.
 */
size_t	 ms_crc_fold_pclmul(const struct ms_crc_fold *k, uint64_t crc,
	    const unsigned char *p, size_t n, unsigned char rem[16]);
/* The same with 512-bit VPCLMULQDQ (AVX-512); n >= 256. */
size_t	 ms_crc_fold_vpclmul(const struct ms_crc_fold *k, uint64_t crc,
	    const unsigned char *p, size_t n, unsigned char rem[16]);

/* CRC-32C by the SSE4.2 crc32 instruction: register in, register out. */
uint32_t ms_crc32c_sse42(uint32_t crc, const unsigned char *p, size_t n);

#endif
