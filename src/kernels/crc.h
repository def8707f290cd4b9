/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * crc.h - the CRC arithmetic of crc.c: the four CRCs' registers, their
 * update at the level chosen for the run, and the shift of a register
 * over zero bytes that joins parts hashed apart.  Also what crc.c shares
 * with the files that fold CRCs by carry-less multiplication
 * (crc_clmul.c, crc_vpclmul.c) or run the SSE4.2 crc32 instruction
 * (crc_sse42.c) or the ARMv8 crc32 instructions (crc_armv8.c).
 *
 * A register here is raw: no initial value, no final inversion and no
 * length appended (the digest rows, backend_crc.c, add those).  The SIMD
 * files hold only intrinsics, compiled for their instruction set by
 * target attributes; crc.c computes their constants, checks the CPU and
 * calls them only where it has the instructions.
 */
#ifndef MS_CRC_H
#define MS_CRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cpulevel.h"

/* One of the CRCs: zlib's, Castagnoli's, POSIX cksum's, CRC-64/NVME. */
struct ms_crc;

/* The CRC called name ("crc32", "crc32c", "cksum", "crc64nvme"); NULL
 * if none is. */
const struct ms_crc *ms_crc_named(const char *name);

/*
 * Build the CRC's tables and multipliers and choose its level, once per
 * run, before threads start (and again after ms_level_force).  Returns
 * -1 with *why set to one line when MULTISUM_CRC_LEVEL names no level or
 * one this CPU cannot run.
 */
int	 ms_crc_prepare(const struct ms_crc *c, const char **why);

/* The register reg, then the n bytes at p, at the chosen level. */
uint64_t ms_crc_update(const struct ms_crc *c, uint64_t reg, const void *p,
	    size_t n);

/* x^(8 n) modulo the polynomial: the operator that shifts a register
 * over n zero bytes, for ms_crc_shift. */
uint64_t ms_crc_zeros(const struct ms_crc *c, uint64_t n);

/* The register reg, then n zero bytes, where zeros = ms_crc_zeros(n):
 * a part's register joins a running one as ms_crc_shift(run) ^ part. */
uint64_t ms_crc_shift(const struct ms_crc *c, uint64_t reg, uint64_t zeros);

/* The name of the level the CRC runs ("pclmul", "table"). */
const char *ms_crc_level(const struct ms_crc *c);

/*
 * The levels (table, sse42, pclmul, vpclmul on x86-64; table, armv8crc,
 * pmull on aarch64), read through cpulevel.h:
 * the best this CPU runs, chosen on first use, unless MULTISUM_CRC_LEVEL
 * (or its old name MULTISUM_CRC_IMPL) names another.  Each CRC runs the
 * best level it has at or below that one.
 */
extern struct ms_level_family ms_crc_levels;

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
/* The same with aarch64's pmull (crc_fold_armv8.c); n >= 64. */
size_t	 ms_crc_fold_pmull(const struct ms_crc_fold *k, uint64_t crc,
	    const unsigned char *p, size_t n, unsigned char rem[16]);

/* CRC-32C by the SSE4.2 crc32 instruction: register in, register out. */
uint32_t ms_crc32c_sse42(uint32_t crc, const unsigned char *p, size_t n);

/* CRC-32 and CRC-32C by the ARMv8 crc32x and crc32cx instructions
 * (crc_armv8.c, aarch64): register in, register out. */
uint32_t ms_crc32_armv8(uint32_t crc, const unsigned char *p, size_t n);
uint32_t ms_crc32c_armv8(uint32_t crc, const unsigned char *p, size_t n);

#endif
