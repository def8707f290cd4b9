/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backend_btv2.c - the btv2 row: a file's BitTorrent v2 root (BEP 52's
 * "pieces root"), the SHA-256 Merkle root over its 16 KiB blocks.
 *
 * Owns the blocks' way into the tree; the cutting into blocks is
 * pieces.c's, the tree merkle.c's.  An empty file has no root in a
 * torrent; its digest here is 32 zero bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "digest/backend.h"
#include "digest/state_create.h"
#include "digest/merkle.h"
#include "digest/pieces.h"
#include "base/util.h"

struct state {
	struct ms_pieces leaf;		/* first: SHA-256 per block */
	struct ms_merkle tree;
};

static void
destroy(void *state)
{
	struct state *s = state;

	if (s == NULL)
		return;
	ms_pieces_free(&s->leaf);
	ms_merkle_free(&s->tree);
	free(s);
}

/* A block's hash: into the tree. */
static void
add_leaf(void *row, const unsigned char *h)
{
	struct state *s = row;

	ms_merkle_add(&s->tree, h);
}

/* The leaf hasher and the tree. */
static bool
make(void *state, const struct ms_digest_spec *spec)
{
	struct state *s = state;
	struct ms_digest_spec in = { 0 };

	return ms_pieces_create(&s->leaf, ms_algo_inner(spec->algo), add_leaf,
	    s, &in) && ms_merkle_create(&s->tree, &in);
}

static void
init(void *state)
{
	struct state *s = state;

	ms_merkle_init(&s->tree, 0);
	ms_pieces_init(&s->leaf, MS_MERKLE_BLOCK);
}

static void
final(void *state, unsigned char *out)
{
	struct state *s = state;

	ms_pieces_end(&s->leaf);
	if (s->tree.count == 0)
		memset(out, 0, MS_MERKLE_HASH);
	else
		ms_merkle_root(&s->tree, 1, out);
}

const struct ms_digest_ops ms_ops_btv2 = {
	MS_PIECES_ROW_OPS,
};
