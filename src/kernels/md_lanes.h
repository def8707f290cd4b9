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
 * The families whose levels md_lanes.c chooses, each from the CPU and its
 * variable (MULTISUM_MD5_LEVEL, MULTISUM_SHA1_LEVEL, MULTISUM_SHA256_LEVEL):
 * level 0, "libcrypto", runs no lanes (and SHA-256 one stream through
 * libcrypto); then "avx2" (8 lanes), for SHA-256 "shani" (two SHA-NI
 * streams), and "avx512" (16 lanes), in the order they won on the
 * development machine (bench/README.md).
 */
enum ms_md_family { MS_MD_MD5, MS_MD_SHA1, MS_MD_SHA256, MS_MD_FAMILIES };

struct ms_md_kernel {
	ms_md_lanes_fn	*fn;		/* NULL at level 0 */
	unsigned	 lanes;
};

/* The lanes kernel of the level that runs. */
const struct ms_md_kernel *ms_md_kernel(enum ms_md_family f);
/* Its name, or "invalid VAR" after a refused variable. */
const char *ms_md_level_name(enum ms_md_family f);
/* Settle the choice; -1 with *why set to the variable's refusal. */
int	 ms_md_level_setup(enum ms_md_family f, const char **why);
/* Tests: run the level called name; -1 if unknown or not on this CPU. */
int	 ms_md_level_force(enum ms_md_family f, const char *name);
/* Does this CPU have SHA-NI (and the level allow one built-in stream)? */
bool	 ms_md_sha256_shani(void);

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
