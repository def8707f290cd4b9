/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pieces.h - a message cut into pieces of a fixed length, each hashed by
 * an inner row (pieces.c): BitTorrent's cutting, the btih row's SHA-1
 * per piece and the btv2 row's SHA-256 per 16 KiB block, S3's parts and
 * Dropbox's 4 MiB blocks (backend_s3.c).  Each whole
 * piece's hash, and the last short one's at ms_pieces_end, goes to the
 * row's done callback.
 */
#ifndef MS_PIECES_H
#define MS_PIECES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "digest/algorithm.h"

struct ms_pieces {
	const struct ms_digest_ops *ops;	/* the inner row's */
	void		*h;		/* its state over the current piece */
	uint64_t	 length;	/* bytes per piece */
	uint64_t	 in_piece;	/* the current piece's bytes so far */
	uint64_t	 total;		/* the message's bytes so far */
	/* a piece's hash (the inner row's digest) */
	void		(*done)(void *row, const unsigned char *h);
	void		*row;
};

/* The inner state, of row (loaded), each piece's hash going to
 * done(owner, h); false if memory ran out.  in is filled with row's spec
 * (for other states of it). */
bool	 ms_pieces_create(struct ms_pieces *pc, const struct ms_algo *row,
	    void (*done)(void *owner, const unsigned char *h), void *owner,
	    struct ms_digest_spec *in);
void	 ms_pieces_free(struct ms_pieces *pc);
/* A new message, cut into pieces of length bytes. */
void	 ms_pieces_init(struct ms_pieces *pc, uint64_t length);
void	 ms_pieces_update(struct ms_pieces *pc, const void *p, size_t n);
/* The update of a row whose state begins with its struct ms_pieces
 * (btih, btv2): the bytes cut into pieces, nothing else. */
void	 ms_pieces_row_update(void *state, const void *p, size_t n);
/* The message ended: its last piece, if begun, is done. */
void	 ms_pieces_end(struct ms_pieces *pc);

/* The ops of a built-in row whose struct state begins with its struct
 * ms_pieces (btih, btv2): the file's own make, init, final and destroy,
 * the loading of the inner row and the cutting shared. */
#define MS_PIECES_ROW_OPS						\
	.backend = "built-in", .load = ms_algo_inner_load,		\
	.create = ms_state_create, .state_size = sizeof(struct state),	\
	.make = make, .init = init, .update = ms_pieces_row_update,	\
	.final = final, .destroy = destroy

#endif
