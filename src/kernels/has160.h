/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * has160.h - the built-in HAS-160 (TTAS.KO-12.0011/R2, Korea's hash
 * standard for KCDSA) and the built-in MD4 (RFC 1320) that ED2K's chunks
 * need where OpenSSL's legacy provider is not installed (has160.c): two
 * little-endian digests of 64-byte blocks with MD5's padding.
 *
 * A state is plain data: it may be copied, and threads may run states of
 * their own at once.
 */
#ifndef MS_HAS160_H
#define MS_HAS160_H

#include <stddef.h>
#include <stdint.h>

#define MS_HAS160_LEN	20
#define MS_MD4_LEN	16
#define MS_LE_BLOCK	64

/* One state of either digest: its words, a partial block. */
struct ms_le_md {
	uint32_t	 h[5];
	unsigned char	 buf[MS_LE_BLOCK];
	size_t		 fill;
	uint64_t	 len;
	void		(*compress)(uint32_t h[5], const unsigned char *p);
	size_t		 words;		/* of h in the digest: 5 or 4 */
};

void	 ms_has160_init(struct ms_le_md *m);
void	 ms_md4_init(struct ms_le_md *m);
void	 ms_le_md_update(struct ms_le_md *m, const void *p, size_t n);
/* out: 4 * m->words bytes */
void	 ms_le_md_final(struct ms_le_md *m, unsigned char *out);

#endif
