/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * edonr.h - the built-in EDON-R 256 and 512 (Gligoroski et al., the
 * SHA-3 round 1 submission): one hashing state for either width.
 *
 * A state is plain data: it may be copied, and threads may run states of
 * their own at once.
 */
#ifndef MS_EDONR_H
#define MS_EDONR_H

#include <stddef.h>
#include <stdint.h>

struct ms_edonr {
	/* The double pipe, 16 words of 32 (EDON-R256) or 64 bits. */
	union {
		uint32_t	 w32[16];
		uint64_t	 w64[16];
	} p;
	unsigned char	 buf[128];	/* a partial block */
	size_t		 fill;		/* bytes in buf */
	size_t		 block;		/* 64 or 128 */
	uint64_t	 len;		/* message bytes so far */
};

/* outlen 32 (EDON-R256) or 64 (EDON-R512). */
void	 ms_edonr_init(struct ms_edonr *e, size_t outlen);
void	 ms_edonr_update(struct ms_edonr *e, const void *p, size_t n);
/* Writes outlen bytes: the second pipe's words, little-endian. */
void	 ms_edonr_final(struct ms_edonr *e, unsigned char *out);

#endif
