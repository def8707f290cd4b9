/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * tiger.c - Tiger's compression, padding and S-boxes.
 *
 * The four 256-entry S-boxes are not typed in: the first init generates
 * them by the procedure the Tiger paper publishes (identity columns
 * shuffled by swaps that the compression, run with the tables built so
 * far, draws from the string "Tiger - A Fast New Hash Function, by Ross
 * Anderson and Eli Biham", five passes).  The known answers (kat.c,
 * tests/algo-vectors.h) check the result.
 */
#include "kernels/tiger.h"

#include <pthread.h>
#include <string.h>

#include "base/bytes.h"
#include "kernels/block_feed.h"

static uint64_t sbox[4 * 256];

static const uint64_t iv[3] = {
	0x0123456789ABCDEFULL, 0xFEDCBA9876543210ULL, 0xF096A5B4C3B2E187ULL,
};

#define T1	(sbox)
#define T2	(sbox + 256)
#define T3	(sbox + 512)
#define T4	(sbox + 768)

#define BYTE(x, i)	((unsigned)((x) >> (8 * (i))) & 0xff)

#define ROUND(a, b, c, x, mul) do {					\
	c ^= (x);							\
	a -= T1[BYTE(c, 0)] ^ T2[BYTE(c, 2)] ^ T3[BYTE(c, 4)] ^		\
	    T4[BYTE(c, 6)];						\
	b += T4[BYTE(c, 1)] ^ T3[BYTE(c, 3)] ^ T2[BYTE(c, 5)] ^		\
	    T1[BYTE(c, 7)];						\
	b *= (mul);							\
} while (0)

#define PASS(a, b, c, mul) do {						\
	ROUND(a, b, c, x[0], mul);					\
	ROUND(b, c, a, x[1], mul);					\
	ROUND(c, a, b, x[2], mul);					\
	ROUND(a, b, c, x[3], mul);					\
	ROUND(b, c, a, x[4], mul);					\
	ROUND(c, a, b, x[5], mul);					\
	ROUND(a, b, c, x[6], mul);					\
	ROUND(b, c, a, x[7], mul);					\
} while (0)

static inline void
key_schedule(uint64_t x[8])
{
	x[0] -= x[7] ^ 0xA5A5A5A5A5A5A5A5ULL;
	x[1] ^= x[0];
	x[2] += x[1];
	x[3] -= x[2] ^ (~x[1] << 19);
	x[4] ^= x[3];
	x[5] += x[4];
	x[6] -= x[5] ^ (~x[4] >> 23);
	x[7] ^= x[6];
	x[0] += x[7];
	x[1] -= x[0] ^ (~x[7] << 19);
	x[2] ^= x[1];
	x[3] += x[2];
	x[4] -= x[3] ^ (~x[2] >> 23);
	x[5] ^= x[4];
	x[6] += x[5];
	x[7] -= x[6] ^ 0x0123456789ABCDEFULL;
}

static void
compress(uint64_t h[3], const unsigned char *p)
{
	uint64_t x[8];
	uint64_t a = h[0], b = h[1], c = h[2];

	for (int i = 0; i < 8; i++)
		x[i] = ms_load_le64(p + 8 * i);
	PASS(a, b, c, 5);
	key_schedule(x);
	PASS(c, a, b, 7);
	key_schedule(x);
	PASS(b, c, a, 9);
	h[0] ^= a;
	h[1] = b - h[1];
	h[2] += c;
}

/* The paper's generator: column col of entry i of box sb swapped with
 * column col of the entry that byte col of a state word names. */
static void
generate(void)
{
	static const char seed[] =
	    "Tiger - A Fast New Hash Function, by Ross Anderson and Eli Biham";
	uint64_t st[3];
	int abc = 2;

	memcpy(st, iv, sizeof(st));
	for (int i = 0; i < 4 * 256; i++)
		sbox[i] = 0x0101010101010101ULL * (uint64_t)(i & 0xff);
	for (int pass = 0; pass < 5; pass++)
		for (int i = 0; i < 256; i++)
			for (int sb = 0; sb < 4 * 256; sb += 256) {
				if (++abc == 3) {
					abc = 0;
					compress(st, (const unsigned char *)seed);
				}
				for (int col = 0; col < 8; col++) {
					uint64_t m = 0xffULL << (8 * col);
					uint64_t *u = &sbox[sb + i];
					uint64_t *v = &sbox[sb + BYTE(st[abc], col)];
					uint64_t d = (*u ^ *v) & m;

					*u ^= d;
					*v ^= d;
				}
			}
}

static pthread_once_t generated = PTHREAD_ONCE_INIT;

void
ms_tiger_init(struct ms_tiger *t)
{
	pthread_once(&generated, generate);
	memcpy(t->h, iv, sizeof(t->h));
	t->fill = 0;
	t->len = 0;
}

/* k whole blocks at q (ms_block_feed's callback) */
static void
tiger_blocks(void *ctx, const unsigned char *q, size_t k)
{
	struct ms_tiger *c = ctx;

	for (; k > 0; k--, q += MS_TIGER_BLOCK)
		compress(c->h, q);
}

void
ms_tiger_update(struct ms_tiger *t, const void *p, size_t n)
{
	t->len += n;
	ms_block_feed(t->buf, &t->fill, MS_TIGER_BLOCK, p, n, tiger_blocks, t);
}

void
ms_tiger_final(struct ms_tiger *t, unsigned char out[MS_TIGER_LEN])
{
	uint64_t bits = t->len << 3;

	t->buf[t->fill++] = 0x01;
	if (t->fill > MS_TIGER_BLOCK - 8) {
		memset(t->buf + t->fill, 0, MS_TIGER_BLOCK - t->fill);
		compress(t->h, t->buf);
		t->fill = 0;
	}
	memset(t->buf + t->fill, 0, MS_TIGER_BLOCK - 8 - t->fill);
	ms_store_le64(t->buf + MS_TIGER_BLOCK - 8, bits);
	compress(t->h, t->buf);
	for (int i = 0; i < 3; i++)
		ms_store_le64(out + 8 * i, t->h[i]);
}
