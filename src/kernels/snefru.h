/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * snefru.h - the built-in Snefru (Merkle, 1990; the 8-pass version 2.5
 * RHash computes), 128 and 256 bits: one hashing state.
 *
 * A state is plain data: it may be copied, and threads may run states of
 * their own at once.
 */
#ifndef MS_SNEFRU_H
#define MS_SNEFRU_H

#include <stddef.h>
#include <stdint.h>

struct ms_snefru {
	uint32_t	 h[8];		/* chaining value, outlen / 4 words */
	unsigned char	 buf[48];	/* a partial block */
	size_t		 fill;		/* bytes in buf */
	size_t		 outlen;	/* 16 or 32 */
	size_t		 block;		/* message bytes a block: 64 - outlen */
	uint64_t	 len;		/* message bytes so far */
};

/* outlen 16 (Snefru-128) or 32 (Snefru-256). */
void	 ms_snefru_init(struct ms_snefru *s, size_t outlen);
void	 ms_snefru_update(struct ms_snefru *s, const void *p, size_t n);
/* Writes outlen bytes: the chaining words, big-endian. */
void	 ms_snefru_final(struct ms_snefru *s, unsigned char *out);

#endif
