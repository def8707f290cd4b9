/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * whirlpool.c - Whirlpool, the 512-bit hash of Barreto and Rijmen
 * (ISO/IEC 10118-3:2004, NESSIE), written here from its specification.
 *
 * Owns the S-box, the portable code and the table of levels that
 * compress blocks (cpulevel.h chooses one per run): the portable one,
 * with eight 256-entry tables of 64-bit words, or on x86-64 the AVX-512
 * kernel (whirlpool_avx512.c).  MULTISUM_WHIRLPOOL_LEVEL forces a level
 * (portable, avx512) so that tests can run each one; a level the CPU
 * lacks is refused.  Also owns the Merkle-Damgard framing: buffering,
 * padding and the 256-bit length.
 *
 * The cipher W works on an 8 x 8 matrix of bytes, filled row by row from
 * a 64-byte block.  A round is: SubBytes (gamma, the S-box on every
 * byte), ShiftColumns (pi, column j moved down j rows), MixRows (theta,
 * each row times the circulant matrix cir(1, 1, 4, 1, 8, 5, 2, 9) over
 * GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1), then AddRoundKey (sigma).
 * Ten rounds; the key schedule runs the same rounds on the key with the
 * constants c^r, whose row 0 is S-box entries 8(r-1) .. 8(r-1)+7.  The
 * hash chains W in the Miyaguchi-Preneel mode from a zero value:
 * H' = W[H](m) ^ H ^ m.
 */
#include "kernels/whirlpool.h"

#include <pthread.h>
#include <string.h>

#include "base/bytes.h"
#include "kernels/block_feed.h"
#include "base/util.h"

#define ROUNDS	10

/* A level's code: compress cnt blocks of p into h. */
struct kernel {
	void	(*compress)(unsigned char h[MS_WHIRLPOOL_LEN],
		    const unsigned char *p, size_t cnt);
};

/* ------------------------------------------------------------ tables */

/*
 * The S-box as the paper builds it from three 4-bit boxes: the high
 * nibble goes through E, the low one through E^-1, their xor through R,
 * and R's output, xor'ed back into both, through E and E^-1 again.
 */
static const uint8_t mini_e[16] = {
	0x1, 0xb, 0x9, 0xc, 0xd, 0x6, 0xf, 0x3,
	0xe, 0x8, 0x7, 0x4, 0xa, 0x2, 0x5, 0x0,
};
static const uint8_t mini_r[16] = {
	0x7, 0xc, 0xb, 0xd, 0xe, 0x4, 0x9, 0xf,
	0x6, 0x3, 0x8, 0xa, 0x2, 0x5, 0x1, 0x0,
};

/* The first row of MixRows' circulant matrix. */
static const uint8_t mix_row[8] = { 1, 1, 4, 1, 8, 5, 2, 9 };

static struct {
	struct ms_whirlpool_simd simd;	/* the S-box, and GF(2^8) products */
	/*
	 * Row words hold a matrix row with column j in bits 8j..8j+7 (a
	 * little-endian load of the row's 8 bytes).  table[k][x] is what
	 * byte x in column k adds to its row after SubBytes and MixRows:
	 * S[x] * cir(...)[k][j] in column j, i.e. table[0][x] rotated k
	 * bytes left.
	 */
	uint64_t	 table[8][256];
	uint64_t	 rc[ROUNDS];	/* row 0 of each round constant */
} t;

/* Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1. */
static uint8_t
gf_mul(uint8_t a, uint8_t b)
{
	unsigned r = 0, x = a;

	for (; b != 0; b >>= 1) {
		if (b & 1)
			r ^= x;
		x = x & 0x80 ? (x << 1) ^ 0x11d : x << 1;
	}
	return (uint8_t)r;
}

static uint64_t
rotl64(uint64_t v, unsigned n)
{
	return n == 0 ? v : v << n | v >> (64 - n);
}

static void
build_tables(void)
{
	uint8_t e_inv[16];

	for (unsigned i = 0; i < 16; i++)
		e_inv[mini_e[i]] = (uint8_t)i;
	for (unsigned x = 0; x < 256; x++) {
		unsigned hi = mini_e[x >> 4], lo = e_inv[x & 15];
		unsigned r = mini_r[hi ^ lo];

		t.simd.sbox[x] = (uint8_t)(mini_e[hi ^ r] << 4 | e_inv[lo ^ r]);
	}
	for (unsigned x = 0; x < 256; x++) {
		uint64_t w = 0;

		for (unsigned j = 0; j < 8; j++)
			w |= (uint64_t)gf_mul(t.simd.sbox[x], mix_row[j]) << 8 * j;
		for (unsigned k = 0; k < 8; k++)
			t.table[k][x] = rotl64(w, 8 * k);
	}
	for (unsigned r = 0; r < ROUNDS; r++)
		t.rc[r] = ms_load_le64(t.simd.sbox + 8 * r);
	for (unsigned m = 0; m < 8; m++) {
		uint64_t q = 0;

		for (unsigned i = 0; i < 8; i++)
			for (unsigned j = 0; j < 8; j++)
				if (gf_mul((uint8_t)(1u << j), mix_row[m]) >> i & 1)
					q |= (uint64_t)1 << (8 * (7 - i) + j);
		t.simd.mul[m] = q;
	}
}

/* ---------------------------------------------------------- portable */

#define BYTE(w, k)	((size_t)((w) >> 8 * (k) & 0xff))

/*
 * Row i of a round's output before its key: ShiftColumns brings column k
 * of row i from row i - k, SubBytes and MixRows are the table lookups.
 */
#define MIX(a, i) (							\
	t.table[0][BYTE(a[(i) & 7], 0)] ^				\
	t.table[1][BYTE(a[((i) + 7) & 7], 1)] ^				\
	t.table[2][BYTE(a[((i) + 6) & 7], 2)] ^				\
	t.table[3][BYTE(a[((i) + 5) & 7], 3)] ^				\
	t.table[4][BYTE(a[((i) + 4) & 7], 4)] ^				\
	t.table[5][BYTE(a[((i) + 3) & 7], 5)] ^				\
	t.table[6][BYTE(a[((i) + 2) & 7], 6)] ^				\
	t.table[7][BYTE(a[((i) + 1) & 7], 7)])

#define EIGHT(X)	X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define KEY_ROW(i)	nk[i] = MIX(k, i);
#define STATE_ROW(i)	ns[i] = MIX(s, i) ^ nk[i];

static void
compress_portable(unsigned char h[MS_WHIRLPOOL_LEN], const unsigned char *p,
    size_t cnt)
{
	uint64_t hv[8];

	for (unsigned i = 0; i < 8; i++)
		hv[i] = ms_load_le64(h + 8 * i);
	for (; cnt > 0; cnt--, p += MS_WHIRLPOOL_BLOCK) {
		uint64_t m[8], k[8], s[8], nk[8], ns[8];

		for (unsigned i = 0; i < 8; i++) {
			m[i] = ms_load_le64(p + 8 * i);
			k[i] = hv[i];
			s[i] = m[i] ^ k[i];
		}
		for (unsigned r = 0; r < ROUNDS; r++) {
			/*
			 * The key's chain and the state's are independent
			 * until the key is added: straight-line code for both
			 * lets the core overlap them (the key's rows first
			 * measured 4% faster than the rows interleaved).
			 */
			EIGHT(KEY_ROW)
			nk[0] ^= t.rc[r];
			EIGHT(STATE_ROW)
			memcpy(k, nk, sizeof(k));
			memcpy(s, ns, sizeof(s));
		}
		for (unsigned i = 0; i < 8; i++)
			hv[i] ^= s[i] ^ m[i];
	}
	for (unsigned i = 0; i < 8; i++)
		ms_store_le64(h + 8 * i, hv[i]);
}

static const struct kernel portable = { compress_portable };

#if MS_AVX512
static void
compress_avx512(unsigned char h[MS_WHIRLPOOL_LEN], const unsigned char *p,
    size_t cnt)
{
	ms_whirlpool_avx512(h, p, cnt, &t.simd);
}

static const struct kernel avx512 = { compress_avx512 };
#endif

static const struct ms_level levels[] = {
	{ .name = "portable", .needs = 0, .kernel = &portable },
#if MS_AVX512
	{ .name = "avx512", .needs = MS_CPU(AVX512F) | MS_CPU(AVX512BW) |
	    MS_CPU(AVX512VBMI) | MS_CPU(GFNI), .kernel = &avx512 },
#endif
};

struct ms_level_family ms_whirlpool_levels = MS_LEVEL_FAMILY(
    "MULTISUM_WHIRLPOOL_LEVEL", "MULTISUM_WHIRLPOOL_IMPL", levels,
    "portable", "avx512");

static pthread_once_t built = PTHREAD_ONCE_INIT;

/* ------------------------------------------------------------ framing */

/* Building here means a state can never run on unbuilt tables. */
void
ms_whirlpool_init(struct ms_whirlpool *w)
{
	pthread_once(&built, build_tables);
	memset(w->h, 0, sizeof(w->h));
	w->fill = 0;
	w->len = 0;
}

/* k whole blocks at q (ms_block_feed's callback) */
static void
whirlpool_blocks(void *ctx, const unsigned char *q, size_t k)
{
	struct ms_whirlpool *c = ctx;
	const struct kernel *kernel = ms_level_kernel(&ms_whirlpool_levels);

	kernel->compress(c->h, q, k);
}

void
ms_whirlpool_update(struct ms_whirlpool *w, const void *data, size_t n)
{
	w->len += n;
	ms_block_feed(w->buf, &w->fill, MS_WHIRLPOOL_BLOCK, data, n,
	    whirlpool_blocks, w);
}

/*
 * A one bit, zeros up to 32 bytes short of a block boundary, and the
 * message length in bits as a 256-bit big-endian number (a byte count
 * in 64 bits makes at most 67 of them).
 */
void
ms_whirlpool_final(struct ms_whirlpool *w, unsigned char out[MS_WHIRLPOOL_LEN])
{
	const struct kernel *k = ms_level_kernel(&ms_whirlpool_levels);
	uint64_t hi = w->len >> 61, lo = w->len << 3;

	w->buf[w->fill++] = 0x80;
	if (w->fill > MS_WHIRLPOOL_BLOCK - 32) {
		memset(w->buf + w->fill, 0, MS_WHIRLPOOL_BLOCK - w->fill);
		k->compress(w->h, w->buf, 1);
		w->fill = 0;
	}
	memset(w->buf + w->fill, 0, MS_WHIRLPOOL_BLOCK - w->fill);
	for (unsigned i = 0; i < 8; i++) {
		w->buf[48 + i] = (unsigned char)(hi >> 8 * (7 - i));
		w->buf[56 + i] = (unsigned char)(lo >> 8 * (7 - i));
	}
	k->compress(w->h, w->buf, 1);
	memcpy(out, w->h, MS_WHIRLPOOL_LEN);
}
