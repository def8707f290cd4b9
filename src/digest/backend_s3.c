/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend_s3.c - object-store checksums as digests: Amazon S3's multipart
 * ETag (s3etag) and its composite checksums (s3-crc32, s3-crc32c,
 * s3-sha1, s3-sha256), Dropbox's content_hash (dropbox), and the
 * spellings in which S3 and Google Cloud Storage print digests, for
 * --expect.
 *
 * Owns the part arithmetic and nothing else: a state wraps two states of
 * the inner row (named by the row's impl field), one for the current
 * part (pieces.c cuts the parts) and one over the parts' raw digests,
 * and counts parts.  S3's
 * parts are of the spec's part size (--part-size).  An object smaller
 * than one part is what a single PUT stores: the inner digest itself.
 * One of at least a part is what the AWS CLI uploads in parts (its
 * multipart_threshold and multipart_chunksize both SIZE): the inner
 * digest of the part digests, then "-N".  The raw digest is the inner one
 * followed by N, 4 bytes big-endian (0 for a single PUT); text() writes
 * the form S3 prints: hex for the ETag, base64 for the composite
 * checksums.  Dropbox's blocks are 4 MiB, and its digest is always the
 * SHA-256 of the blocks' SHA-256s (of none for an empty file), without
 * a count (Dropbox's "Content Hash" reference page).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest/backend.h"
#include "digest/state_create.h"
#include "digest/blocks.h"
#include "digest/backend_s3.h"
#include "digest/pieces.h"
#include "base/util.h"

#define DEFAULT_PART	(8u << 20)	/* the AWS CLI's 8 MiB */
#define DROPBOX_BLOCK	(4u << 20)

/* What tells the object stores' digests apart. */
struct kind {
	bool		 single_put;	/* under a part: the inner digest */
	bool		 counted;	/* the part count follows the digest */
	uint64_t	 block;		/* fixed part size, 0: the spec's */
};

static const struct kind s3 = { .single_put = true, .counted = true };
static const struct kind dropbox = { .block = DROPBOX_BLOCK };

struct state {
	struct ms_blocks b;		/* first: the blocks' digests */
	const struct kind *kind;
	const struct ms_digest_ops *ops;	/* the inner row's */
	uint64_t	 part_size;	/* bytes per part */
	struct ms_pieces pc;		/* the object cut into parts */
	void		*parts;		/* over the parts' digests */
	size_t		 len;		/* the inner digest's bytes */
};

static void
s3_destroy(void *state)
{
	struct state *s = state;

	if (s == NULL)
		return;
	ms_pieces_free(&s->pc);
	s->ops->destroy(s->parts);
	ms_blocks_free(&s->b);
	free(s);
}

/* The spec's part size, or the AWS CLI's. */
static uint64_t
part_size(const struct ms_digest_spec *spec)
{
	return spec->param.part_size != 0 ? spec->param.part_size : DEFAULT_PART;
}

uint64_t
ms_s3_parts(const struct ms_digest_spec *spec, uint64_t size)
{
	uint64_t p = part_size(spec);

	return size < p ? 0 : size / p + (size % p != 0);
}

static void s3_end_open(void *state);

/* A part is whole (or the object's last): its digest joins the others. */
static void
part_done(void *row, const unsigned char *d)
{
	struct state *s = row;

	ms_blocks_done(&s->b, d);
}

/* The row's kind, the inner row's states over a part and over the
 * parts' digests, and the block feed between them. */
static bool
s3_make(void *state, const struct ms_digest_spec *spec)
{
	struct state *s = state;
	struct ms_digest_spec in = { .algo = ms_algo_inner(spec->algo) };

	in.bits = in.algo->bits;
	s->kind = spec->algo->ops == &ms_ops_dropbox ? &dropbox : &s3;
	s->part_size = s->kind->block != 0 ? s->kind->block : part_size(spec);
	s->ops = in.algo->ops;
	s->len = ms_spec_len(&in);
	s->parts = s->ops->create(&in);
	s->b.end = s3_end_open;
	s->b.block = s->part_size;
	s->b.dlen = s->len;
	s->b.feed = s->ops->update;
	s->b.outer = s->parts;
	return ms_pieces_create(&s->pc, in.algo, part_done, s, &in) &&
	    s->parts != NULL;
}

static void
s3_init(void *state)
{
	struct state *s = state;

	ms_pieces_init(&s->pc, s->part_size);
	s->ops->init(s->parts);
	ms_blocks_init(&s->b);
}

/* --part: the block begun, if any, ended where the part ends. */
static void
s3_end_open(void *state)
{
	struct state *s = state;

	ms_pieces_end(&s->pc);
}

static void
s3_update(void *state, const void *data, size_t n)
{
	struct state *s = state;

	ms_pieces_update(&s->pc, data, n);
}

static void
s3_final(void *state, unsigned char *out)
{
	struct state *s = state;

	uint32_t count;
	bool whole = s->b.joining ? s->b.joined < s->part_size :
	    s->b.count == 0;

	if (whole && s->kind->single_put) {
		/* smaller than a part: a single PUT; joined, its digest */
		if (s->b.joining && s->b.count == 1)
			memcpy(out, s->b.last, s->len);
		else
			s->ops->final(s->pc.h, out);
		count = 0;
	} else {
		ms_pieces_end(&s->pc);
		s->ops->final(s->parts, out);
		count = (uint32_t)s->b.count;
	}
	if (s->kind->counted)
		for (int i = 0; i < 4; i++)
			out[s->len + i] = (unsigned char)(count >> 8 * (3 - i));
}

/* ------------------------------------------------------ --part, saved */

/* A part of --part is whole parts (blocks) of the object. */
static uint64_t
s3_align_s3(const struct ms_digest_spec *spec)
{
	return part_size(spec);
}

static uint64_t
s3_align_dropbox(const struct ms_digest_spec *spec)
{
	(void)spec;
	return DROPBOX_BLOCK;
}

/* ------------------------------------------------------------ --expect */

/* Does text[0..n) start with prefix, in any case? */
static bool
has_prefix(const char *text, size_t n, const char *prefix)
{
	size_t pl = strlen(prefix);

	if (n < pl)
		return false;
	for (size_t i = 0; i < pl; i++)
		if ((text[i] | 0x20) != prefix[i])
			return false;
	return true;
}

/* n hex digits or n base64 characters into out; the byte count or -1. */
static long
decode(unsigned char *out, size_t cap, const char *s, size_t n, bool hex)
{
	if (hex)
		return n % 2 == 0 && n / 2 <= cap &&
		    ms_unhex(out, s, n / 2) == 0 ? (long)(n / 2) : -1;
	return ms_unbase64(out, cap, s, n);
}

int
ms_s3_expect(const char *text, unsigned char *out, size_t cap,
    size_t *len, const char **algo)
{
	return ms_s3_decode(text, strlen(text), out, cap, len, algo);
}

int
ms_s3_decode(const char *text, size_t n, unsigned char *out, size_t cap,
    size_t *len, const char **algo)
{
	size_t dash;
	unsigned long count = 0;
	long got;
	bool quoted = false;

	*algo = NULL;
	if (n >= 2 && text[0] == '"' && text[n - 1] == '"') {
		text++;
		n -= 2;
		quoted = true;
	}
	if (has_prefix(text, n, "crc32c=") || has_prefix(text, n, "md5=")) {
		bool crc = (text[0] | 0x20) == 'c';
		size_t skip = crc ? 7 : 4;

		got = ms_unbase64(out, cap, text + skip, n - skip);
		if (got != (crc ? 4 : 16))
			return -1;
		*len = (size_t)got;
		*algo = crc ? "crc32c" : "md5";
		return 1;
	}
	for (dash = n; dash > 0 && text[dash - 1] >= '0' && text[dash - 1] <= '9'; dash--)
		;
	if (dash < 2 || dash == n || text[dash - 1] != '-' ||
	    n - dash > 5 || text[dash] == '0') {
		if (!quoted)
			return 0;
		/* a single PUT's ETag: the MD5 */
		if ((got = decode(out, cap, text, n, true)) != 16)
			return -1;
		*len = 16;
		*algo = "md5";
		return 1;
	}
	for (size_t i = dash; i < n; i++)
		count = count * 10 + (unsigned long)(text[i] - '0');
	dash--;			/* the '-' */
	got = decode(out, cap - 4, text, dash, true);
	if (got == 16)
		*algo = "s3etag";
	else if ((got = decode(out, cap - 4, text, dash, false)) == 20)
		*algo = "s3-sha1";
	else if (got == 32)
		*algo = "s3-sha256";
	else if (got != 4)
		return -1;
	for (int i = 0; i < 4; i++)
		out[got + i] = (unsigned char)(count >> 8 * (3 - i));
	*len = (size_t)got + 4;
	return 1;
}

/* --------------------------------------------------------------- text */

/*
 * "HEX" or "HEX-N" (BASE64 likewise): len is the whole raw digest, whose
 * last 4 bytes are the part count, big-endian; 0 parts writes no "-N".
 */
static void
text_with_count(char *buf, const unsigned char *d, size_t len,
    void (*digits)(char *, const unsigned char *, size_t))
{
	uint32_t n = (uint32_t)d[len - 4] << 24 | (uint32_t)d[len - 3] << 16 |
	    (uint32_t)d[len - 2] << 8 | d[len - 1];

	digits(buf, d, len - 4);
	if (n > 0)
		sprintf(buf + strlen(buf), "-%u", (unsigned)n);
}

static void
text_hex(char *buf, const unsigned char *d, size_t len)
{
	text_with_count(buf, d, len, ms_hex);
}

static void
text_base64(char *buf, const unsigned char *d, size_t len)
{
	text_with_count(buf, d, len, ms_base64);
}

/* Main's thread only (--debug, --list-algorithms): one buffer. */
static const char *
s3_variant(const struct ms_digest_spec *spec)
{
	static char buf[48];

	snprintf(buf, sizeof(buf), "part-size=%ju",
	    (uintmax_t)part_size(spec));
	return buf;
}

/* The three rows' tables: s3_make tells them apart by address; they
 * differ in what --debug names (the part size) and how they print. */
#define S3_OPS(VARIANT, TEXT) {						\
	.backend = "built-in", .load = ms_algo_inner_load,		\
	.create = ms_state_create, .state_size = sizeof(struct state),	\
	.make = s3_make, .init = s3_init, .update = s3_update,		\
	.final = s3_final, .destroy = s3_destroy,			\
	.variant = VARIANT, .text = TEXT,				\
}

const struct ms_digest_ops ms_ops_s3etag = S3_OPS(s3_variant, text_hex);
const struct ms_digest_ops ms_ops_s3composite = S3_OPS(s3_variant,
    text_base64);

const struct ms_compose_ops ms_compose_s3 = {
	.align = s3_align_s3, .begin = ms_blocks_begin,
	.save = ms_blocks_save, .join = ms_blocks_join,
};

const struct ms_compose_ops ms_compose_dropbox = {
	.align = s3_align_dropbox, .begin = ms_blocks_begin,
	.save = ms_blocks_save, .join = ms_blocks_join,
};

/* Its blocks are always 4 MiB; printed as plain hex, as Dropbox's API
 * and rclone do. */
const struct ms_digest_ops ms_ops_dropbox = S3_OPS(NULL, NULL);
