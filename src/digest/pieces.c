/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pieces.c - owns the cutting of a message into fixed-length pieces
 * hashed one by one (pieces.h): the part the btih and btv2 rows share.
 * It calls no other file (the rows find their inner row themselves: a
 * call into algorithm.c from here would close a cycle).
 */
#include "digest/pieces.h"

bool
ms_pieces_create(struct ms_pieces *pc, const struct ms_algo *row,
    void (*done)(void *owner, const unsigned char *h), void *owner,
    struct ms_digest_spec *in)
{
	pc->done = done;
	pc->row = owner;
	in->algo = row;
	in->bits = row->bits;
	pc->ops = row->ops;
	pc->h = pc->ops->create(in);
	return pc->h != NULL;
}

void
ms_pieces_free(struct ms_pieces *pc)
{
	if (pc->h != NULL)
		pc->ops->destroy(pc->h);
	pc->h = NULL;
}

void
ms_pieces_init(struct ms_pieces *pc, uint64_t length)
{
	pc->ops->init(pc->h);
	pc->length = length;
	pc->in_piece = 0;
	pc->total = 0;
}

/* The current piece is whole (or the last): its hash is done. */
static void
end_piece(struct ms_pieces *pc)
{
	unsigned char h[MS_DIGEST_MAX / 8];

	pc->ops->final(pc->h, h);
	pc->done(pc->row, h);
	pc->ops->init(pc->h);
	pc->in_piece = 0;
}

void
ms_pieces_update(struct ms_pieces *pc, const void *p, size_t n)
{
	const unsigned char *b = p;

	pc->total += n;
	while (n > 0) {
		uint64_t room = pc->length - pc->in_piece;
		size_t take = room < n ? (size_t)room : n;

		pc->ops->update(pc->h, b, take);
		pc->in_piece += take;
		b += take;
		n -= take;
		if (pc->in_piece == pc->length)
			end_piece(pc);
	}
}

void
ms_pieces_row_update(void *state, const void *p, size_t n)
{
	ms_pieces_update(state, p, n);
}

void
ms_pieces_end(struct ms_pieces *pc)
{
	if (pc->in_piece > 0)
		end_piece(pc);
}
