/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3_impl.h - what blake3.c shares with its SIMD files: the
 * constants of the specification and the one operation that has a
 * version per instruction set.
 */
#ifndef MS_BLAKE3_IMPL_H
#define MS_BLAKE3_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	B3_CHUNK_START = 1 << 0,
	B3_CHUNK_END = 1 << 1,
	B3_PARENT = 1 << 2,
	B3_ROOT = 1 << 3,
	B3_KEYED_HASH = 1 << 4,
	B3_DERIVE_KEY_CONTEXT = 1 << 5,
	B3_DERIVE_KEY_MATERIAL = 1 << 6,
};

/* The IV (SHA-256's), in blake3_portable.c, which every kernel and
 * blake3.c call and which calls none of them.  Not static: the SIMD
 * kernels broadcast it from memory (as constants they take more
 * instructions: sse41 +0.4%, avx2 +0.1% measured). */
extern const uint32_t ms_b3_iv[8];
/*
 * Round r reads message word ms_b3_schedule[r][i] where round 0 reads
 * word i: the paper's permutation applied r times.  Static, so that
 * every file's compiler sees constants once the rounds are unrolled.
 */
static const uint8_t ms_b3_schedule[7][16] = {
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8 },
	{ 3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1 },
	{ 10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6 },
	{ 12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4 },
	{ 9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7 },
	{ 11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13 },
};

/*
 * Compress cnt inputs of blocks * 64 bytes each, input i at
 * in + i * blocks * 64, each starting from key: the chunk (blocks 16) or
 * parent (blocks 1) chaining values, 32 bytes each at out + i * 32.
 * Input i uses counter + i if inc, else counter.  Every block gets flags;
 * the first also flags_start, the last also flags_end.
 */
typedef void ms_b3_many_fn(const uint8_t *in, size_t cnt, size_t blocks,
    const uint32_t key[8], uint64_t counter, int inc, uint8_t flags,
    uint8_t flags_start, uint8_t flags_end, uint8_t *out);

ms_b3_many_fn ms_b3_many_portable;

/*
 * One chunk or parent in a lane of its own, beside those of other
 * messages: its blocks at p, but its last one (blocks 1 .. 16, the last
 * of last_len bytes, 0 .. 64) from last, zero-padded; counter its index
 * in its message (0 for a parent); start the flags of its first block
 * (B3_CHUNK_START, or 0), end those of its last (B3_CHUNK_END or
 * B3_PARENT, with B3_ROOT for the root of a message).
 */
struct ms_b3_lane {
	const uint8_t	*p;
	const uint8_t	*last;
	uint64_t	 counter;
	uint8_t		 blocks;
	uint8_t		 last_len;
	uint8_t		 start;
	uint8_t		 end;
};

/*
 * The chaining values (32 bytes each at out + 32 * i) of cnt lanes, all
 * under key and flags: a lane that has fewer blocks than others keeps
 * its value while they go on, so lanes of equal block counts next to
 * each other waste least.
 */
typedef void ms_b3_lanes_fn(const struct ms_b3_lane *l, size_t cnt,
    const uint32_t key[8], uint8_t flags, uint8_t *out);

/* One compression: all 16 words of the state after the seven rounds. */
typedef void ms_b3_one_fn(const uint32_t cv[8], const uint8_t block[64],
    uint8_t block_len, uint64_t counter, uint8_t flags, uint32_t v[16]);

/* blake3_portable.c: one compression, or just the new chaining value (cv
 * may be updated in place). */
ms_b3_one_fn ms_b3_compress;
void	 ms_b3_compress_cv(uint32_t cv[8], const uint8_t block[64],
	    uint8_t block_len, uint64_t counter, uint8_t flags);

/* Loops over lanes, words or rows: fully unrolled, so that the SIMD
 * kernels keep their vectors in registers instead of arrays on the stack
 * (gcc -O2 leaves 16-step loops rolled).  clang reads the same pragma. */
#define MS_B3_UNROLL	_Pragma("GCC unroll 16")

/* The input that a SIMD kernel reads as input j of a group of lanes
 * inputs: itself, or the last one for the spare lanes of a short group. */
static inline size_t
ms_b3_row(size_t j, size_t lanes)
{
	return j < lanes ? j : lanes - 1;
}

/* The flags of block b of a chunk (or parent) of blocks blocks. */
static inline uint8_t
ms_b3_block_flags(size_t b, size_t blocks, uint8_t flags, uint8_t start,
    uint8_t end)
{
	return (uint8_t)(flags | (b == 0 ? start : 0) |
	    (b + 1 == blocks ? end : 0));
}

/*
 * The SIMD kernels' prefetches as they load the rows lo and hi of a
 * transpose: two blocks ahead into L1 (near), else the same block of the
 * next group of inputs, ahead bytes on, into L2 (prefetcht0, prefetcht1).
 * Inlined always: a call that GCC infers has no effect is dropped.
 */
static inline __attribute__((always_inline)) void
ms_b3_prefetch(const uint8_t *lo, const uint8_t *hi, int near, size_t ahead)
{
	if (near) {
		__builtin_prefetch(lo + 128, 0, 3);
		__builtin_prefetch(hi + 128, 0, 3);
	} else {
		__builtin_prefetch(lo + ahead, 0, 2);
		__builtin_prefetch(hi + ahead, 0, 2);
	}
}

static inline uint32_t
load32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static inline void
store32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* The SIMD files, built for x86-64 only (the last two unless configure
 * --disable-avx512). */
ms_b3_many_fn ms_b3_many_sse41;
ms_b3_one_fn ms_b3_compress_sse41;
ms_b3_many_fn ms_b3_many_avx2;
ms_b3_many_fn ms_b3_many_avx512;
ms_b3_one_fn ms_b3_compress_avx512;
ms_b3_lanes_fn ms_b3_lanes_sse41, ms_b3_lanes_avx2, ms_b3_lanes_avx512;
/* blake3_neon.c, built for aarch64 only. */
ms_b3_many_fn ms_b3_many_neon;
ms_b3_lanes_fn ms_b3_lanes_neon;

/* A level's code: the kernel of a row of blake3.c's table of levels. */
struct ms_b3_kernel {
	ms_b3_many_fn	*many;
	ms_b3_one_fn	*one;		/* one block alone */
	ms_b3_lanes_fn	*lanes;		/* chunks of many messages; NULL: none */
};

#endif
