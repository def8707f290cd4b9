/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * gost94.h - the built-in GOST R 34.11-94 (RFC 5831), with the test
 * parameter S-boxes or CryptoPro's (RFC 4357): one hashing state.
 *
 * A state is plain data: it may be copied, and threads may run states of
 * their own at once.
 */
#ifndef MS_GOST94_H
#define MS_GOST94_H

#include <stddef.h>
#include <stdint.h>

#define MS_GOST94_LEN	32	/* digest bytes */
#define MS_GOST94_BLOCK	32	/* message block bytes */

struct ms_gost94 {
	/* 256-bit vectors as little-endian 32-bit words, word 0 the least
	 * significant: the chaining value and the control sum Sigma. */
	uint32_t	 h[8], sigma[8];
	const uint32_t	(*sbox)[256];	/* the parameter set's tables */
	unsigned char	 buf[MS_GOST94_BLOCK];	/* a partial block */
	size_t		 fill;		/* bytes in buf */
	uint64_t	 len;		/* message bytes so far */
};

/* cryptopro non-zero: CryptoPro's S-boxes, else the test set.  The first init
 * builds the tables. */
void	 ms_gost94_init(struct ms_gost94 *g, size_t cryptopro);
void	 ms_gost94_update(struct ms_gost94 *g, const void *p, size_t n);
/* Writes the vector's memory image (RFC 5831's hex read backwards), as
 * RHash prints it. */
void	 ms_gost94_final(struct ms_gost94 *g, unsigned char out[MS_GOST94_LEN]);

#endif
