/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * merkle.c - BEP 52's Merkle trees: SHA-256 over pairs of hashes, the
 * leaves 16 KiB blocks, the tree padded to a power of two with zero
 * leaves (a zero leaf is 32 zero bytes, not the hash of anything).
 *
 * Owns the tree arithmetic only: the blocks' hashes come from the btv2
 * row (backend_btv2.c) or from a torrent check; SHA-256 is the sha256
 * row's, whatever backend computes it, handed in by them.  Memory is one hash per level.
 */
#include "digest/merkle.h"

#include <string.h>

#include "digest/algorithm.h"
#include "base/util.h"	/* ms_bug */

static const struct ms_digest_ops *
sha_ops(const struct ms_merkle *m)
{
	return m->ops;
}

bool
ms_merkle_create(struct ms_merkle *m, const struct ms_digest_spec *sha256)
{
	memset(m, 0, sizeof(*m));
	m->ops = sha256->algo->ops;
	m->sha = sha_ops(m)->create(sha256);
	return m->sha != NULL;
}

void
ms_merkle_free(struct ms_merkle *m)
{
	if (m->sha != NULL)
		sha_ops(m)->destroy(m->sha);
	m->sha = NULL;
}

void
ms_merkle_init(struct ms_merkle *m, unsigned base)
{
	m->depth = 0;
	m->count = 0;
	m->base = base;
}

void
ms_merkle_hash(struct ms_merkle *m, const void *p, size_t n,
    unsigned char out[MS_MERKLE_HASH])
{
	sha_ops(m)->init(m->sha);
	sha_ops(m)->update(m->sha, p, n);
	sha_ops(m)->final(m->sha, out);
}

static void
pair(struct ms_merkle *m, const unsigned char *l, const unsigned char *r,
    unsigned char out[MS_MERKLE_HASH])
{
	unsigned char both[2 * MS_MERKLE_HASH];

	memcpy(both, l, MS_MERKLE_HASH);
	memcpy(both + MS_MERKLE_HASH, r, MS_MERKLE_HASH);
	ms_merkle_hash(m, both, sizeof(both), out);
}

void
ms_merkle_zero(struct ms_merkle *m, unsigned level,
    unsigned char out[MS_MERKLE_HASH])
{
	memset(out, 0, MS_MERKLE_HASH);
	for (unsigned i = 0; i < level; i++)
		pair(m, out, out, out);
}

/* Push h of level lv, joining equal levels from the right. */
static void
push(struct ms_merkle *m, const unsigned char *h, unsigned lv)
{
	unsigned char cur[MS_MERKLE_HASH];

	memcpy(cur, h, MS_MERKLE_HASH);
	while (m->depth > 0 && m->level[m->depth - 1] == lv) {
		pair(m, m->h[m->depth - 1], cur, cur);
		m->depth--;
		lv++;
	}
	if (m->depth == MS_MERKLE_LEVELS || lv >= 255)
		ms_bug("merkle: a tree too deep");
	memcpy(m->h[m->depth], cur, MS_MERKLE_HASH);
	m->level[m->depth++] = (unsigned char)lv;
}

void
ms_merkle_add(struct ms_merkle *m, const unsigned char *h)
{
	push(m, h, m->base);
	m->count++;
}

void
ms_merkle_root(struct ms_merkle *m, uint64_t width,
    unsigned char out[MS_MERKLE_HASH])
{
	unsigned top = m->base;
	unsigned char z[MS_MERKLE_HASH];

	while (((uint64_t)1 << (top - m->base)) < m->count ||
	    ((uint64_t)1 << (top - m->base)) < width)
		top++;
	if (m->depth == 0) {
		ms_merkle_zero(m, top, out);
		return;
	}
	while (!(m->depth == 1 && m->level[0] == top)) {
		unsigned lv = m->level[m->depth - 1];

		ms_merkle_zero(m, lv, z);
		push(m, z, lv);
	}
	memcpy(out, m->h[0], MS_MERKLE_HASH);
	ms_merkle_init(m, m->base);
}
