/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * tiger.h - the built-in Tiger (Anderson and Biham, 1996): the 192-bit
 * digest with the original padding (a 0x01 byte, "Tiger1"), as RHash and
 * DC++ compute it, and the compression TTH's tree runs (tiger.c).
 *
 * A state is plain data: it may be copied, and threads may run states of
 * their own at once.
 */
#ifndef MS_TIGER_H
#define MS_TIGER_H

#include <stddef.h>
#include <stdint.h>

#define MS_TIGER_LEN	24	/* digest bytes */
#define MS_TIGER_BLOCK	64	/* message block bytes */

struct ms_tiger {
	uint64_t	 h[3];
	unsigned char	 buf[MS_TIGER_BLOCK];	/* a partial block */
	size_t		 fill;		/* bytes in buf */
	uint64_t	 len;		/* message bytes so far */
};

/* The first init generates the S-boxes, once per run. */
void	 ms_tiger_init(struct ms_tiger *t);
void	 ms_tiger_update(struct ms_tiger *t, const void *p, size_t n);
void	 ms_tiger_final(struct ms_tiger *t, unsigned char out[MS_TIGER_LEN]);

#endif
