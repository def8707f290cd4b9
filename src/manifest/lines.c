/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lines.c - a manifest's bytes, handed in (lines.h), cut into lines.
 *
 * Owns the block buffer the readers of whole manifests share (the
 * ledger of --update and --audit, the known sets of --match): blocks of
 * a megabyte pulled from the input, lines found with memchr and handed
 * out in place, and the bound that makes an endless line an error
 * rather than all the memory there is.
 */
#include "manifest/lines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define BLOCK_SIZE	((size_t)1 << 20)

void
ms_lines_init(struct ms_lines *r, const struct ms_manifest_input *in)
{
	memset(r, 0, sizeof(*r));
	r->in = in;
	r->held_at = SIZE_MAX;
	r->cap = BLOCK_SIZE;
	r->buf = ms_xmalloc(r->cap + 1);
}

ssize_t
ms_lines_next(struct ms_lines *r, char **line, uint64_t *at)
{
	char *nl;
	size_t n;

	if (r->held_at != SIZE_MAX) {
		r->buf[r->held_at] = r->held;
		r->held_at = SIZE_MAX;
	}
	while ((nl = memchr(r->buf + r->start, '\n', r->end - r->start)) == NULL &&
	    !r->eof) {
		ssize_t got;

		if (r->start > 0) {
			memmove(r->buf, r->buf + r->start, r->end - r->start);
			r->base += r->start;
			r->end -= r->start;
			r->start = 0;
		}
		if (r->end == r->cap) {
			if (r->cap >= MS_LINE_MAX) {
				errno = EFBIG;
				return -1;
			}
			r->cap *= 2;
			r->buf = ms_xrealloc(r->buf, r->cap + 1);
		}
		got = r->in->pull(r->in->src, r->buf + r->end, r->cap - r->end);
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1)
			return -1;
		r->eof = got == 0;
		r->end += (size_t)got;
	}
	n = nl != NULL ? (size_t)(nl - (r->buf + r->start)) + 1 : r->end - r->start;
	if (n == 0)
		return 0;
	*line = r->buf + r->start;
	*at = r->base + r->start;
	r->start += n;
	r->held_at = r->start;
	r->held = r->buf[r->start];
	r->buf[r->start] = '\0';
	return (ssize_t)n;
}

uint64_t
ms_lines_size(const struct ms_lines *r)
{
	return r->base + r->end;
}

void
ms_lines_free(struct ms_lines *r)
{
	free(r->buf);
	r->buf = NULL;
}

int
ms_manifest_input_close(const struct ms_manifest_input *in)
{
	return in->close != NULL ? in->close(in->src) : 0;
}
