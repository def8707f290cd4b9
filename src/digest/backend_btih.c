/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backend_btih.c - the btih row: BitTorrent v1's info hash of a one-file
 * torrent made of the message, byte for byte as `rhash --btih` (1.4.3):
 * the SHA-1 of the bencoded info dict
 *   d6:lengthiNe4:nameL:NAME12:piece lengthiPe6:pieces20K:...[7:privatei1e]e
 * (keys sorted, no other key), NAME the file's basename (subject).
 *
 * Owns the bencoding; the cutting is pieces.c's.  The state keeps each
 * piece's SHA-1 until final, where the name is known: 20 bytes a piece.
 * The default piece length grows with the size (RHash's rule, at most
 * 1024 pieces up to 4 GiB, 8 MiB pieces above: 2.5 MiB for 1 TiB); a
 * small --piece-size on a large file costs 20 bytes per piece.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest/backend.h"
#include "digest/state_create.h"
#include "digest/pieces.h"
#include "base/util.h"

#define SHA1_LEN	20
#define PIECE_MIN	16384		/* RHash's default for small files */
#define PIECE_MAX	8388608		/* and for 4 GiB and more */

struct state {
	struct ms_pieces pc;		/* first: SHA-1 per piece */
	void		*info;		/* SHA-1 over the info dict */
	uint64_t	 asked;		/* --piece-size, 0: the default */
	int		 private;
	struct ms_bytes	 pieces;	/* their SHA-1s */
	char		*name;
};

/* RHash's default (librhash torrent.c, uTorrent's rule): the largest
 * power of two not above size / 512, within [16 KiB, 8 MiB]. */
static uint64_t
default_length(uint64_t size)
{
	uint64_t want = (size >> 9) | PIECE_MIN, len = PIECE_MAX;

	while (len > want)
		len >>= 1;
	return len;
}

static void
destroy(void *state)
{
	struct state *s = state;

	if (s == NULL)
		return;
	s->pc.ops->destroy(s->info);
	ms_pieces_free(&s->pc);
	ms_bytes_free(&s->pieces);
	free(s->name);
	free(s);
}

/* A piece's SHA-1: kept until final. */
static void
add_piece(void *row, const unsigned char *h)
{
	struct state *s = row;

	ms_bytes_add(&s->pieces, h, SHA1_LEN);
}

/* The piece hasher and the info dictionary's SHA-1. */
static bool
make(void *state, const struct ms_digest_spec *spec)
{
	struct state *s = state;
	struct ms_digest_spec in = { 0 };

	s->asked = spec->param.piece_length;
	s->private = spec->param.bt_private;
	return ms_pieces_create(&s->pc, ms_algo_inner(spec->algo), add_piece,
	    s, &in) && (s->info = s->pc.ops->create(&in)) != NULL;
}

static void
init(void *state)
{
	struct state *s = state;

	ms_pieces_init(&s->pc, s->asked != 0 ? s->asked : PIECE_MIN);
	s->pieces.len = 0;
	free(s->name);
	s->name = NULL;
}

static void
subject(void *state, const char *name, uint64_t size)
{
	struct state *s = state;

	free(s->name);
	s->name = ms_xstrdup(name);
	if (s->asked == 0 && size != UINT64_MAX)
		s->pc.length = default_length(size);
}

static void
put(struct state *s, const char *text)
{
	s->pc.ops->update(s->info, text, strlen(text));
}

static void
final(void *state, unsigned char *out)
{
	struct state *s = state;
	const char *name = s->name != NULL ? s->name : "";
	char num[64];

	ms_pieces_end(&s->pc);
	s->pc.ops->init(s->info);
	snprintf(num, sizeof(num), "d6:lengthi%" PRIu64 "e4:name%zu:",
	    s->pc.total, strlen(name));
	put(s, num);
	put(s, name);
	snprintf(num, sizeof(num), "12:piece lengthi%" PRIu64 "e6:pieces%zu:",
	    s->pc.length, s->pieces.len);
	put(s, num);
	if (s->pieces.len > 0)		/* an empty file has none, and no buffer */
		s->pc.ops->update(s->info, s->pieces.p, s->pieces.len);
	if (s->private)
		put(s, "7:privatei1e");
	put(s, "e");
	s->pc.ops->final(s->info, out);
}

const struct ms_digest_ops ms_ops_btih = {
	MS_PIECES_ROW_OPS,
	.subject = subject,
};
