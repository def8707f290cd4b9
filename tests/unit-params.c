/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * unit-params.c - per-run parameters in the digest spec
 * (digest_params.h): a spec takes only the parameters its row reads;
 * two specs that differ in one are two digests of a selection, two that
 * differ only in one their row ignores are one; the BLAKE3 row's state
 * and parts follow the spec's key and context as the kernel's keyed and
 * derive_key modes do; the S3 rows' state follows the spec's part size.
 */
#include <stdlib.h>
#include <string.h>

#include "digest/algorithm.h"
#include "digest/digest_set.h"
#include "kernels/blake3.h"
#include "base/util.h"
#include "tap.h"

static unsigned char msg[3 << 20];

static struct ms_digest_spec
spec_of(const char *name, const struct ms_digest_params *p)
{
	struct ms_digest_spec s;
	const char *why;

	if (ms_algo_resolve(name, 0, &s, &why) == -1 || ms_spec_load(&s) == -1)
		ms_bug("unit-params: no row");
	if (p != NULL)
		ms_spec_set_params(&s, p);
	return s;
}

/* The row's digest of n bytes of msg under spec s, as hex. */
static void
digest_hex(const struct ms_digest_spec *s, size_t n, char *hex)
{
	unsigned char out[MS_DIGEST_MAX];
	void *st = s->algo->ops->create(s);

	if (st == NULL)
		ms_bug("unit-params: create");
	s->algo->ops->init(st);
	s->algo->ops->update(st, msg, n);
	s->algo->ops->final(st, out);
	s->algo->ops->destroy(st);
	ms_hex(hex, out, ms_spec_len(s));
}

static void
add(struct ms_selection *sel, const char *name,
    const struct ms_digest_params *p)
{
	struct ms_digest_spec s = spec_of(name, p);

	if (ms_selection_add(sel, &s) == -1)
		ms_bug("unit-params: selection full");
}

static void
test_rows_take_theirs(void)
{
	struct ms_digest_params p = { .part_size = 5u << 20,
	    .key_mode = MS_KEY_KEYED, .key_len = 32 };
	struct ms_digest_spec b3, sha, s3;

	memset(p.key, 7, p.key_len);
	b3 = spec_of("blake3", &p);
	sha = spec_of("sha256", &p);
	s3 = spec_of("s3etag", &p);
	tap_ok(b3.param.key_mode == MS_KEY_KEYED && b3.param.key_len == 32 &&
	    b3.param.key[31] == 7 && b3.param.part_size == 0,
	    "blake3 takes the key, not the part size");
	tap_ok(s3.param.part_size == 5u << 20 &&
	    s3.param.key_mode == MS_KEY_NONE && s3.param.key_len == 0,
	    "s3etag takes the part size, not the key");
	tap_ok(sha.param.part_size == 0 && sha.param.key_mode == MS_KEY_NONE &&
	    ms_spec_same(&sha, &(struct ms_digest_spec){ .algo = sha.algo,
	    .bits = sha.bits }), "sha256 takes neither");
}

static void
test_selection_tells_them_apart(void)
{
	struct ms_digest_params k1 = { .key_mode = MS_KEY_KEYED, .key_len = 32 };
	struct ms_digest_params k2 = k1;
	struct ms_digest_params d1 = { .key_mode = MS_KEY_DERIVE,
	    .context = "multisum 2026 one" };
	struct ms_digest_params d2 = { .key_mode = MS_KEY_DERIVE,
	    .context = "multisum 2026 two" };
	struct ms_digest_params big = { .part_size = 16u << 20 };
	struct ms_selection sel = { 0 };
	char copy[] = "multisum 2026 one";

	memset(k1.key, 1, 32);
	memset(k2.key, 1, 32);
	k2.key[31] = 2;
	add(&sel, "blake3", &k1);
	add(&sel, "blake3", NULL);
	add(&sel, "blake3", &k2);
	add(&sel, "blake3", &d1);
	add(&sel, "blake3", &d2);
	tap_is_int((long)sel.cnt, 5,
	    "blake3 under two keys, two contexts and none: five digests");
	d1.context = copy;
	add(&sel, "blake3", &d1);
	add(&sel, "blake3", &k1);
	tap_is_int((long)sel.cnt, 5,
	    "the same key or context again (another copy of it) adds none");
	add(&sel, "s3etag", NULL);
	add(&sel, "s3etag", &big);
	add(&sel, "sha256", &big);
	add(&sel, "sha256", NULL);
	tap_is_int((long)sel.cnt, 8,
	    "s3etag at two part sizes is two; sha256 with and without one");
}

static void
test_blake3_follows_spec(void)
{
	static const uint8_t key[32] = "whats the Elvish word for friend";
	struct ms_digest_params keyed = { .key_mode = MS_KEY_KEYED,
	    .key_len = 32 };
	struct ms_digest_params derive = { .key_mode = MS_KEY_DERIVE,
	    .context = "multisum unit-params" };
	const struct ms_digest_params *modes[] = { NULL, &keyed, &derive };
	static const char *const mode_name[] = { "hash", "keyed_hash",
	    "derive_key" };
	size_t n = sizeof(msg);

	memcpy(keyed.key, key, sizeof(key));
	for (size_t m = 0; m < MS_ARRAY_LEN(modes); m++) {
		struct ms_digest_spec s = spec_of("blake3", modes[m]);
		struct ms_blake3 h;
		uint8_t want[32], cv[32];
		char got_hex[65], want_hex[65];
		void *st;

		if (m == 0)
			ms_blake3_init(&h);
		else if (m == 1)
			ms_blake3_init_keyed(&h, key);
		else
			ms_blake3_init_derive_key(&h, derive.context,
			    strlen(derive.context));
		ms_blake3_update(&h, msg, n);
		ms_blake3_final(&h, want, sizeof(want));
		ms_hex(want_hex, want, sizeof(want));
		digest_hex(&s, n, got_hex);
		tap_is_str(got_hex, want_hex, mode_name[m]);

		/* two parts of 1 MiB, then the rest through update */
		st = s.algo->ops->create(&s);
		s.algo->ops->init(st);
		for (uint64_t off = 0; off < 2u << 20; off += 1u << 20) {
			s.algo->tree->part(&s, msg + off, 1u << 20, off, cv);
			s.algo->tree->join(st, cv, off, 1u << 20);
		}
		s.algo->ops->update(st, msg + (2u << 20), n - (2u << 20));
		s.algo->ops->final(st, want);
		s.algo->ops->destroy(st);
		ms_hex(want_hex, want, sizeof(want));
		tap_ok(strcmp(want_hex, got_hex) == 0, "%s in parts joined",
		    mode_name[m]);
	}
}

static void
test_s3_follows_spec(void)
{
	struct ms_digest_params one = { .part_size = 1u << 20 };
	struct ms_digest_params three = { .part_size = 3u << 20 };
	char d8[64], d1[64], d3[64];
	struct ms_digest_spec s;

	s = spec_of("s3etag", NULL);
	digest_hex(&s, 3u << 20, d8);
	s = spec_of("s3etag", &one);
	digest_hex(&s, 3u << 20, d1);
	s = spec_of("s3etag", &three);
	digest_hex(&s, 3u << 20, d3);
	/* raw: 16 bytes of MD5, then the part count big-endian */
	tap_is_str(d8 + 32, "00000000", "default part size: a single PUT");
	tap_is_str(d1 + 32, "00000003", "1 MiB parts: three");
	tap_is_str(d3 + 32, "00000001", "3 MiB parts: one");
	tap_ok(strcmp(d1, d3) != 0 && strncmp(d8, d3, 32) != 0,
	    "each part size its own digest");
}

int
main(void)
{
	/* any bytes will do that are not all alike */
	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (unsigned char)((i * 2654435761u) >> 13);
	test_rows_take_theirs();
	test_selection_tells_them_apart();
	test_blake3_follows_spec();
	test_s3_follows_spec();
	return tap_done();
}
