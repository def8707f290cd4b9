/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * engine_sequential.c - one open source through one digest set, chunk by chunk,
 * on the calling thread: the sequential path that the engine's workers,
 * archive members and check mode's second look all take.
 */
#include "engine/engine_sequential.h"

#include <errno.h>

void
ms_sequential_update_set(void *arg, const void *p, size_t n)
{
	ms_digest_set_update(arg, p, n);
}

/* Feed chunks (the first one already read) until the end of src. */
int
ms_sequential_hash_rest(struct ms_source *src, struct ms_digest_set *set,
    struct ms_chunk *c, unsigned char *buf, size_t cap, struct ms_progress *progress)
{
	int r = 1;

	while (r == 1) {
		int fed = ms_chunk_feed(c, ms_sequential_update_set, set);

		ms_progress_add(progress, c->len);
		ms_chunk_release(c);
		if (fed == -1)
			return -1;
		r = ms_source_next(src, c, buf, cap);
	}
	return r;
}

void
ms_engine_set_subject(struct ms_digest_set *set, struct ms_source *src)
{
	off_t size;

	if (!ms_selection_has_subject(set->sel))
		return;
	size = ms_source_size(src);
	ms_digest_set_subject(set, src->name,
	    size < 0 ? UINT64_MAX : (uint64_t)size);
}

int
ms_sequential_hash_source(struct ms_source *src, struct ms_digest_set *set,
    unsigned char *buf, size_t cap, struct ms_progress *progress,
    unsigned char *out, uint64_t *size)
{
	struct ms_chunk c;
	int r;

	ms_digest_set_init(set);
	ms_engine_set_subject(set, src);
	r = ms_source_next(src, &c, buf, cap);
	if (r == 1)
		r = ms_sequential_hash_rest(src, set, &c, buf, cap, progress);
	*size = (uint64_t)src->pos;
	if (r == -1) {
		errno = ms_source_error(src, errno);
		return -1;
	}
	ms_digest_set_final(set, out);
	return 0;
}
