/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * whirlpool.h - the built-in Whirlpool (ISO/IEC 10118-3): one hashing
 * state, the code levels that compress blocks, and what whirlpool.c
 * shares with the AVX-512 kernel (whirlpool_avx512.c).
 *
 * A state is plain data: it may be copied, and threads may run states of
 * their own at once.
 */
#ifndef MS_WHIRLPOOL_H
#define MS_WHIRLPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "base/cpulevel.h"

#define MS_WHIRLPOOL_LEN	64	/* digest bytes */
#define MS_WHIRLPOOL_BLOCK	64	/* message block bytes */

struct ms_whirlpool {
	/* The chaining value, its 8 x 8 matrix row by row, as the digest
	 * is written: every level reads and writes it in this form. */
	unsigned char	 h[MS_WHIRLPOOL_LEN];
	unsigned char	 buf[MS_WHIRLPOOL_BLOCK];	/* a partial block */
	size_t		 fill;		/* bytes in buf */
	uint64_t	 len;		/* message bytes so far */
};

/*
 * The levels (portable, avx512), read through cpulevel.h: the best this
 * CPU runs, chosen on first use, unless MULTISUM_WHIRLPOOL_LEVEL (or its
 * old name MULTISUM_WHIRLPOOL_IMPL) names another; ms_level_setup
 * reports a name it refuses.
 */
extern struct ms_level_family ms_whirlpool_levels;

/* The first init builds the tables, once per run. */
void	 ms_whirlpool_init(struct ms_whirlpool *w);
void	 ms_whirlpool_update(struct ms_whirlpool *w, const void *p, size_t n);
void	 ms_whirlpool_final(struct ms_whirlpool *w,
	    unsigned char out[MS_WHIRLPOOL_LEN]);

/* What the AVX-512 kernel reads, built once by whirlpool.c. */
struct ms_whirlpool_simd {
	unsigned char	 sbox[256];	/* its first 80 bytes: the round constants */
	/*
	 * mul[m]: multiplication by entry m of MixRows' first row, 1, 1, 4,
	 * 1, 8, 5, 2, 9, as a GF2P8AFFINEQB bit matrix (byte 7 - i holds
	 * the input bits that make output bit i).
	 */
	uint64_t	 mul[8];
};

/*
 * The AVX-512 (F, BW, VBMI) and GFNI kernel: compress cnt blocks of p
 * into h, Miyaguchi-Preneel.  whirlpool.c calls it only where the CPU
 * has those instructions.
 */
void	 ms_whirlpool_avx512(unsigned char h[MS_WHIRLPOOL_LEN],
	    const unsigned char *p, size_t cnt,
	    const struct ms_whirlpool_simd *k);

#endif
