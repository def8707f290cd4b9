/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * has160.c - HAS-160's and MD4's compressions, and the padding they
 * share (MD5's: 0x80, zeros, the bit length little-endian).
 */
#include "kernels/has160.h"

#include <string.h>

#include "base/bytes.h"
#include "kernels/block_feed.h"

#define ROTL(x, n)	((uint32_t)((x) << (n) | (x) >> (32 - (n))))

/*
 * HAS-160: four rounds of twenty steps over the sixteen message words
 * and four more, each the XOR of four of them, that differ by round.
 */
static const unsigned char has_order[4][20] = {
	{ 18, 0, 1, 2, 3, 19, 4, 5, 6, 7, 16, 8, 9, 10, 11, 17, 12, 13, 14, 15 },
	{ 18, 3, 6, 9, 12, 19, 15, 2, 5, 8, 16, 11, 14, 1, 4, 17, 7, 10, 13, 0 },
	{ 18, 12, 5, 14, 7, 19, 0, 9, 2, 11, 16, 4, 13, 6, 15, 17, 8, 1, 10, 3 },
	{ 18, 7, 2, 13, 8, 19, 3, 14, 9, 4, 16, 15, 10, 5, 0, 17, 11, 6, 1, 12 },
};
/* How far step j of every round turns A. */
static const unsigned char has_rot[20] = {
	5, 11, 7, 15, 6, 13, 8, 14, 7, 12, 9, 11, 8, 15, 6, 12, 9, 14, 5, 13,
};
static const unsigned char has_rot_b[4] = { 10, 17, 25, 30 };
static const uint32_t has_k[4] = {
	0x00000000, 0x5A827999, 0x6ED9EBA1, 0x8F1BBCDC,
};

/*
 * One step: e takes the new A, b turns into the new C; the five names
 * then move one place (the next step is STEP(e, a, b, c, d)), and are
 * back where they began after five.
 */
#define HAS_STEP(f, a, b, c, d, e, x, s, s2, k) do {			\
	(e) += ROTL(a, s) + f(b, c, d) + (x) + (k);			\
	(b) = ROTL(b, s2);						\
} while (0)
#define HAS_F1(x, y, z)	((z) ^ ((x) & ((y) ^ (z))))
#define HAS_F2(x, y, z)	((x) ^ (y) ^ (z))
#define HAS_F3(x, y, z)	((y) ^ ((x) | ~(z)))
#define HAS_X(r, j)	x[has_order[r][j]]
#define HAS_FIVE(f, r, j) do {						\
	HAS_STEP(f, a, b, c, d, e, HAS_X(r, j), has_rot[j],		\
	    has_rot_b[r], has_k[r]);					\
	HAS_STEP(f, e, a, b, c, d, HAS_X(r, j + 1), has_rot[j + 1],	\
	    has_rot_b[r], has_k[r]);					\
	HAS_STEP(f, d, e, a, b, c, HAS_X(r, j + 2), has_rot[j + 2],	\
	    has_rot_b[r], has_k[r]);					\
	HAS_STEP(f, c, d, e, a, b, HAS_X(r, j + 3), has_rot[j + 3],	\
	    has_rot_b[r], has_k[r]);					\
	HAS_STEP(f, b, c, d, e, a, HAS_X(r, j + 4), has_rot[j + 4],	\
	    has_rot_b[r], has_k[r]);					\
} while (0)
/* x[16 + k]: the XOR of the four words steps 5k + 1 .. 5k + 4 read */
#define HAS_ROUND(f, r) do {						\
	for (int k = 0; k < 4; k++)					\
		x[16 + k] = HAS_X(r, 5 * k + 1) ^ HAS_X(r, 5 * k + 2) ^	\
		    HAS_X(r, 5 * k + 3) ^ HAS_X(r, 5 * k + 4);		\
	HAS_FIVE(f, r, 0);						\
	HAS_FIVE(f, r, 5);						\
	HAS_FIVE(f, r, 10);						\
	HAS_FIVE(f, r, 15);						\
} while (0)

static void
has160_compress(uint32_t h[5], const unsigned char *p)
{
	uint32_t x[20];
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];

	for (int i = 0; i < 16; i++)
		x[i] = ms_load_le32(p + 4 * i);
	HAS_ROUND(HAS_F1, 0);
	HAS_ROUND(HAS_F2, 1);
	HAS_ROUND(HAS_F3, 2);
	HAS_ROUND(HAS_F2, 3);
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

/* MD4, RFC 1320: three rounds of sixteen steps. */
#define MD4_F(x, y, z)	((z) ^ ((x) & ((y) ^ (z))))
#define MD4_G(x, y, z)	(((x) & (y)) | ((z) & ((x) | (y))))
#define MD4_H(x, y, z)	((x) ^ (y) ^ (z))
#define MD4_STEP(f, a, b, c, d, x, s)					\
	(a) = ROTL((uint32_t)((a) + f((b), (c), (d)) + (x)), (s))

static void
md4_compress(uint32_t h[5], const unsigned char *p)
{
	static const unsigned char r3[4] = { 0, 2, 1, 3 };
	uint32_t x[16];
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3];

	for (int i = 0; i < 16; i++)
		x[i] = ms_load_le32(p + 4 * i);
	for (int i = 0; i < 16; i += 4) {
		MD4_STEP(MD4_F, a, b, c, d, x[i], 3);
		MD4_STEP(MD4_F, d, a, b, c, x[i + 1], 7);
		MD4_STEP(MD4_F, c, d, a, b, x[i + 2], 11);
		MD4_STEP(MD4_F, b, c, d, a, x[i + 3], 19);
	}
	for (int i = 0; i < 4; i++) {
		MD4_STEP(MD4_G, a, b, c, d, x[i] + 0x5A827999, 3);
		MD4_STEP(MD4_G, d, a, b, c, x[i + 4] + 0x5A827999, 5);
		MD4_STEP(MD4_G, c, d, a, b, x[i + 8] + 0x5A827999, 9);
		MD4_STEP(MD4_G, b, c, d, a, x[i + 12] + 0x5A827999, 13);
	}
	for (int k = 0; k < 4; k++) {
		int i = r3[k];

		MD4_STEP(MD4_H, a, b, c, d, x[i] + 0x6ED9EBA1, 3);
		MD4_STEP(MD4_H, d, a, b, c, x[i + 8] + 0x6ED9EBA1, 9);
		MD4_STEP(MD4_H, c, d, a, b, x[i + 4] + 0x6ED9EBA1, 11);
		MD4_STEP(MD4_H, b, c, d, a, x[i + 12] + 0x6ED9EBA1, 15);
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
}

static const uint32_t iv[5] = {
	0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0,
};

static void
start(struct ms_le_md *m, void (*compress)(uint32_t *, const unsigned char *),
    size_t words)
{
	memcpy(m->h, iv, sizeof(m->h));
	m->fill = 0;
	m->len = 0;
	m->compress = compress;
	m->words = words;
}

void
ms_has160_init(struct ms_le_md *m)
{
	start(m, has160_compress, 5);
}

void
ms_md4_init(struct ms_le_md *m)
{
	start(m, md4_compress, 4);
}

/* k whole blocks at q (ms_block_feed's callback) */
static void
le_md_blocks(void *ctx, const unsigned char *q, size_t k)
{
	struct ms_le_md *c = ctx;

	for (; k > 0; k--, q += MS_LE_BLOCK)
		c->compress(c->h, q);
}

void
ms_le_md_update(struct ms_le_md *m, const void *p, size_t n)
{
	m->len += n;
	ms_block_feed(m->buf, &m->fill, MS_LE_BLOCK, p, n, le_md_blocks, m);
}

void
ms_le_md_final(struct ms_le_md *m, unsigned char *out)
{
	m->buf[m->fill++] = 0x80;
	if (m->fill > MS_LE_BLOCK - 8) {
		memset(m->buf + m->fill, 0, MS_LE_BLOCK - m->fill);
		m->compress(m->h, m->buf);
		m->fill = 0;
	}
	memset(m->buf + m->fill, 0, MS_LE_BLOCK - 8 - m->fill);
	ms_store_le64(m->buf + MS_LE_BLOCK - 8, m->len << 3);
	m->compress(m->h, m->buf);
	for (size_t i = 0; i < m->words; i++)
		ms_store_le32(out + 4 * i, m->h[i]);
}
