/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3_portable.c - the BLAKE3 compression function in portable C, one
 * block at a time, and the portable many-input compression built on it
 * (the level every SIMD kernel hands its last few inputs to), and the IV
 * they all start from.
 */
#include <string.h>

#include "kernels/blake3_impl.h"

const uint32_t ms_b3_iv[8] = {
	0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
	0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
};

static inline uint32_t
rotr(uint32_t x, unsigned n)
{
	return x >> n | x << (32 - n);
}

#define G(a, b, c, d, x, y) do {				\
	v[a] += v[b] + (x); v[d] = rotr(v[d] ^ v[a], 16);	\
	v[c] += v[d]; v[b] = rotr(v[b] ^ v[c], 12);		\
	v[a] += v[b] + (y); v[d] = rotr(v[d] ^ v[a], 8);	\
	v[c] += v[d]; v[b] = rotr(v[b] ^ v[c], 7);		\
} while (0)

/* Inlined with a constant r, every message index is a constant. */
static inline __attribute__((always_inline)) void
round_fn(uint32_t v[16], const uint32_t m[16], int r)
{
	const uint8_t *s = ms_b3_schedule[r];

	G(0, 4, 8, 12, m[s[0]], m[s[1]]);
	G(1, 5, 9, 13, m[s[2]], m[s[3]]);
	G(2, 6, 10, 14, m[s[4]], m[s[5]]);
	G(3, 7, 11, 15, m[s[6]], m[s[7]]);
	G(0, 5, 10, 15, m[s[8]], m[s[9]]);
	G(1, 6, 11, 12, m[s[10]], m[s[11]]);
	G(2, 7, 8, 13, m[s[12]], m[s[13]]);
	G(3, 4, 9, 14, m[s[14]], m[s[15]]);
}

/* The compression function: all 16 words of the state after 7 rounds. */
void
ms_b3_compress(const uint32_t cv[8], const uint8_t block[64], uint8_t block_len,
    uint64_t counter, uint8_t flags, uint32_t v[16])
{
	uint32_t m[16];

	for (int i = 0; i < 16; i++)
		m[i] = load32(block + 4 * i);
	memcpy(v, cv, 8 * sizeof(uint32_t));
	memcpy(v + 8, ms_b3_iv, 4 * sizeof(uint32_t));
	v[12] = (uint32_t)counter;
	v[13] = (uint32_t)(counter >> 32);
	v[14] = block_len;
	v[15] = flags;
	round_fn(v, m, 0);
	round_fn(v, m, 1);
	round_fn(v, m, 2);
	round_fn(v, m, 3);
	round_fn(v, m, 4);
	round_fn(v, m, 5);
	round_fn(v, m, 6);
}

/* Compress into a new chaining value (cv may be the same array). */
void
ms_b3_compress_cv(uint32_t cv[8], const uint8_t block[64], uint8_t block_len,
    uint64_t counter, uint8_t flags)
{
	uint32_t v[16];

	ms_b3_compress(cv, block, block_len, counter, flags, v);
	for (int i = 0; i < 8; i++)
		cv[i] = v[i] ^ v[i + 8];
}

void
ms_b3_many_portable(const uint8_t *in, size_t cnt, size_t blocks,
    const uint32_t key[8], uint64_t counter, int inc, uint8_t flags,
    uint8_t flags_start, uint8_t flags_end, uint8_t *out)
{
	for (size_t i = 0; i < cnt; i++, in += blocks * 64, out += 32) {
		uint32_t cv[8];

		memcpy(cv, key, sizeof(cv));
		for (size_t b = 0; b < blocks; b++)
			ms_b3_compress_cv(cv, in + 64 * b, 64, counter,
			    ms_b3_block_flags(b, blocks, flags, flags_start,
			    flags_end));
		for (int w = 0; w < 8; w++)
			store32(out + 4 * w, cv[w]);
		if (inc)
			counter++;
	}
}
