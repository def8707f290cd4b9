/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3_neon.c - BLAKE3 compression of four inputs at once with AArch64
 * NEON (128-bit vectors, one input per 32-bit lane): the chunks of one
 * message (blake3_simd.h) and the chunks of four messages side by side
 * (blake3_lanes.h).  Only the operations and the 4x4 transposes live
 * here; one block alone stays with the portable code.
 *
 * Built on aarch64 only, where Advanced SIMD is part of the base
 * architecture: the level needs no probe.  Little-endian only (configure
 * takes aarch64 and arm64 hosts, not aarch64_be): the byte loads below
 * are the message words in lane order.
 */
#include "kernels/blake3_impl.h"

#include <arm_neon.h>

#define TARGET
#define VEC		uint32x4_t
#define DEGREE		4
#define ADD(a, b)	vaddq_u32(a, b)
#define XOR(a, b)	veorq_u32(a, b)
#define SET1(x)		vdupq_n_u32((uint32_t)(x))
#define LOADU(p)	vreinterpretq_u32_u8(vld1q_u8((const uint8_t *) \
	(const void *)(p)))
#define STOREU(p, x)	vst1q_u8((uint8_t *)(void *)(p), \
	vreinterpretq_u8_u32(x))
/* 16 by swapping the halves of each word; 12 and 7 by a shift and a
 * shift-right-insert; 8 by a byte table lookup. */
#define ROT16(x)	vreinterpretq_u32_u16(vrev32q_u16( \
	vreinterpretq_u16_u32(x)))
#define ROT12(x)	vsriq_n_u32(vshlq_n_u32(x, 20), x, 12)
#define ROT8(x)		vreinterpretq_u32_u8(vqtbl1q_u8( \
	vreinterpretq_u8_u32(x), vld1q_u8(rot8_table)))
#define ROT7(x)		vsriq_n_u32(vshlq_n_u32(x, 25), x, 7)
#define UNPACKLO32(a, b)	vzip1q_u32(a, b)
#define UNPACKHI32(a, b)	vzip2q_u32(a, b)
#define UNPACKLO64(a, b)	vreinterpretq_u32_u64(vzip1q_u64( \
	vreinterpretq_u64_u32(a), vreinterpretq_u64_u32(b)))
#define UNPACKHI64(a, b)	vreinterpretq_u32_u64(vzip2q_u64( \
	vreinterpretq_u64_u32(a), vreinterpretq_u64_u32(b)))
#define LANE(j)		(j)
#define LANE_IDS	vld1q_u32(lane_ids)
/* 32 registers: the state and the message both stay in them. */
#define MSG_IN_MEMORY	0
#define MANY		ms_b3_many_neon
#define NEXT		ms_b3_many_portable

/* Byte i of the result is byte rot8_table[i] of the word lanes: each
 * word rotated right by 8. */
static const uint8_t rot8_table[16] = {
	1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
};
static const uint32_t lane_ids[4] = { 0, 1, 2, 3 };

#include "kernels/blake3_transpose.h"

/* Words 8h .. 8h + 7 of the blocks at p + ms_b3_row(j, lanes) * stride,
 * input j in lane j. */
static inline __attribute__((always_inline)) void
load_msg(const uint8_t *p, size_t stride, size_t lanes, uint32x4_t m[16],
    int h)
{
	MS_B3_UNROLL
	for (int q = 2 * h; q < 2 * h + 2; q++) {
		uint32x4_t r[4];

		MS_B3_UNROLL
		for (size_t j = 0; j < 4; j++)
			r[j] = LOADU(p + ms_b3_row(j, lanes) * stride + 16 * q);
		transpose4(r, m + 4 * q);
	}
}

#include "kernels/blake3_simd.h"

/* BLAKE3 across files: word i of the block at rows[j] in lane j of m[i]. */
static inline __attribute__((always_inline)) void
rows4(const uint8_t *const rows[4], uint32x4_t m[16])
{
	MS_B3_UNROLL
	for (int q = 0; q < 4; q++) {
		uint32x4_t r[4];

		MS_B3_UNROLL
		for (int j = 0; j < 4; j++)
			r[j] = LOADU(rows[j] + 16 * q);
		transpose4(r, m + 4 * q);
	}
}

#define ROWS(rows, m)	rows4(rows, m)
#define BLEND(k, a, b)	vbslq_u32(k, a, b)
#define LANES		ms_b3_lanes_neon
#include "kernels/blake3_lanes.h"
