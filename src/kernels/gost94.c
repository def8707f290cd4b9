/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * gost94.c - the built-in GOST R 34.11-94 (RFC 5831): the step function
 * of section 6 (key generation, GOST 28147-89 encryption, the psi
 * shuffle) and the message framing of section 7.
 *
 * The cipher's eight 4-bit S-boxes are merged on first use into four
 * byte tables that also apply the 11-bit rotation.
 */
#include "kernels/gost94.h"

#include <pthread.h>
#include <string.h>

#include "base/bytes.h"
#include "kernels/block_feed.h"

/* K1 (the low nibble) .. K8: RFC 5831's test parameters (section 7.1 of
 * GOST R 34.11-94's appendix) and RFC 4357's id-GostR3411-94-
 * CryptoProParamSet. */
static const uint8_t sbox_test[8][16] = {
	{ 4, 10, 9, 2, 13, 8, 0, 14, 6, 11, 1, 12, 7, 15, 5, 3 },
	{ 14, 11, 4, 12, 6, 13, 15, 10, 2, 3, 8, 1, 0, 7, 5, 9 },
	{ 5, 8, 1, 13, 10, 3, 4, 2, 14, 15, 12, 7, 6, 0, 9, 11 },
	{ 7, 13, 10, 1, 0, 8, 9, 15, 14, 4, 6, 12, 11, 2, 5, 3 },
	{ 6, 12, 7, 1, 5, 15, 13, 8, 4, 10, 9, 14, 0, 3, 11, 2 },
	{ 4, 11, 10, 0, 7, 2, 1, 13, 3, 6, 8, 5, 9, 12, 15, 14 },
	{ 13, 11, 4, 1, 3, 15, 5, 9, 0, 10, 14, 7, 6, 8, 2, 12 },
	{ 1, 15, 13, 0, 5, 7, 10, 4, 9, 2, 3, 14, 6, 11, 8, 12 },
};
static const uint8_t sbox_cryptopro[8][16] = {
	{ 10, 4, 5, 6, 8, 1, 3, 7, 13, 12, 14, 0, 9, 2, 11, 15 },
	{ 5, 15, 4, 0, 2, 13, 11, 9, 1, 7, 6, 3, 12, 14, 10, 8 },
	{ 7, 15, 12, 14, 9, 4, 1, 0, 3, 11, 5, 2, 6, 10, 8, 13 },
	{ 4, 10, 7, 12, 0, 15, 2, 8, 14, 1, 6, 5, 13, 11, 9, 3 },
	{ 7, 6, 4, 11, 9, 12, 2, 10, 1, 8, 0, 14, 15, 13, 3, 5 },
	{ 7, 6, 2, 4, 13, 9, 15, 0, 10, 1, 5, 11, 8, 14, 12, 3 },
	{ 13, 14, 4, 1, 7, 0, 5, 10, 3, 12, 8, 15, 6, 2, 9, 11 },
	{ 1, 3, 10, 9, 5, 11, 4, 15, 8, 6, 7, 14, 13, 0, 2, 12 },
};

/* tab[set][b][v]: byte b of the word being v, through its two S-boxes,
 * in place and rotated left by 11. */
static uint32_t tab[2][4][256];
static pthread_once_t built = PTHREAD_ONCE_INIT;

static uint32_t
rol32(uint32_t x, int n)
{
	return x << n | x >> (32 - n);
}

static void
build_tables(void)
{
	const uint8_t (*sets[2])[16] = { sbox_test, sbox_cryptopro };

	for (int s = 0; s < 2; s++)
		for (int b = 0; b < 4; b++)
			for (int v = 0; v < 256; v++) {
				uint32_t x = (uint32_t)sets[s][2 * b][v & 15] |
				    (uint32_t)sets[s][2 * b + 1][v >> 4] << 4;

				tab[s][b][v] = rol32(x << (8 * b), 11);
			}
}

static inline uint32_t
f(const uint32_t (*t)[256], uint32_t x)
{
	return t[0][x & 0xff] ^ t[1][x >> 8 & 0xff] ^
	    t[2][x >> 16 & 0xff] ^ t[3][x >> 24];
}

/* GOST 28147-89 in simple substitution mode: the block in[0] (N1, low)
 * and in[1] (N2); key words k[0..7] thrice in order, then reversed. */
static void
encrypt(const uint32_t (*t)[256], const uint32_t k[8], uint32_t out[2],
    const uint32_t in[2])
{
	uint32_t n1 = in[0], n2 = in[1];

	for (int r = 0; r < 32; r++) {
		uint32_t key = r < 24 ? k[r & 7] : k[7 - (r & 7)];
		uint32_t x = n2 ^ f(t, n1 + key);

		n2 = n1;
		n1 = x;
	}
	out[0] = n2;
	out[1] = n1;
}

/* A(y4||y3||y2||y1) = (y1 ^ y2)||y4||y3||y2, 64-bit y, in 32-bit words. */
static void
transform_a(uint32_t y[8])
{
	uint32_t l = y[0] ^ y[2], h = y[1] ^ y[3];

	memmove(y, y + 2, 6 * sizeof(*y));
	y[6] = l;
	y[7] = h;
}

/* P: byte i + 1 + 4(k - 1) of the result is byte 8i + k of w. */
static void
transform_p(uint32_t key[8], const uint32_t w[8])
{
	unsigned char in[32], out[32];

	for (int i = 0; i < 8; i++)
		ms_store_le32(in + 4 * i, w[i]);
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 8; k++)
			out[i + 4 * k] = in[8 * i + k];
	for (int i = 0; i < 8; i++)
		key[i] = ms_load_le32(out + 4 * i);
}

/* psi: y1 ^ y2 ^ y3 ^ y4 ^ y13 ^ y16 enters on top, 16-bit y, y1 low. */
static void
psi(uint16_t y[16], int times)
{
	while (times-- > 0) {
		uint16_t top = y[0] ^ y[1] ^ y[2] ^ y[3] ^ y[12] ^ y[15];

		memmove(y, y + 1, 15 * sizeof(*y));
		y[15] = top;
	}
}

static void
words_to16(uint16_t y[16], const uint32_t w[8])
{
	for (int i = 0; i < 8; i++) {
		y[2 * i] = (uint16_t)w[i];
		y[2 * i + 1] = (uint16_t)(w[i] >> 16);
	}
}

/* h = f(h, m), RFC 5831 section 6. */
static void
step(const uint32_t (*t)[256], uint32_t h[8], const uint32_t m[8])
{
	/* C3, the only non-zero constant, as words. */
	static const uint32_t c3[8] = {
		0xff00ff00, 0xff00ff00, 0x00ff00ff, 0x00ff00ff,
		0x00ffff00, 0xff0000ff, 0x000000ff, 0xff00ffff,
	};
	uint32_t u[8], v[8], w[8], key[8], s[8];
	uint16_t ys[16], yh[16];

	memcpy(u, h, sizeof(u));
	memcpy(v, m, sizeof(v));
	for (int j = 0; j < 4; j++) {
		if (j > 0) {
			transform_a(u);
			if (j == 2)
				for (int i = 0; i < 8; i++)
					u[i] ^= c3[i];
			transform_a(v);
			transform_a(v);
		}
		for (int i = 0; i < 8; i++)
			w[i] = u[i] ^ v[i];
		transform_p(key, w);
		encrypt(t, key, s + 2 * j, h + 2 * j);
	}
	/* h = psi^61(h ^ psi(m ^ psi^12(s))) */
	words_to16(ys, s);
	psi(ys, 12);
	words_to16(yh, m);
	for (int i = 0; i < 16; i++)
		ys[i] ^= yh[i];
	psi(ys, 1);
	words_to16(yh, h);
	for (int i = 0; i < 16; i++)
		ys[i] ^= yh[i];
	psi(ys, 61);
	for (int i = 0; i < 8; i++)
		h[i] = ys[2 * i] | (uint32_t)ys[2 * i + 1] << 16;
}

/* Sigma += m, m a block; then h = f(h, m). */
static void
block(struct ms_gost94 *g, const unsigned char *p)
{
	uint32_t m[8];
	uint64_t carry = 0;

	for (int i = 0; i < 8; i++) {
		m[i] = ms_load_le32(p + 4 * i);
		carry += (uint64_t)g->sigma[i] + m[i];
		g->sigma[i] = (uint32_t)carry;
		carry >>= 32;
	}
	step(g->sbox, g->h, m);
}

void
ms_gost94_init(struct ms_gost94 *g, size_t cryptopro)
{
	pthread_once(&built, build_tables);
	memset(g, 0, sizeof(*g));
	g->sbox = tab[cryptopro ? 1 : 0];
}

/* k whole blocks at q (ms_block_feed's callback) */
static void
gost94_blocks(void *ctx, const unsigned char *q, size_t k)
{
	struct ms_gost94 *c = ctx;

	for (; k > 0; k--, q += MS_GOST94_BLOCK)
		block(c, q);
}

void
ms_gost94_update(struct ms_gost94 *g, const void *v, size_t n)
{
	g->len += n;
	ms_block_feed(g->buf, &g->fill, MS_GOST94_BLOCK, v, n, gost94_blocks, g);
}

void
ms_gost94_final(struct ms_gost94 *g, unsigned char out[MS_GOST94_LEN])
{
	uint32_t len[8] = { 0 };

	/* A partial last block is padded with zeros; none is added after
	 * whole blocks or for the empty message. */
	if (g->fill > 0) {
		memset(g->buf + g->fill, 0, MS_GOST94_BLOCK - g->fill);
		block(g, g->buf);
	}
	len[0] = (uint32_t)(g->len << 3);
	len[1] = (uint32_t)(g->len >> 29);
	step(g->sbox, g->h, len);
	step(g->sbox, g->h, g->sigma);
	for (int i = 0; i < 8; i++)
		ms_store_le32(out + 4 * i, g->h[i]);
	memset(g, 0, sizeof(*g));
}
