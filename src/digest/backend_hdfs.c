/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend_hdfs.c - HDFS's file checksums: hdfs-md5md5crc32c, what
 * `hadoop fs -checksum` prints by default (MD5MD5CRC32FileChecksum), and
 * the text of both HDFS rows (hdfs-composite-crc32c is the crc32c row's
 * arithmetic, backend_crc.c, printed HDFS's way).
 *
 * Owns the arithmetic of Hadoop's sources, written here from them:
 *   - a file is cut into blocks of block_size bytes (dfs.blocksize), each
 *     block into chunks of bytes_per_crc bytes (dfs.bytes-per-checksum),
 *     the last of each possibly shorter;
 *   - a block's digest is the MD5 of its chunks' CRC-32Cs, 4 bytes
 *     big-endian each, as the datanode's block metadata holds them
 *     (BlockChecksumHelper);
 *   - the file's MD5 is that of the blocks' MD5s as the client collects
 *     them, in a java.io buffer that starts at 32 bytes and doubles: all
 *     of the buffer, so the MD5s are followed by zeros up to 32, 64, 128,
 *     ... bytes (FileChecksumHelper, DataOutputBuffer.getData());
 *   - the raw digest is what FileChecksum.getBytes() gives: bytes per CRC
 *     (4 bytes big-endian), CRCs per block (8 bytes; 0 for a file of one
 *     block, for the client takes it from the first block of several),
 *     then the MD5; an empty file (no block) is (0, 0, MD5 of 32 zero
 *     bytes), named "MD5-of-0MD5-of-0CRC32".
 * Reads the CRC kernel (crc.h) and the md5 row's backend; prints nothing.
 */
#include "digest/backend_hdfs.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest/backend.h"
#include "digest/state_create.h"
#include "digest/blocks.h"
#include "kernels/crc.h"
#include "base/bytes.h"
#include "base/util.h"

#define RAW_LEN		28	/* 4 + 8 + 16 */
#define CRCS_HELD	256	/* chunk CRCs fed to the block's MD5 at once */

/* MD5 of 32 zero bytes: HDFS's checksum of an empty file, either mode. */
#define EMPTY_MD5	"70bc8f4b72a86921468bf8e8441dce51"
#define EMPTY_NAME	"MD5-of-0MD5-of-0CRC32"

struct state {
	struct ms_blocks b;		/* first: the blocks' digests */
	const struct ms_crc *crc;
	const struct ms_digest_ops *md5;	/* the md5 row's */
	void		*block;		/* MD5 over this block's chunk CRCs */
	void		*file;		/* MD5 over the blocks' MD5s */
	uint32_t	 bpc;		/* bytes per CRC */
	uint64_t	 block_size;
	uint64_t	 in_block;	/* bytes of the current block */
	uint32_t	 in_chunk;	/* bytes of its current chunk */
	uint64_t	 reg;		/* that chunk's CRC register */
	size_t		 held;		/* CRCs waiting in crcs */
	unsigned char	 crcs[4 * CRCS_HELD];
	unsigned char	 md5_out[16];
};

/* The MD5 row and the CRC named by the row's impl (its load settles
 * the CRC's level). */
static int
hdfs_load(const struct ms_algo *a)
{
	return ms_algo_load(ms_algo_row("md5")) == -1 ? -1 :
	    ms_algo_inner_load(a);
}

uint32_t
ms_hdfs_bpc(const struct ms_digest_spec *spec)
{
	return spec->param.bytes_per_crc != 0 ? spec->param.bytes_per_crc :
	    MS_HDFS_BYTES_PER_CRC;
}

uint64_t
ms_hdfs_block(const struct ms_digest_spec *spec)
{
	return spec->param.block_size != 0 ? spec->param.block_size :
	    MS_HDFS_BLOCK_SIZE;
}

static void
hdfs_destroy(void *state)
{
	struct state *s = state;

	if (s == NULL)
		return;
	s->md5->destroy(s->block);
	s->md5->destroy(s->file);
	ms_blocks_free(&s->b);
	free(s);
}

static void hdfs_end_open(void *state);

/* The block's and the file's MD5, and the block feed between them. */
static bool
hdfs_make(void *state, const struct ms_digest_spec *spec)
{
	struct state *s = state;
	struct ms_digest_spec m = { .algo = ms_algo_row("md5"), .bits = 128 };

	s->crc = ms_crc_named(spec->algo->impl);
	s->md5 = m.algo->ops;
	s->bpc = ms_hdfs_bpc(spec);
	s->block_size = ms_hdfs_block(spec);
	s->block = s->md5->create(&m);
	s->file = s->md5->create(&m);
	s->b.end = hdfs_end_open;
	s->b.block = s->block_size;
	s->b.dlen = sizeof(s->md5_out);
	s->b.feed = s->md5->update;
	s->b.outer = s->file;
	return s->block != NULL && s->file != NULL;
}

static void
hdfs_init(void *state)
{
	struct state *s = state;

	s->md5->init(s->block);
	s->md5->init(s->file);
	s->in_block = 0;
	s->in_chunk = 0;
	s->reg = UINT32_MAX;
	s->held = 0;
	ms_blocks_init(&s->b);
}

static void
flush_crcs(struct state *s)
{
	s->md5->update(s->block, s->crcs, 4 * s->held);
	s->held = 0;
}

static void
end_chunk(struct state *s)
{
	ms_store_be32(s->crcs + 4 * s->held, (uint32_t)~s->reg);
	if (++s->held == CRCS_HELD)
		flush_crcs(s);
	s->reg = UINT32_MAX;
	s->in_chunk = 0;
}

/* The current block is whole (or the input's last): its MD5. */
static void
end_block(struct state *s)
{
	if (s->in_chunk > 0)
		end_chunk(s);
	flush_crcs(s);
	s->md5->final(s->block, s->md5_out);
	s->md5->init(s->block);
	ms_blocks_done(&s->b, s->md5_out);
	s->in_block = 0;
}

/* --part: the block begun, if any, ended where the part ends. */
static void
hdfs_end_open(void *state)
{
	struct state *s = state;

	if (s->in_block > 0)
		end_block(s);
}

static void
hdfs_update(void *state, const void *data, size_t n)
{
	struct state *s = state;
	const unsigned char *p = data;

	while (n > 0) {
		uint64_t room = s->block_size - s->in_block;
		size_t k = s->bpc - s->in_chunk;

		if (k > n)
			k = n;
		if (k > room)
			k = (size_t)room;
		s->reg = ms_crc_update(s->crc, s->reg, p, k);
		s->in_chunk += (uint32_t)k;
		s->in_block += k;
		p += k;
		n -= k;
		if (s->in_chunk == s->bpc)
			end_chunk(s);
		if (s->in_block == s->block_size)
			end_block(s);
	}
}

static void
hdfs_final(void *state, unsigned char *out)
{
	static const unsigned char zeros[4096];
	struct state *s = state;
	uint64_t used, cap = 32;

	if (s->in_block > 0)
		end_block(s);
	/* the rest of the client's buffer: it starts at 32 bytes, doubles */
	used = 16 * s->b.count;
	while (cap < used)
		cap *= 2;
	for (uint64_t pad = cap - used; pad > 0;) {
		size_t k = pad < sizeof(zeros) ? (size_t)pad : sizeof(zeros);

		s->md5->update(s->file, zeros, k);
		pad -= k;
	}
	ms_store_be32(out, s->b.count > 0 ? s->bpc : 0);
	ms_store_be64(out + 4, s->b.count > 1 ? s->block_size / s->bpc : 0);
	s->md5->final(s->file, out + 12);
}

/* --debug and --list-algorithms: main's thread only, one buffer. */
static const char *
hdfs_variant(const struct ms_digest_spec *spec)
{
	static char buf[64];
	uint64_t b = ms_hdfs_block(spec);

	if (b == MS_BLOCK_WHOLE)
		snprintf(buf, sizeof(buf), "bytes-per-crc=%u one block",
		    ms_hdfs_bpc(spec));
	else
		snprintf(buf, sizeof(buf), "bytes-per-crc=%u block-size=%ju",
		    ms_hdfs_bpc(spec), (uintmax_t)b);
	return buf;
}

/* ------------------------------------------------------ --part, saved */

/* A part of --part is whole blocks of the file. */
static uint64_t
hdfs_align_block(const struct ms_digest_spec *spec)
{
	return ms_hdfs_block(spec);
}

const struct ms_compose_ops ms_compose_hdfs = {
	.align = hdfs_align_block, .begin = ms_blocks_begin,
	.save = ms_blocks_save, .join = ms_blocks_join,
};

const struct ms_digest_ops ms_ops_hdfs_md5md5 = {
	.backend = "built-in", .load = hdfs_load, .create = ms_state_create,
	.state_size = sizeof(struct state), .make = hdfs_make,
	.init = hdfs_init,
	.update = hdfs_update, .final = hdfs_final, .destroy = hdfs_destroy,
	.variant = hdfs_variant,
};

/* -------------------------------------------------------------- text */

static bool
is_md5md5(const struct ms_digest_spec *s)
{
	return s->algo->ops == &ms_ops_hdfs_md5md5;
}

/* "CRC32C" for the row whose impl is "crc32c". */
static void
crc_name(const struct ms_digest_spec *s, char *buf, size_t cap)
{
	size_t i;

	for (i = 0; s->algo->impl[i] != '\0' && i + 1 < cap; i++) {
		char c = s->algo->impl[i];

		buf[i] = c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
	}
	buf[i] = '\0';
}

void
ms_hdfs_value(const struct ms_digest_spec *s, const unsigned char *d,
    uint64_t size, char buf[MS_HDFS_VALUE_MAX])
{
	char crc[16], hex[2 * RAW_LEN + 1];
	uint64_t cpb = 0;
	uint32_t bpc;

	crc_name(s, crc, sizeof(crc));
	if (!is_md5md5(s)) {
		if (size == 0) {
			snprintf(buf, MS_HDFS_VALUE_MAX, "%s\t%024d%s",
			    EMPTY_NAME, 0, EMPTY_MD5);
			return;
		}
		ms_hex(hex, d, 4);
		snprintf(buf, MS_HDFS_VALUE_MAX, "COMPOSITE-%s\t%s", crc, hex);
		return;
	}
	bpc = (uint32_t)d[0] << 24 | (uint32_t)d[1] << 16 |
	    (uint32_t)d[2] << 8 | d[3];
	for (int i = 0; i < 8; i++)
		cpb = cpb << 8 | d[4 + i];
	ms_hex(hex, d, RAW_LEN);
	if (bpc == 0)
		snprintf(buf, MS_HDFS_VALUE_MAX, "%s\t%s", EMPTY_NAME, hex);
	else
		snprintf(buf, MS_HDFS_VALUE_MAX, "MD5-of-%juMD5-of-%u%s\t%s",
		    (uintmax_t)cpb, (unsigned)bpc, crc, hex);
}

/* A decimal number of at most 19 digits at *p, which moves past it. */
static bool
number(const char **p, const char *end, uint64_t *v)
{
	const char *q = *p;

	*v = 0;
	while (q < end && *q >= '0' && *q <= '9' && q - *p < 19)
		*v = *v * 10 + (uint64_t)(*q++ - '0');
	if (q == *p || (q < end && *q >= '0' && *q <= '9'))
		return false;
	*p = q;
	return true;
}

static bool
word(const char **p, const char *end, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(end - *p) < n || memcmp(*p, w, n) != 0)
		return false;
	*p += n;
	return true;
}

/* The HDFS row computing CRC crc ("crc32c") by md5md5 or composite. */
static const struct ms_algo *
row_for(const char *crc, bool md5md5)
{
	for (size_t i = 0; i < ms_algo_count; i++) {
		const struct ms_algo *a = &ms_algos[i];

		if (a->legacy == MS_LEGACY_HADOOP && strcmp(a->impl, crc) == 0 &&
		    (a->ops == &ms_ops_hdfs_md5md5) == md5md5)
			return a;
	}
	return NULL;
}

int
ms_hdfs_decode(const char *alg, size_t n, const char *hex, size_t hn,
    struct ms_digest_spec *spec, unsigned char *out, size_t *len,
    const char **why)
{
	const char *p = alg, *end = alg + n;
	uint64_t cpb = 0, bpc = 0;
	bool md5md5;
	char crc[8];
	size_t cl;

	*why = NULL;
	if (word(&p, end, "COMPOSITE-")) {
		md5md5 = false;
	} else if (word(&p, end, "MD5-of-") && number(&p, end, &cpb) &&
	    word(&p, end, "MD5-of-") && number(&p, end, &bpc)) {
		md5md5 = true;
	} else {
		return 0;
	}
	cl = (size_t)(end - p);
	if ((cl != 5 && cl != 6) || (memcmp(p, "CRC32", 5) != 0) ||
	    (cl == 6 && p[5] != 'C'))
		return 0;
	memcpy(crc, cl == 6 ? "crc32c" : "crc32", cl + 1);
	/* The empty file's fixed answer names CRC32 in either mode. */
	if (md5md5 && bpc == 0 && cpb == 0)
		memcpy(crc, "crc32c", 7);
	*spec = (struct ms_digest_spec){ .algo = row_for(crc, md5md5) };
	if (spec->algo == NULL) {
		*why = md5md5 ? "HDFS's MD5-of-MD5-of-CRC32 (dfs.checksum.type "
		    "CRC32) is not supported" : "HDFS's COMPOSITE-CRC32 is not "
		    "supported";
		return -1;
	}
	spec->bits = spec->algo->bits;
	*len = ms_spec_len(spec);
	if (hn != 2 * *len || ms_unhex(out, hex, *len) == -1)
		return -1;
	if (!md5md5)
		return 1;
	if (bpc > UINT32_MAX || (bpc > 0 && cpb > UINT64_MAX / bpc))
		return -1;
	/* Bytes per CRC from the digest; the block size from CRCs per
	 * block, or for a file of one block any size that makes it one. */
	spec->param.bytes_per_crc = (uint32_t)bpc;
	spec->param.block_size = cpb != 0 ? cpb * bpc : MS_BLOCK_WHOLE;
	return 1;
}
