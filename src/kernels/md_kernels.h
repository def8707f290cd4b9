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

/* The constants of the specifications, which every level reads: static,
 * so that no kernel file refers to another (and a compiler may fold
 * them into the unrolled rounds). */
static const uint32_t ms_md5_k[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a,
	0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
	0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
	0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
	0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
	0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
	0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
	0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
	0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

static const uint32_t ms_sha1_k[4] = {
	0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6,
};

static const uint32_t ms_sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};


/* Loops over rounds and lanes: fully unrolled, so that the states stay in
 * registers (gcc -O2 leaves 16-step loops rolled). */
#define MS_MD_UNROLL	_Pragma("GCC unroll 16")

/* md_avx512.c (16 lanes), md_avx2.c (8 lanes) */
ms_md_lanes_fn ms_md5_avx512, ms_sha1_avx512, ms_sha256_avx512;
ms_md_lanes_fn ms_md5_avx2, ms_sha1_avx2, ms_sha256_avx2;

/* md5_portable.c: one stream, in C. */
void	 ms_md5_portable(uint32_t h[8], const uint8_t *p, size_t blocks);

/* sha1_shani.c: one stream. */
void	 ms_sha1_shani(uint32_t h[8], const uint8_t *p, size_t blocks);

/* sha256_shani.c: one stream, and two side by side (LANES 2). */
void	 ms_sha256_shani(uint32_t h[8], const uint8_t *p, size_t blocks);
ms_md_lanes_fn ms_sha256_shani_x2;

/* sha_armv8.c (aarch64): SHA-1 and SHA-256, one stream, and two side by
 * side (LANES 2). */
void	 ms_sha1_armv8(uint32_t h[8], const uint8_t *p, size_t blocks);
void	 ms_sha256_armv8(uint32_t h[8], const uint8_t *p, size_t blocks);
ms_md_lanes_fn ms_sha1_armv8_x2, ms_sha256_armv8_x2;

#endif
