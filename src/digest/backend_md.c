/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend_md.c - the MD5, SHA-1, SHA-224 and SHA-256 rows: small files
 * many at a time in the built-in lanes (md_lanes.c), and one stream
 * through libcrypto, except SHA-224 and SHA-256 on a CPU with SHA-NI,
 * which run the built-in SHA-NI kernel and never load libcrypto.
 *
 * Why built in: OpenSSL's own SHA-NI code is no faster (1 GiB, 1.24 GB/s
 * beside 1.26 here), but loading libcrypto is: its relocations and its
 * provider's start are 2.9 of the 3.2 million instructions of
 * `multisum -a sha256 empty` (callgrind), twice sha256sum's whole run.
 * MULTISUM_SHA256_LEVEL=libcrypto gives both to libcrypto again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest/backend.h"
#include "kernels/md_lanes.h"
#include "base/util.h"

static const struct ms_digest_ops *const lib = &ms_ops_openssl;

static const struct row {
	const char	*name;
	enum ms_md_family family;
	const struct ms_md_shape *shape;
} rows[] = {
	{ .name = "md5", .family = MS_MD_MD5, .shape = &ms_md5_shape },
	{ .name = "sha1", .family = MS_MD_SHA1, .shape = &ms_sha1_shape },
	{ .name = "sha224", .family = MS_MD_SHA256, .shape = &ms_sha224_shape },
	{ .name = "sha256", .family = MS_MD_SHA256, .shape = &ms_sha256_shape },
};

static const struct row *
row_of(const struct ms_algo *a)
{
	for (size_t i = 0; i < MS_ARRAY_LEN(rows); i++)
		if (strcmp(a->name, rows[i].name) == 0)
			return &rows[i];
	ms_bug("backend_md: a row it does not serve");
}

/* One stream of SHA-224 or SHA-256 through the SHA-NI kernel. */
static bool
built_in(const struct row *r)
{
	return r->family == MS_MD_SHA256 && ms_md_sha256_shani();
}

struct state {
	const struct row *row;
	void		*lib;		/* libcrypto's state, or NULL */
	uint32_t	 h[8];
	uint64_t	 len;		/* bytes so far */
	uint8_t		 buf[64];
	size_t		 n;		/* bytes in buf */
};

static int
load(const struct ms_algo *a)
{
	const struct row *r = row_of(a);
	const char *why;

	if (ms_md_level_setup(r->family, &why) == -1) {
		ms_warn("%s", why);
		return -1;
	}
	return built_in(r) ? 0 : lib->load(a);
}

static void *
create(const struct ms_algo *a, size_t len)
{
	struct state *s = calloc(1, sizeof(*s));

	if (s == NULL)
		return NULL;
	s->row = row_of(a);
	if (!built_in(s->row) && (s->lib = lib->create(a, len)) == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

static void
init(void *state)
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
update(void *state, const void *data, size_t n)
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
		ms_sha256_shani(s->h, s->buf, 1);
		s->n = 0;
	}
	if (n >= 64) {
		ms_sha256_shani(s->h, p, n / 64);
		p += n / 64 * 64;
		n %= 64;
	}
	memcpy(s->buf, p, n);
	s->n = n;
}

static void
final(void *state, unsigned char *out)
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
		ms_sha256_shani(s->h, s->buf, 1);
		s->n = 0;
	}
	memset(s->buf + s->n, 0, 56 - s->n);
	for (int i = 0; i < 8; i++)
		s->buf[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
	ms_sha256_shani(s->h, s->buf, 1);
	for (unsigned w = 0; w < s->row->shape->out_words; w++)
		for (int i = 0; i < 4; i++)
			out[4 * w + (unsigned)i] = (uint8_t)(s->h[w] >> (24 - 8 * i));
}

static void
destroy(void *state)
{
	struct state *s = state;

	if (s != NULL && s->lib != NULL)
		lib->destroy(s->lib);
	free(s);
}

static void
many(const struct ms_digest_spec *spec, size_t cnt,
    const unsigned char *const msg[], const size_t len[],
    unsigned char *const out[], bool done[])
{
	const struct row *r = row_of(spec->algo);
	const struct ms_md_kernel *k = ms_md_kernel(r->family);

	if (k->fn == NULL) {
		for (size_t i = 0; i < cnt; i++)
			done[i] = false;
		return;
	}
	ms_md_lanes(r->shape, k->fn, k->lanes, cnt, msg, len, out, done);
}

static const char *
lib_version(void)
{
	return lib->version();
}

/* What runs: for SHA-2 one stream (shani, or OpenSSL and its version),
 * then the lanes' level. */
static const char *
variant_of(enum ms_md_family f, char *buf, size_t cap)
{
	const char *level = ms_md_level_name(f);
	const char *one = f != MS_MD_SHA256 ? NULL : ms_md_sha256_shani() ?
	    "shani" : "OpenSSL";
	const char *v = one != NULL && !ms_md_sha256_shani() ? lib->version() :
	    NULL;

	snprintf(buf, cap, "%s%s%s%s%s%s", one ? one : "",
	    v ? " " : "", v ? v : "", one && ms_md_kernel(f)->fn ? ", " : "",
	    ms_md_kernel(f)->fn ? level : one ? "" : "no",
	    one && !ms_md_kernel(f)->fn ? "" : " lanes");
	return buf;
}

static const char *
md5_variant(void)
{
	static char buf[48];

	return variant_of(MS_MD_MD5, buf, sizeof(buf));
}

static const char *
sha1_variant(void)
{
	static char buf[48];

	return variant_of(MS_MD_SHA1, buf, sizeof(buf));
}

static const char *
sha256_variant(void)
{
	static char buf[48];

	return variant_of(MS_MD_SHA256, buf, sizeof(buf));
}

#define MD_OPS(bk, ver, var) {						\
	.backend = bk, .load = load, .create = create, .init = init,	\
	.update = update, .final = final, .destroy = destroy,		\
	.version = ver, .variant = var, .many = many,			\
}

const struct ms_digest_ops ms_ops_md5 = MD_OPS("OpenSSL", lib_version,
    md5_variant);
const struct ms_digest_ops ms_ops_sha1 = MD_OPS("OpenSSL", lib_version,
    sha1_variant);
const struct ms_digest_ops ms_ops_sha2 = MD_OPS("built-in", NULL,
    sha256_variant);
