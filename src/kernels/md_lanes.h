/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * md_lanes.h - MD5, SHA-1, SHA-224 and SHA-256 of many whole messages at
 * once, over a lanes kernel of md_kernels.h (md_lanes.c).
 */
#ifndef MS_MD_LANES_H
#define MS_MD_LANES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cpulevel.h"
#include "kernels/md_kernels.h"

/* What padding and output need of an algorithm. */
struct ms_md_shape {
	uint32_t	 iv[8];		/* the initial state */
	unsigned	 out_words;	/* 32-bit words of the digest */
	bool		 big_endian;	/* words and length (SHA) */
};

extern const struct ms_md_shape ms_md5_shape, ms_sha1_shape,
    ms_sha224_shape, ms_sha256_shape;

/*
 * The lanes kernels of a level: fn runs lanes messages side by side;
 * NULL at level 0, "libcrypto", which runs no lanes.
 */
struct ms_md_kernel {
	ms_md_lanes_fn	*fn;
	unsigned	 lanes;
};

/*
 * The levels of each family, read through cpulevel.h (the kernel of each
 * a struct ms_md_kernel): libcrypto, then avx2 (8 lanes), for SHA-256
 * shani (two SHA-NI streams), and avx512 (16 lanes), in the order they
 * won on the development machine (bench/README.md); the highest this CPU
 * meets runs, unless MULTISUM_MD5_LEVEL, MULTISUM_SHA1_LEVEL or
 * MULTISUM_SHA256_LEVEL (SHA-224's too) names another.
 */
extern struct ms_level_family ms_md5_levels, ms_sha1_levels,
    ms_sha256_levels;

/* One stream of the family fam's blocks, built in, and in *name what it
 * is: MD5's in C ("portable"), SHA-1's and SHA-224's and SHA-256's on
 * SHA-NI ("shani") where this CPU has it; where the family's level
 * (MULTISUM_MD5_LEVEL, MULTISUM_SHA1_LEVEL, MULTISUM_SHA256_LEVEL) is
 * libcrypto, or there is none, NULL: libcrypto's stream runs. */
typedef void ms_md_stream_fn(uint32_t h[8], const uint8_t *p, size_t blocks);
ms_md_stream_fn *ms_md_stream(struct ms_level_family *fam, const char **name);

/*
 * The digests of cnt messages (msg[i], len[i] bytes) into out[i], through
 * fn, a kernel of lanes lanes (at most 16) of the shape's algorithm.
 * done[i] tells which were finished: a message left running when fewer
 * than a quarter of the lanes have work is left to the caller.
 */
void	 ms_md_lanes(const struct ms_md_shape *a, ms_md_lanes_fn *fn,
	    unsigned lanes, size_t cnt, const uint8_t *const msg[],
	    const size_t len[], uint8_t *const out[], bool done[]);

#endif
