/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * engine_sequential.h - one open source through one digest set, sequentially.
 */
#ifndef MS_ENGINE_SEQUENTIAL_H
#define MS_ENGINE_SEQUENTIAL_H

#include <stddef.h>
#include <stdint.h>

#include "digest/digest_set.h"
#include "io/progress.h"
#include "io/source.h"

/*
 * Hash an open source sequentially through set (already created), using
 * buf (cap bytes) for reads and telling progress (may be NULL) of each
 * chunk.  Fills out and *size; -1 with errno.
 */
int	 ms_sequential_hash_source(struct ms_source *src,
	    struct ms_digest_set *set, unsigned char *buf, size_t cap, struct ms_progress *progress,
	    unsigned char *out, uint64_t *size);

/* Feed c (the first chunk, already read) and the rest of src to set,
 * releasing each chunk; the source's next-chunk result (0 at the end, -1
 * with errno). */
int	 ms_sequential_hash_rest(struct ms_source *src,
	    struct ms_digest_set *set, struct ms_chunk *c, unsigned char *buf, size_t cap,
	    struct ms_progress *progress);

/* After ms_digest_set_init: tell set's digests that read their
 * message's name (btih) src's name and size. */
void	 ms_engine_set_subject(struct ms_digest_set *set, struct ms_source *src);

/* An ms_chunk_feed callback: update the digest set arg. */
void	 ms_sequential_update_set(void *arg, const void *p, size_t n);

#endif
