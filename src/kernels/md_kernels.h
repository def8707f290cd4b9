/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * md_kernels.h - the built-in compressions of MD5, SHA-1 and SHA-256 (the
 * Merkle-Damgard digests of 64-byte blocks), one stream or several side
 * by side, and the constants of their specifications.
 *
 * A lanes kernel compresses blocks whole 64-byte blocks of each of its
 * LANES inputs: lane j from the state h[j] (the words of the
 * specification, MD5 using four of them, SHA-1 five) over the blocks at
 * in[j], each lane its own message, all of the same number of blocks.
 * Padding and the scheduling of many messages of different lengths over
 * the lanes are md_lanes.c's.
 */
#ifndef MS_MD_KERNELS_H
#define MS_MD_KERNELS_H

#include <stddef.h>
#include <stdint.h>

typedef void ms_md_lanes_fn(uint32_t (*h)[8], const uint8_t *const in[],
    size_t blocks);

/* md_lanes.c: the constants every level reads */
extern const uint32_t ms_md5_k[64];
extern const uint32_t ms_sha256_k[64];

/* Loops over rounds and lanes: fully unrolled, so that the states stay in
 * registers (gcc -O2 leaves 16-step loops rolled). */
#define MS_MD_UNROLL	_Pragma("GCC unroll 16")

/* md_avx512.c (16 lanes), md_avx2.c (8 lanes) */
ms_md_lanes_fn ms_md5_avx512, ms_sha1_avx512, ms_sha256_avx512;
ms_md_lanes_fn ms_md5_avx2, ms_sha1_avx2, ms_sha256_avx2;

/* sha256_shani.c: one stream, and two side by side (LANES 2). */
void	 ms_sha256_shani(uint32_t h[8], const uint8_t *p, size_t blocks);
ms_md_lanes_fn ms_sha256_shani_x2;

#endif
