/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backend_btv2.c - the btv2 row: a file's BitTorrent v2 root (BEP 52's
 * "pieces root"), the SHA-256 Merkle root over its 16 KiB blocks.
 *
 * Owns the cutting into blocks; the tree is merkle.c's.  An empty file
 * has no root in a torrent; its digest here is 32 zero bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "digest/backend.h"
#include "digest/merkle.h"
#include "base/util.h"

struct state {
	struct ms_merkle tree;
	void		*leaf;		/* SHA-256 over the current block */
	const struct ms_digest_ops *ops;
	size_t		 in_leaf;	/* its bytes so far */
};

static const struct ms_algo *
sha256_row(void)
{
	const struct ms_algo *a = ms_algo_named("sha256");

	if (a == NULL)
		ms_bug("btv2: no sha256 row");
	return a;
}

static int
load(const struct ms_algo *a)
{
	(void)a;
	return ms_algo_load(sha256_row());
}

static void
destroy(void *state)
{
	struct state *s = state;

	if (s == NULL)
		return;
	if (s->leaf != NULL)
		s->ops->destroy(s->leaf);
	ms_merkle_free(&s->tree);
	free(s);
}

static void *
create(const struct ms_digest_spec *spec)
{
	struct ms_digest_spec in = { .algo = sha256_row() };
	struct state *s = calloc(1, sizeof(*s));

	(void)spec;
	if (s == NULL)
		return NULL;
	in.bits = in.algo->bits;
	s->ops = in.algo->ops;
	s->leaf = s->ops->create(&in);
	if (s->leaf == NULL || !ms_merkle_create(&s->tree, &in)) {
		destroy(s);
		return NULL;
	}
	return s;
}

static void
init(void *state)
{
	struct state *s = state;

	ms_merkle_init(&s->tree, 0);
	s->ops->init(s->leaf);
	s->in_leaf = 0;
}

/* The current block is whole (or the last): into the tree. */
static void
end_leaf(struct state *s)
{
	unsigned char h[MS_MERKLE_HASH];

	s->ops->final(s->leaf, h);
	ms_merkle_add(&s->tree, h);
	s->ops->init(s->leaf);
	s->in_leaf = 0;
}

static void
update(void *state, const void *p, size_t n)
{
	struct state *s = state;
	const unsigned char *b = p;

	while (n > 0) {
		size_t take = MS_MERKLE_BLOCK - s->in_leaf;

		if (take > n)
			take = n;
		s->ops->update(s->leaf, b, take);
		s->in_leaf += take;
		b += take;
		n -= take;
		if (s->in_leaf == MS_MERKLE_BLOCK)
			end_leaf(s);
	}
}

static void
final(void *state, unsigned char *out)
{
	struct state *s = state;

	if (s->in_leaf > 0)
		end_leaf(s);
	if (s->tree.count == 0)
		memset(out, 0, MS_MERKLE_HASH);
	else
		ms_merkle_root(&s->tree, 1, out);
}

const struct ms_digest_ops ms_ops_btv2 = {
	.backend = "built-in",
	.load = load,
	.create = create,
	.init = init,
	.update = update,
	.final = final,
	.destroy = destroy,
};
