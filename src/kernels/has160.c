/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * has160.c - HAS-160's and MD4's compressions, and the padding they
 * share (MD5's: 0x80, zeros, the bit length little-endian).
 */
#include "kernels/has160.h"

#include <string.h>

#include "base/bytes.h"

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

static void
has160_compress(uint32_t h[5], const unsigned char *p)
{
	uint32_t x[20];
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];

	for (int i = 0; i < 16; i++)
		x[i] = ms_load_le32(p + 4 * i);
	for (int r = 0; r < 4; r++) {
		const unsigned char *o = has_order[r];

		/* x[16 + k]: the four words steps 5k + 1 .. 5k + 4 read */
		for (int k = 0; k < 4; k++)
			x[16 + k] = x[o[5 * k + 1]] ^ x[o[5 * k + 2]] ^
			    x[o[5 * k + 3]] ^ x[o[5 * k + 4]];
		for (int j = 0; j < 20; j++) {
			uint32_t f, t;

			switch (r) {
			case 0:	f = (b & c) | (~b & d); break;
			case 2:	f = c ^ (b | ~d); break;
			default: f = b ^ c ^ d; break;
			}
			t = ROTL(a, has_rot[j]) + f + e + x[o[j]] + has_k[r];
			e = d;
			d = c;
			c = ROTL(b, has_rot_b[r]);
			b = a;
			a = t;
		}
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

/* MD4, RFC 1320: three rounds of sixteen steps. */
#define MD4_F(x, y, z)	((z) ^ ((x) & ((y) ^ (z))))
#define MD4_G(x, y, z)	(((x) & (y)) | ((x) & (z)) | ((y) & (z)))
#define MD4_H(x, y, z)	((x) ^ (y) ^ (z))
#define MD4_STEP(f, a, b, c, d, x, s)					\
	(a) = ROTL((uint32_t)((a) + f((b), (c), (d)) + (x)), (s))

static void
md4_compress(uint32_t h[5], const unsigned char *p)
{
	static const unsigned char r2[16] = {
		0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
	};
	static const unsigned char r3[16] = {
		0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15,
	};
	static const unsigned char s1[4] = { 3, 7, 11, 19 };
	static const unsigned char s2[4] = { 3, 5, 9, 13 };
	static const unsigned char s3[4] = { 3, 9, 11, 15 };
	uint32_t x[16], v[4];

	for (int i = 0; i < 16; i++)
		x[i] = ms_load_le32(p + 4 * i);
	memcpy(v, h, sizeof(v));
	/* step i updates v[-i mod 4] from the next three */
	for (int i = 0; i < 16; i++) {
		uint32_t *a = &v[(4 - i % 4) % 4];

		MD4_STEP(MD4_F, *a, v[(5 - i % 4) % 4], v[(6 - i % 4) % 4],
		    v[(7 - i % 4) % 4], x[i], s1[i % 4]);
	}
	for (int i = 0; i < 16; i++) {
		uint32_t *a = &v[(4 - i % 4) % 4];

		MD4_STEP(MD4_G, *a, v[(5 - i % 4) % 4], v[(6 - i % 4) % 4],
		    v[(7 - i % 4) % 4], x[r2[i]] + 0x5A827999, s2[i % 4]);
	}
	for (int i = 0; i < 16; i++) {
		uint32_t *a = &v[(4 - i % 4) % 4];

		MD4_STEP(MD4_H, *a, v[(5 - i % 4) % 4], v[(6 - i % 4) % 4],
		    v[(7 - i % 4) % 4], x[r3[i]] + 0x6ED9EBA1, s3[i % 4]);
	}
	for (int i = 0; i < 4; i++)
		h[i] += v[i];
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

void
ms_le_md_update(struct ms_le_md *m, const void *p, size_t n)
{
	const unsigned char *s = p;

	m->len += n;
	if (m->fill > 0) {
		size_t k = MS_LE_BLOCK - m->fill;

		if (k > n)
			k = n;
		memcpy(m->buf + m->fill, s, k);
		m->fill += k;
		s += k;
		n -= k;
		if (m->fill < MS_LE_BLOCK)
			return;
		m->compress(m->h, m->buf);
		m->fill = 0;
	}
	for (; n >= MS_LE_BLOCK; s += MS_LE_BLOCK, n -= MS_LE_BLOCK)
		m->compress(m->h, s);
	memcpy(m->buf, s, n);
	m->fill = n;
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
