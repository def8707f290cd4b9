/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * streebog.h - the built-in GOST R 34.11-2012 "Streebog" (RFC 6986),
 * 256 and 512 bits: one hashing state.
 *
 * A state is plain data: it may be copied, and threads may run states of
 * their own at once.
 */
#ifndef MS_STREEBOG_H
#define MS_STREEBOG_H

#include <stddef.h>
#include <stdint.h>

#define MS_STREEBOG_BLOCK	64	/* message block bytes */

struct ms_streebog {
	/* 512-bit vectors as little-endian 64-bit words, word 0 the least
	 * significant: the chaining value, the bit count N, the sum Sigma. */
	uint64_t	 h[8], n[8], sigma[8];
	unsigned char	 buf[MS_STREEBOG_BLOCK];	/* a partial block */
	size_t		 fill;		/* bytes in buf */
	size_t		 outlen;	/* 32 or 64 */
};

/* outlen 32 (Streebog-256) or 64; the first init builds the tables. */
void	 ms_streebog_init(struct ms_streebog *s, size_t outlen);
void	 ms_streebog_update(struct ms_streebog *s, const void *p, size_t n);
/* Writes outlen bytes, in the byte order of the vector's memory image
 * (the reverse of RFC 6986's hex numbers, as RHash and OpenSSL print). */
void	 ms_streebog_final(struct ms_streebog *s, unsigned char *out);

#endif
