/*
 * crc.c - the built-in checksums: CRC-32 (zlib, SFV), CRC-32C
 * (Castagnoli, iSCSI), the POSIX cksum CRC, and the BSD and System V
 * sums of sum(1) and `cksum -a bsd|sysv`.
 *
 * Owns their tables and arithmetic.  The CRCs run slicing-by-8 over
 * tables built once, in load(), before any thread starts.  The raw digest
 * is big-endian: 4 bytes for the CRCs, 2 for the sums.
 */
#include <stdint.h>
#include <stdlib.h>

#include "backend.h"
#include "util.h"

/* Slicing-by-8 tables: t[0] is the classic byte table. */
struct crc_tables {
	uint32_t	t[8][256];
};

static struct crc_tables tab_crc32, tab_crc32c, tab_cksum;
static int built[3];

struct state {
	uint32_t	 crc;		/* running CRC or sum */
	uint64_t	 len;		/* bytes seen: cksum appends it */
};

/* Tables for a CRC that shifts right (LSB first), as zlib and iSCSI do. */
static void
build_reflected(struct crc_tables *T, uint32_t poly)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ poly : c >> 1;
		T->t[0][i] = c;
	}
	for (int s = 1; s < 8; s++)
		for (int i = 0; i < 256; i++)
			T->t[s][i] = (T->t[s - 1][i] >> 8) ^
			    T->t[0][T->t[s - 1][i] & 0xff];
}

/* Tables for a CRC that shifts left (MSB first), as POSIX cksum does. */
static void
build_forward(struct crc_tables *T, uint32_t poly)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i << 24;
		for (int k = 0; k < 8; k++)
			c = c & 0x80000000u ? (c << 1) ^ poly : c << 1;
		T->t[0][i] = c;
	}
	for (int s = 1; s < 8; s++)
		for (int i = 0; i < 256; i++)
			T->t[s][i] = (T->t[s - 1][i] << 8) ^
			    T->t[0][T->t[s - 1][i] >> 24];
}

static uint32_t
load_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t
load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static uint32_t
update_reflected(const struct crc_tables *T, uint32_t c,
    const unsigned char *p, size_t n)
{
	const uint32_t (*t)[256] = T->t;

	for (; n >= 8; p += 8, n -= 8) {
		uint32_t a = c ^ load_le32(p), b = load_le32(p + 4);
		c = t[7][a & 0xff] ^ t[6][a >> 8 & 0xff] ^
		    t[5][a >> 16 & 0xff] ^ t[4][a >> 24] ^
		    t[3][b & 0xff] ^ t[2][b >> 8 & 0xff] ^
		    t[1][b >> 16 & 0xff] ^ t[0][b >> 24];
	}
	while (n--)
		c = (c >> 8) ^ t[0][(c ^ *p++) & 0xff];
	return c;
}

static uint32_t
update_forward(const struct crc_tables *T, uint32_t c,
    const unsigned char *p, size_t n)
{
	const uint32_t (*t)[256] = T->t;

	for (; n >= 8; p += 8, n -= 8) {
		uint32_t a = c ^ load_be32(p), b = load_be32(p + 4);
		c = t[7][a >> 24] ^ t[6][a >> 16 & 0xff] ^
		    t[5][a >> 8 & 0xff] ^ t[4][a & 0xff] ^
		    t[3][b >> 24] ^ t[2][b >> 16 & 0xff] ^
		    t[1][b >> 8 & 0xff] ^ t[0][b & 0xff];
	}
	while (n--)
		c = (c << 8) ^ t[0][(c >> 24) ^ *p++];
	return c;
}

static int
load_crc32(const struct ms_algo *a)
{
	(void)a;
	if (!built[0]++)
		build_reflected(&tab_crc32, 0xedb88320u);
	return 0;
}

static int
load_crc32c(const struct ms_algo *a)
{
	(void)a;
	if (!built[1]++)
		build_reflected(&tab_crc32c, 0x82f63b78u);
	return 0;
}

static int
load_cksum(const struct ms_algo *a)
{
	(void)a;
	if (!built[2]++)
		build_forward(&tab_cksum, 0x04c11db7u);
	return 0;
}

static int
load_nothing(const struct ms_algo *a)
{
	(void)a;
	return 0;
}

static void *
create(const struct ms_algo *a, size_t len)
{
	(void)a, (void)len;
	return malloc(sizeof(struct state));
}

static void
destroy(void *state)
{
	free(state);
}

static void
init_ones(void *state)
{
	struct state *s = state;

	s->crc = 0xffffffffu;
	s->len = 0;
}

static void
init_zero(void *state)
{
	struct state *s = state;

	s->crc = 0;
	s->len = 0;
}

static void
put_be32(unsigned char *out, uint32_t c)
{
	out[0] = (unsigned char)(c >> 24);
	out[1] = (unsigned char)(c >> 16);
	out[2] = (unsigned char)(c >> 8);
	out[3] = (unsigned char)c;
}

static void
put_be16(unsigned char *out, uint32_t c)
{
	out[0] = (unsigned char)(c >> 8);
	out[1] = (unsigned char)c;
}

static void
final_inverted(void *state, unsigned char *out)
{
	struct state *s = state;

	put_be32(out, ~s->crc);
}

/* CRC-32 (zlib) */
static void
crc32_update(void *state, const void *p, size_t n)
{
	struct state *s = state;

	s->crc = update_reflected(&tab_crc32, s->crc, p, n);
}

/* CRC-32C (Castagnoli) */
static void
crc32c_update(void *state, const void *p, size_t n)
{
	struct state *s = state;

	s->crc = update_reflected(&tab_crc32c, s->crc, p, n);
}

/* POSIX cksum */
static void
cksum_update(void *state, const void *p, size_t n)
{
	struct state *s = state;

	s->crc = update_forward(&tab_cksum, s->crc, p, n);
	s->len += n;
}

static void
cksum_final(void *state, unsigned char *out)
{
	struct state *s = state;
	uint32_t c = s->crc;

	/* POSIX appends the length, least significant byte first, using
	 * only as many bytes as it needs. */
	for (uint64_t n = s->len; n != 0; n >>= 8) {
		unsigned char b = (unsigned char)(n & 0xff);
		c = update_forward(&tab_cksum, c, &b, 1);
	}
	put_be32(out, ~c);
}

/* BSD sum: 16-bit rotate right, then add (sum(1)'s -r algorithm) */
static void
bsd_update(void *state, const void *data, size_t n)
{
	struct state *s = state;
	const unsigned char *p = data;
	uint32_t c = s->crc;

	for (size_t i = 0; i < n; i++)
		c = (((c >> 1) | ((c & 1) << 15)) + p[i]) & 0xffff;
	s->crc = c;
}

static void
bsd_final(void *state, unsigned char *out)
{
	struct state *s = state;

	put_be16(out, s->crc);
}

/* System V sum: the byte sum, folded to 16 bits at the end */
static void
sysv_update(void *state, const void *data, size_t n)
{
	struct state *s = state;
	const unsigned char *p = data;
	uint32_t c = s->crc;

	for (size_t i = 0; i < n; i++)
		c += p[i];
	s->crc = c;
}

static void
sysv_final(void *state, unsigned char *out)
{
	struct state *s = state;
	uint32_t r = (s->crc & 0xffff) + (s->crc >> 16);

	put_be16(out, (r & 0xffff) + (r >> 16));
}

#define CRC_OPS(LOAD, INIT, UPDATE, FINAL) {				\
	.backend = "built-in", .load = LOAD, .create = create,		\
	.init = INIT, .update = UPDATE, .final = FINAL,			\
	.destroy = destroy,						\
}

const struct ms_digest_ops ms_ops_crc32 =
    CRC_OPS(load_crc32, init_ones, crc32_update, final_inverted);
const struct ms_digest_ops ms_ops_crc32c =
    CRC_OPS(load_crc32c, init_ones, crc32c_update, final_inverted);
const struct ms_digest_ops ms_ops_cksum =
    CRC_OPS(load_cksum, init_zero, cksum_update, cksum_final);
const struct ms_digest_ops ms_ops_bsd =
    CRC_OPS(load_nothing, init_zero, bsd_update, bsd_final);
const struct ms_digest_ops ms_ops_sysv =
    CRC_OPS(load_nothing, init_zero, sysv_update, sysv_final);
