/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend_p2p.c - the rows of the file-sharing networks' digests and of
 * the built-in kernels they and RHash's other rows need: tiger and
 * has160 (one kernel each), tth (DC++'s Tiger Tree Hash), ed2k and
 * ed2k-edonkey (eDonkey's MD4 of chunk MD4s), aich (eMule's SHA-1 tree).
 *
 * TTH (THEX): each 1 KiB leaf's digest is Tiger(0x00 || leaf), an inner
 * node's Tiger(0x01 || left || right), a node without a sibling moves
 * up unchanged; an empty input is one empty leaf.
 *
 * ED2K: the MD4 of each 9,728,000-byte chunk; an input shorter than one
 * chunk has that MD4 as its digest, a longer one the MD4 of its chunks'
 * MD4s.  An input of an exact multiple of the chunk size ends, in
 * eMule's convention (RHash's since 1.1, the "ed2k" row), with the MD4
 * of an empty chunk; in the original eDonkey2000 client's ("ed2k-
 * edonkey") it does not, and a single whole chunk is its own digest.
 *
 * AICH: the SHA-1 of each 184,320-byte block, the blocks taken within
 * 9,728,000-byte parts (a part's last block is 143,360 bytes), joined
 * by SHA-1(left || right) in eMule's tree: a node of n blocks (or parts)
 * gives its left child ceil(n / 2) of them if it is itself a left child
 * (the root is), floor(n / 2) if not; a node of one block is its SHA-1.
 * A part's subtree thus depends on its side, and each part keeps both.
 *
 * TTH and AICH print as RHash prints them: base32, lower case.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "digest/backend.h"
#include "digest/state_create.h"
#include "kernels/has160.h"
#include "kernels/tiger.h"
#include "base/util.h"

#define TTH_LEAF	1024
#define ED2K_CHUNK	9728000u
#define AICH_BLOCK	184320u
#define AICH_PART	ED2K_CHUNK
#define AICH_BLOCKS	((AICH_PART + AICH_BLOCK - 1) / AICH_BLOCK)	/* 53 */
#define SHA1_LEN	20

static void
text_base32(char *buf, const unsigned char *d, size_t len)
{
	ms_base32(buf, d, len);
}

/* -- tiger -- */

MS_KERNEL_CALLS(tiger, ms_tiger_init, ms_tiger_update, ms_tiger_final)

const struct ms_digest_ops ms_ops_tiger = {
	.backend = "built-in", .create = ms_state_create,
	.state_size = sizeof(struct ms_tiger), .init = tiger_init,
	.update = tiger_update, .final = tiger_final, .destroy = free,
};

/* -- has160 -- */

MS_KERNEL_CALLS(has160, ms_has160_init, ms_le_md_update, ms_le_md_final)

const struct ms_digest_ops ms_ops_has160 = {
	.backend = "built-in", .create = ms_state_create,
	.state_size = sizeof(struct ms_le_md), .init = has160_init,
	.update = has160_update, .final = has160_final, .destroy = free,
};

/* -- tth -- */

struct tth {
	struct ms_tiger	 leaf;
	size_t		 fill;		/* bytes of the open leaf */
	uint64_t	 leaves;	/* closed: bit k set, a node at k */
	unsigned char	 node[64][MS_TIGER_LEN];	/* node[k]: 2^k leaves */
};

static void
tth_open(struct tth *t)
{
	static const unsigned char zero = 0x00;

	ms_tiger_init(&t->leaf);
	ms_tiger_update(&t->leaf, &zero, 1);
	t->fill = 0;
}

static void
tth_node(const unsigned char *l, const unsigned char *r, unsigned char *out)
{
	static const unsigned char one = 0x01;
	struct ms_tiger t;

	ms_tiger_init(&t);
	ms_tiger_update(&t, &one, 1);
	ms_tiger_update(&t, l, MS_TIGER_LEN);
	ms_tiger_update(&t, r, MS_TIGER_LEN);
	ms_tiger_final(&t, out);
}

/* Close the open leaf and join it with the equal subtrees before it. */
static void
tth_close(struct tth *t)
{
	unsigned char d[MS_TIGER_LEN];
	int k = 0;

	ms_tiger_final(&t->leaf, d);
	for (; t->leaves >> k & 1; k++)
		tth_node(t->node[k], d, d);
	memcpy(t->node[k], d, sizeof(d));
	t->leaves++;
}

static void
tth_init(void *state)
{
	struct tth *t = state;

	t->leaves = 0;
	tth_open(t);
}

static void
tth_update(void *state, const void *p, size_t n)
{
	struct tth *t = state;
	const unsigned char *s = p;

	while (n > 0) {
		size_t k = TTH_LEAF - t->fill;

		if (k > n)
			k = n;
		ms_tiger_update(&t->leaf, s, k);
		t->fill += k;
		s += k;
		n -= k;
		if (t->fill == TTH_LEAF) {
			tth_close(t);
			tth_open(t);
		}
	}
}

static void
tth_final(void *state, unsigned char *out)
{
	struct tth *t = state;
	unsigned char d[MS_TIGER_LEN];
	int k = 0;

	if (t->fill > 0 || t->leaves == 0)
		tth_close(t);
	/* the smallest subtree is the rightmost: fold leftwards */
	while (!(t->leaves >> k & 1))
		k++;
	memcpy(d, t->node[k], sizeof(d));
	for (k++; k < 64; k++)
		if (t->leaves >> k & 1)
			tth_node(t->node[k], d, d);
	memcpy(out, d, sizeof(d));
}

const struct ms_digest_ops ms_ops_tth = {
	.backend = "built-in", .create = ms_state_create,
	.state_size = sizeof(struct tth), .init = tth_init,
	.update = tth_update, .final = tth_final, .destroy = free,
	.text = text_base32,
};

/* -- ed2k -- */

struct ed2k {
	struct ms_le_md	 chunk;		/* the open chunk */
	struct ms_le_md	 list;		/* over the closed chunks' MD4s */
	uint64_t	 fill;		/* bytes of the open chunk */
	uint64_t	 chunks;	/* closed */
	unsigned char	 first[MS_MD4_LEN];
	bool		 edonkey;
};

static bool
ed2k_make(void *state, const struct ms_digest_spec *s)
{
	struct ed2k *e = state;

	e->edonkey = s->algo->ops == &ms_ops_ed2k_edonkey;
	return true;
}

static void
ed2k_init(void *state)
{
	struct ed2k *e = state;

	ms_md4_init(&e->chunk);
	ms_md4_init(&e->list);
	e->fill = 0;
	e->chunks = 0;
}

static void
ed2k_update(void *state, const void *p, size_t n)
{
	struct ed2k *e = state;
	const unsigned char *s = p;

	while (n > 0) {
		uint64_t k = ED2K_CHUNK - e->fill;
		unsigned char d[MS_MD4_LEN];

		if (k > n)
			k = n;
		ms_le_md_update(&e->chunk, s, (size_t)k);
		e->fill += k;
		s += k;
		n -= (size_t)k;
		if (e->fill < ED2K_CHUNK)
			continue;
		ms_le_md_final(&e->chunk, d);
		ms_le_md_update(&e->list, d, sizeof(d));
		if (e->chunks++ == 0)
			memcpy(e->first, d, sizeof(d));
		ms_md4_init(&e->chunk);
		e->fill = 0;
	}
}

static void
ed2k_final(void *state, unsigned char *out)
{
	struct ed2k *e = state;
	unsigned char d[MS_MD4_LEN];

	if (e->chunks == 0) {
		ms_le_md_final(&e->chunk, out);
		return;
	}
	if (e->edonkey && e->fill == 0) {
		if (e->chunks == 1)
			memcpy(out, e->first, sizeof(d));
		else
			ms_le_md_final(&e->list, out);
		return;
	}
	ms_le_md_final(&e->chunk, d);
	ms_le_md_update(&e->list, d, sizeof(d));
	ms_le_md_final(&e->list, out);
}

/* Two tables, one per row: ed2k_make tells the rows apart by address. */
#define ED2K_OPS {							\
	.backend = "built-in", .create = ms_state_create,		\
	.state_size = sizeof(struct ed2k), .make = ed2k_make,		\
	.init = ed2k_init, .update = ed2k_update, .final = ed2k_final,	\
	.destroy = free,						\
}

const struct ms_digest_ops ms_ops_ed2k = ED2K_OPS;
const struct ms_digest_ops ms_ops_ed2k_edonkey = ED2K_OPS;

/* -- aich -- */

struct aich {
	const struct ms_digest_ops *sha1;	/* the "sha1" row's */
	void		*block;		/* over the open block */
	void		*node;		/* for inner nodes */
	uint64_t	 fill;		/* bytes of the open block */
	uint64_t	 in_part;	/* bytes of the open part */
	size_t		 blocks;	/* closed in the open part */
	unsigned char	 block_d[AICH_BLOCKS][SHA1_LEN];
	/* each closed part's subtree as a right and as a left child */
	unsigned char	(*part_d)[2][SHA1_LEN];
	size_t		 parts, cap;
	bool		 failed;	/* no memory for part_d: final says so */
};

static void
aich_destroy(void *state)
{
	struct aich *s = state;

	if (s == NULL)
		return;
	s->sha1->destroy(s->block);
	s->sha1->destroy(s->node);
	free(s->part_d);
	free(s);
}

/* The SHA-1 states over the open block and for the inner nodes. */
static bool
aich_make(void *state, const struct ms_digest_spec *spec)
{
	struct aich *s = state;
	struct ms_digest_spec in = { .algo = ms_algo_inner(spec->algo) };

	in.bits = in.algo->bits;
	s->sha1 = in.algo->ops;
	s->block = s->sha1->create(&in);
	s->node = s->sha1->create(&in);
	return s->block != NULL && s->node != NULL;
}

static void
aich_init(void *state)
{
	struct aich *s = state;

	s->sha1->init(s->block);
	s->fill = s->in_part = 0;
	s->blocks = s->parts = 0;
	s->failed = false;
}

static void
aich_join(struct aich *s, const unsigned char *l, const unsigned char *r,
    unsigned char *out)
{
	s->sha1->init(s->node);
	s->sha1->update(s->node, l, SHA1_LEN);
	s->sha1->update(s->node, r, SHA1_LEN);
	s->sha1->final(s->node, out);
}

/*
 * The root of n leaves from at, as a left child or not: the leaves are
 * the open part's blocks, or with parts the closed parts' subtrees.
 */
static void
aich_tree(struct aich *s, size_t at, size_t n, bool left, bool parts,
    unsigned char *out)
{
	unsigned char l[SHA1_LEN], r[SHA1_LEN];
	size_t nl = (left ? n + 1 : n) / 2;

	if (n == 1) {
		memcpy(out, parts ? s->part_d[at][left] : s->block_d[at],
		    SHA1_LEN);
		return;
	}
	aich_tree(s, at, nl, true, parts, l);
	aich_tree(s, at + nl, n - nl, false, parts, r);
	aich_join(s, l, r, out);
}

static void
aich_close_block(struct aich *s)
{
	s->sha1->final(s->block, s->block_d[s->blocks++]);
	s->sha1->init(s->block);
	s->fill = 0;
}

static void
aich_close_part(struct aich *s)
{
	if (s->parts == s->cap && !s->failed) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		void *p = realloc(s->part_d, cap * sizeof(*s->part_d));

		if (p == NULL)
			s->failed = true;
		else {
			s->part_d = p;
			s->cap = cap;
		}
	}
	if (!s->failed) {
		aich_tree(s, 0, s->blocks, false, false, s->part_d[s->parts][0]);
		aich_tree(s, 0, s->blocks, true, false, s->part_d[s->parts][1]);
	}
	s->parts++;
	s->blocks = 0;
	s->in_part = 0;
}

static void
aich_update(void *state, const void *p, size_t n)
{
	struct aich *s = state;
	const unsigned char *c = p;

	while (n > 0) {
		uint64_t k = AICH_BLOCK - s->fill;

		if (k > AICH_PART - s->in_part)
			k = AICH_PART - s->in_part;
		if (k > n)
			k = n;
		s->sha1->update(s->block, c, (size_t)k);
		s->fill += k;
		s->in_part += k;
		c += k;
		n -= (size_t)k;
		if (s->fill == AICH_BLOCK || s->in_part == AICH_PART)
			aich_close_block(s);
		if (s->in_part == AICH_PART)
			aich_close_part(s);
	}
}

static void
aich_final(void *state, unsigned char *out)
{
	struct aich *s = state;

	if (s->fill > 0 || (s->parts == 0 && s->blocks == 0))
		aich_close_block(s);
	if (s->blocks > 0)
		aich_close_part(s);
	/* update cannot fail: a file too big for memory is a bug here */
	if (s->failed)
		ms_bug("aich: out of memory for the part digests");
	aich_tree(s, 0, s->parts, true, true, out);
}

const struct ms_digest_ops ms_ops_aich = {
	.backend = "built-in", .load = ms_algo_inner_load,
	.create = ms_state_create, .state_size = sizeof(struct aich),
	.make = aich_make,
	.init = aich_init, .update = aich_update, .final = aich_final,
	.destroy = aich_destroy, .text = text_base32,
};
