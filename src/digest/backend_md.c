/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend_md.c - the MD5, SHA-1, SHA-224 and SHA-256 rows: small files
 * many at a time in the built-in lanes (md_lanes.c), and one stream
 * built in where md_lanes.c's ms_md_stream has one (MD5 in C; SHA-1,
 * SHA-224 and SHA-256 on SHA-NI), which never loads libcrypto, else
 * through libcrypto.
 *
 * Why built in: OpenSSL's own SHA-NI code is no faster (1 GiB, 1.24 GB/s
 * beside 1.26 here; SHA-1, 300 MB, 1.00x), nor its MD5 assembly (300 MB:
 * libcrypto took 1.06x the C code's time on a Zen 3), but loading
 * libcrypto is slow: its relocations and its provider's start are 2.9 of
 * the 3.2 million instructions of `multisum -a sha256 empty`
 * (callgrind), twice sha256sum's whole run, and the md5sum and sha1sum
 * faces took 3.3x coreutils' time.  A family's level "libcrypto"
 * (MULTISUM_MD5_LEVEL=libcrypto, ...) gives it back to libcrypto.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest/backend.h"
#include "digest/state_create.h"
#include "kernels/md_lanes.h"
#include "base/bytes.h"
#include "base/util.h"

static const struct ms_digest_ops *const lib = &ms_ops_openssl;

static const struct row {
	const char	*name;
	struct ms_level_family *levels;
	const struct ms_md_shape *shape;
} rows[] = {
	{ .name = "md5", .levels = &ms_md5_levels, .shape = &ms_md5_shape },
	{ .name = "sha1", .levels = &ms_sha1_levels, .shape = &ms_sha1_shape },
	{ .name = "sha224", .levels = &ms_sha256_levels,
	  .shape = &ms_sha224_shape },
	{ .name = "sha256", .levels = &ms_sha256_levels,
	  .shape = &ms_sha256_shape },
};

static const struct row *
row_of(const struct ms_algo *a)
{
	for (size_t i = 0; i < MS_ARRAY_LEN(rows); i++)
		if (strcmp(a->name, rows[i].name) == 0)
			return &rows[i];
	ms_bug("backend_md: a row it does not serve");
}

/* The built-in stream of MD5 (C), SHA-1, SHA-224 or SHA-256 (SHA-NI), or
 * NULL. */
static ms_md_stream_fn *
built_in(const struct row *r)
{
	const char *name;

	return ms_md_stream(r->levels, &name);
}

struct state {
	const struct row *row;
	void		*lib;		/* libcrypto's state, or NULL */
	ms_md_stream_fn	*compress;	/* else the built-in stream */
	uint32_t	 h[8];
	uint64_t	 len;		/* bytes so far */
	uint8_t		 buf[64];
	size_t		 n;		/* bytes in buf */
};

/* After ops.levels settled the level: libcrypto unless built in. */
static int
md_load(const struct ms_algo *a)
{
	return built_in(row_of(a)) != NULL ? 0 : lib->load(a);
}

/* The built-in compression function, or else the library's state. */
static bool
md_make(void *state, const struct ms_digest_spec *spec)
{
	struct state *s = state;

	s->row = row_of(spec->algo);
	s->compress = built_in(s->row);
	return s->compress != NULL || (s->lib = lib->create(spec)) != NULL;
}

static void
md_init(void *state)
{
	struct state *s = state;

	if (s->lib != NULL) {
		lib->init(s->lib);
		return;
	}
	memcpy(s->h, s->row->shape->iv, sizeof(s->h));
	s->len = 0;
	s->n = 0;
}

static void
md_update(void *state, const void *data, size_t n)
{
	struct state *s = state;
	const uint8_t *p = data;

	if (s->lib != NULL) {
		lib->update(s->lib, p, n);
		return;
	}
	s->len += n;
	if (s->n > 0) {
		size_t take = 64 - s->n < n ? 64 - s->n : n;

		memcpy(s->buf + s->n, p, take);
		s->n += take;
		p += take;
		n -= take;
		if (s->n < 64)
			return;
		s->compress(s->h, s->buf, 1);
		s->n = 0;
	}
	if (n >= 64) {
		s->compress(s->h, p, n / 64);
		p += n / 64 * 64;
		n %= 64;
	}
	memcpy(s->buf, p, n);
	s->n = n;
}

static void
md_final(void *state, unsigned char *out)
{
	struct state *s = state;
	uint64_t bits = s->len * 8;

	if (s->lib != NULL) {
		lib->final(s->lib, out);
		return;
	}
	s->buf[s->n++] = 0x80;
	if (s->n > 56) {
		memset(s->buf + s->n, 0, 64 - s->n);
		s->compress(s->h, s->buf, 1);
		s->n = 0;
	}
	memset(s->buf + s->n, 0, 56 - s->n);
	/* the length and the words: big-endian for SHA, little for MD5 */
	if (s->row->shape->big_endian)
		ms_store_be64(s->buf + 56, bits);
	else
		ms_store_le64(s->buf + 56, bits);
	s->compress(s->h, s->buf, 1);
	for (unsigned w = 0; w < s->row->shape->out_words; w++)
		if (s->row->shape->big_endian)
			ms_store_be32(out + 4 * w, s->h[w]);
		else
			ms_store_le32(out + 4 * w, s->h[w]);
}

static void
md_destroy(void *state)
{
	struct state *s = state;

	if (s != NULL)
		lib->destroy(s->lib);
	free(s);
}

static void
md_many(const struct ms_digest_spec *spec, size_t cnt,
    const unsigned char *const msg[], const size_t len[],
    unsigned char *const out[], bool done[])
{
	const struct row *r = row_of(spec->algo);
	const struct ms_md_kernel *k = ms_level_kernel(r->levels);

	if (k->fn == NULL) {
		for (size_t i = 0; i < cnt; i++)
			done[i] = false;
		return;
	}
	ms_md_lanes(r->shape, k->fn, k->lanes, cnt, msg, len, out, done);
}

static const char *
md_lib_version(void)
{
	return lib->version();
}

/* One stream: a built-in SHA-NI one, or libcrypto's. */
static const struct ms_digest_ops *
stream(const struct ms_digest_spec *spec)
{
	return built_in(row_of(spec->algo)) != NULL ? &ms_ops_sha2 : lib;
}

/* What runs beside the stream's backend: the built-in stream ("shani",
 * "portable"), then the lanes that take small files many at a time:
 * "shani, 16 avx512 lanes", "portable, 8 avx2 lanes", "no lanes". */
static const char *
md_variant(const struct ms_digest_spec *spec)
{
	static _Thread_local char buf[80];
	const struct row *r = row_of(spec->algo);
	const struct ms_md_kernel *k = ms_level_kernel(r->levels);
	const char *name = "";
	const char *comma = ms_md_stream(r->levels, &name) != NULL ? ", " : "";

	if (k->fn == NULL)
		snprintf(buf, sizeof(buf), "%s%sno lanes", name, comma);
	else if (r->levels->why[0] != '\0')	/* refused at load */
		snprintf(buf, sizeof(buf), "%s", ms_level_name(r->levels));
	else
		snprintf(buf, sizeof(buf), "%s%s%u %s lanes", name, comma,
		    (unsigned)k->lanes, ms_level_name(r->levels));
	return buf;
}

#define MD_OPS(bk, ver, fam) {						\
	.backend = bk, .load = md_load, .create = ms_state_create,	\
	.state_size = sizeof(struct state), .make = md_make,		\
	.init = md_init,						\
	.update = md_update, .final = md_final, .destroy = md_destroy,	\
	.version = ver, .variant = md_variant, .many = md_many,		\
	.levels = &(fam), .stream = stream,				\
}

const struct ms_digest_ops ms_ops_md5 = MD_OPS("OpenSSL", md_lib_version,
    ms_md5_levels);
const struct ms_digest_ops ms_ops_sha1 = MD_OPS("OpenSSL", md_lib_version,
    ms_sha1_levels);
const struct ms_digest_ops ms_ops_sha2 = MD_OPS("built-in", NULL,
    ms_sha256_levels);
