/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * crc_fold_armv8.c - CRC folding by the ARMv8 pmull and pmull2
 * instructions (64 x 64 -> 128-bit carry-less products), 128 bits at a
 * time (level pmull).
 *
 * Owns aarch64's instance of crc_fold.h's method, as crc_clmul.c is
 * x86-64's: four 128-bit lanes 64 bytes apart, each multiplied forward
 * (one product per half, modulo the polynomial: crc.h's struct
 * ms_crc_mul) and xor'ed into the data where it lands, then the lanes
 * folded into one; and the lane's load, store and seed as that method
 * wants them (forward CRCs byte-reversed).  What is left, 16 bytes plus
 * the tail, crc.c finishes with its tables.  The constants come from
 * crc.c; this file is built on aarch64 only and called only where
 * AT_HWCAP has HWCAP_PMULL.
 */
#include "kernels/crc.h"

#include <arm_neon.h>

/*
 * gcc's arm_neon.h declares vmull_p64 for any target under its own
 * "+crypto" pragma, which our functions must match to inline it;
 * clang 14's only when the whole file is built for +aes: there, its
 * builtin, called from our own "aes" functions (as sha_armv8.c does).
 */
#if defined(__clang__) && !defined(__ARM_FEATURE_AES)
#define TARGET		__attribute__((target("aes")))
#define PMULL(a, b)	((uint64x2_t)__builtin_neon_vmull_p64(a, b))
#else
#define TARGET		__attribute__((target("+crypto")))
#define PMULL(a, b)	vreinterpretq_u64_p128(vmull_p64(a, b))
#endif

#define LANE	static inline __attribute__((always_inline)) TARGET

/* Byte-reverse a lane: forward CRCs count bits from the top. */
LANE uint64x2_t
lane_reversed(uint8x16_t x)
{
	uint8x16_t r = vrev64q_u8(x);

	return vreinterpretq_u64_u8(vextq_u8(r, r, 8));
}

LANE uint64x2_t
lane_mul(uint64x2_t x, struct ms_crc_mul k)
{
	return veorq_u64(PMULL(vgetq_lane_u64(x, 0), k.lo),
	    PMULL(vgetq_lane_u64(x, 1), k.hi));
}

/* A lane of the message as the arithmetic wants it. */
LANE uint64x2_t
lane_load(const struct ms_crc_fold *k, const unsigned char *p)
{
	uint8x16_t x = vld1q_u8(p);

	return k->reflected ? vreinterpretq_u64_u8(x) : lane_reversed(x);
}

LANE void
lane_store(const struct ms_crc_fold *k, unsigned char *p, uint64x2_t x)
{
	vst1q_u8(p, k->reflected ? vreinterpretq_u8_u64(x) :
	    vreinterpretq_u8_u64(lane_reversed(vreinterpretq_u8_u64(x))));
}

/* The running CRC, placed over the message's first bytes. */
LANE uint64x2_t
lane_seed(const struct ms_crc_fold *k, uint64_t crc)
{
	if (k->reflected)
		return vsetq_lane_u64(crc, vdupq_n_u64(0), 0);
	return vsetq_lane_u64(crc << (64 - k->width), vdupq_n_u64(0), 1);
}

#include "kernels/crc_fold.h"

CRC_FOLD(ms_crc_fold_pmull, TARGET, uint64x2_t, 16, veorq_u64, lane_mul,
    lane_load, CRC_LANE_AS_IS, by512, by128, CRC_LANE_DONE)
