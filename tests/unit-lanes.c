/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * unit-lanes.c - MD5, SHA-1, SHA-224 and SHA-256 of many messages side by
 * side (kernels/md_lanes.c over md_avx2.c, md_avx512.c, sha256_shani.c,
 * sha_armv8.c), and the one built-in stream of MD5, SHA-1 and SHA-256
 * (md5_portable.c, sha1_shani.c, sha256_shani.c, sha_armv8.c through
 * digest/backend_md.c), at every level this CPU runs (each forced in
 * turn; on aarch64, .ci/cross-arm64 runs it under qemu):
 *
 *   - the known answers of RFC 1321 (MD5) and FIPS 180's examples (SHA),
 *     one million 'a' included, all in one call;
 *   - 1 to 40 messages of lengths around every padding boundary (0, 55,
 *     56, 63, 64, 65, ... 4097) and random ones up to 5000 bytes, at odd
 *     addresses, against OpenSSL's libcrypto (through its backend, which
 *     shares no code with the kernels);
 *   - a lane of 3 bytes beside one of 5000: each gets its own digest;
 *   - MD5, SHA-1, SHA-256 and SHA-224 fed to the one built-in stream in awkward
 *     pieces, against libcrypto.
 * Messages the lanes leave to the caller (done false) are allowed, but
 * every level must hash most of them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest/algorithm.h"
#include "digest/backend.h"
#include "kernels/md_lanes.h"
#include "base/util.h"

#include "levels.h"
#include "tap.h"

#define BIG	1000000

static uint8_t data[BIG + 64];

static const struct fam {
	const char	*row;
	struct ms_level_family *levels;
	const struct ms_md_shape *shape;
	size_t		 len;
} fams[] = {
	{ "md5", &ms_md5_levels, &ms_md5_shape, 16 },
	{ "sha1", &ms_sha1_levels, &ms_sha1_shape, 20 },
	{ "sha224", &ms_sha256_levels, &ms_sha224_shape, 28 },
	{ "sha256", &ms_sha256_levels, &ms_sha256_shape, 32 },
};

/* Known answers: the message, then the digest of each family. */
static const struct {
	const char	*msg;
	const char	*hex[4];
} kat[] = {
	{ "", { "d41d8cd98f00b204e9800998ecf8427e",
	    "da39a3ee5e6b4b0d3255bfef95601890afd80709",
	    "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f",
	    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" } },
	{ "abc", { "900150983cd24fb0d6963f7d28e17f72",
	    "a9993e364706816aba3e25717850c26c9cd0d89d",
	    "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" } },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", { NULL,
	    "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
	    "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525",
	    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" } },
	{ "a", { "0cc175b9c0f1b6a831c399e269772661" } },
	{ "message digest", { "f96b697d7cb7938d525a2f31aaf161d0" } },
	{ "abcdefghijklmnopqrstuvwxyz", { "c3fcd3d76192e4007dfb496cca67e13b" } },
	{ "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
	    { "d174ab98d277d9f5a5611c2c9f419d9f" } },
	{ "1234567890123456789012345678901234567890123456789012345678901234567"
	    "8901234567890", { "57edf4a22be3c955ac49da2e2107b67a" } },
	{ NULL /* one million 'a' */, { "7707d6ae4e027c70eea2a935c2296f21",
	    "34aa973cd4c4daa4f61eeb2bdbad27316534016f",
	    "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67",
	    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" } },
};

static uint8_t million[BIG];

/* libcrypto's digest of p, through its backend's own state. */
static void
reference(const struct ms_algo *a, const uint8_t *p, size_t n, uint8_t *out)
{
	static void *st[4];
	struct ms_digest_spec spec = { .algo = a, .bits = a->bits };
	size_t k = 0;

	while (strcmp(fams[k].row, a->name) != 0)
		k++;
	if (st[k] == NULL)
		st[k] = ms_ops_openssl.create(&spec);
	ms_ops_openssl.init(st[k]);
	ms_ops_openssl.update(st[k], p, n);
	ms_ops_openssl.final(st[k], out);
}

static void
test_known_answers(const struct fam *f, size_t fi, const char *level,
    const struct ms_md_kernel *k)
{
	/* each answer twice, and the short ones four times more, so that
	 * the lanes stay full while the million runs */
	enum { MAX = 6 * MS_ARRAY_LEN(kat) };
	const uint8_t *msg[MAX];
	size_t len[MAX], n = 0, bad = 0, hashed = 0;
	uint8_t outb[MAX][32], *out[MAX];
	bool done[MAX];
	size_t which[MAX];

	for (size_t r = 0; r < 6; r++)
		for (size_t i = 0; i < MS_ARRAY_LEN(kat); i++) {
			if (kat[i].hex[fi] == NULL || (r > 1 && kat[i].msg == NULL))
				continue;
			msg[n] = kat[i].msg ? (const uint8_t *)kat[i].msg : million;
			len[n] = kat[i].msg ? strlen(kat[i].msg) : BIG;
			out[n] = outb[n];
			which[n++] = i;
		}
	ms_md_lanes(f->shape, k->fn, k->lanes, n, msg, len, out, done);
	for (size_t i = 0; i < n; i++) {
		char hex[65];

		if (!done[i])
			continue;
		hashed++;
		ms_hex(hex, out[i], f->len);
		if (strcmp(hex, kat[which[i]].hex[fi]) != 0) {
			bad++;
			tap_diag("%s: %zu bytes: got %s", f->row, len[i], hex);
		}
	}
	tap_ok(bad == 0 && hashed + 2 >= n, "%s, %s: %zu known answers, "
	    "%zu wrong", f->row, level, hashed, bad);
}

static void
test_against_libcrypto(const struct fam *f, const char *level,
    const struct ms_md_kernel *k)
{
	static const size_t edge[] = { 0, 1, 55, 56, 57, 63, 64, 65, 119, 120,
	    127, 128, 129, 1023, 1024, 1025, 2047, 2048, 4096, 4097 };
	const struct ms_algo *a = ms_algo_named(f->row);
	const uint8_t *msg[40];
	size_t len[40], hashed = 0, total = 0, bad = 0;
	uint8_t outb[40][32], *out[40], want[32];
	bool done[40];
	unsigned seed = 1;

	for (size_t c = 1; c <= 40; c++)
		for (int rep = 0; rep < 3; rep++) {
			for (size_t i = 0; i < c; i++) {
				seed = seed * 1103515245 + 12345;
				len[i] = rep < 2 ? edge[(i + c * rep) %
				    MS_ARRAY_LEN(edge)] : seed % 5001;
				msg[i] = data + (seed >> 8) % 65536 + i % 7;
				out[i] = outb[i];
			}
			ms_md_lanes(f->shape, k->fn, k->lanes, c, msg, len, out,
			    done);
			for (size_t i = 0; i < c; i++) {
				total++;
				if (!done[i])
					continue;
				hashed++;
				reference(a, msg[i], len[i], want);
				bad += memcmp(want, out[i], f->len) != 0;
			}
		}
	tap_ok(bad == 0 && hashed * 10 >= total * 9, "%s, %s: %zu of %zu "
	    "messages of 1 to 40 side by side, %zu wrong", f->row, level,
	    hashed, total, bad);
}

/*
 * Lanes of 3 bytes beside lanes of 5000: the short ones end after one
 * block and go idle (reading a long one's blocks) while the long ones run
 * on for 78; each must get its own digest, all of them in the lanes.
 */
static void
test_short_beside_long(const struct fam *f, const char *level,
    const struct ms_md_kernel *k)
{
	const struct ms_algo *a = ms_algo_named(f->row);
	const uint8_t *msg[16];
	size_t len[16], bad = 0, hashed = 0;
	uint8_t outb[16][32], *out[16], want[32];
	bool done[16];

	for (size_t i = 0; i < k->lanes; i++) {
		msg[i] = data + 5 + 777 * i;
		len[i] = i % 2 ? 5000 : 3;
		out[i] = outb[i];
	}
	ms_md_lanes(f->shape, k->fn, k->lanes, k->lanes, msg, len, out, done);
	for (size_t i = 0; i < k->lanes; i++) {
		reference(a, msg[i], len[i], want);
		hashed += done[i];
		bad += memcmp(want, out[i], f->len) != 0;
	}
	tap_ok(bad == 0 && hashed == k->lanes, "%s, %s: 3 bytes beside 5000 "
	    "in %u lanes, each its own digest", f->row, level, k->lanes);
}

/* The one stream of rows first .. last (the built-in one, or
 * libcrypto's), fed in pieces that cross the blocks. */
static void
test_one_stream(const char *level, size_t first, size_t last)
{
	static const size_t piece[] = { 1, 63, 64, 65, 0, 3, 127, 128, 1000 };

	for (size_t r = first; r <= last; r++) {
		const struct ms_algo *a = ms_algo_named(fams[r].row);
		const struct ms_digest_spec spec = { .algo = a, .bits = a->bits };
		const struct ms_digest_ops *ops = a->ops;
		void *st = ops->create(&spec);
		size_t bad = 0, lengths = 0;

		for (size_t len = 0; len < 3000; len += len < 300 ? 1 : 97) {
			uint8_t got[32], want[32];
			size_t off = 0, i = 0;

			ops->init(st);
			while (off < len) {
				size_t n = piece[i++ % MS_ARRAY_LEN(piece)];

				n = n > len - off ? len - off : n;
				ops->update(st, data + off, n);
				off += n;
			}
			ops->final(st, got);
			reference(a, data, len, want);
			bad += memcmp(got, want, fams[r].len) != 0;
			lengths++;
		}
		ops->destroy(st);
		tap_ok(bad == 0, "%s, %s: one stream in pieces, %zu of %zu "
		    "lengths wrong", fams[r].row, level, bad, lengths);
	}
}

int
main(void)
{
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 131 + (i >> 10));
	memset(million, 'a', sizeof(million));
	if (ms_ops_openssl.load(ms_algo_named("sha256")) == -1) {
		tap_skip("no libcrypto", "the reference");
		return tap_done();
	}
	for (size_t fi = 0; fi < MS_ARRAY_LEN(fams); fi++) {
		const struct fam *f = &fams[fi];

		ms_ops_openssl.load(ms_algo_named(f->row));
		/* every level any build has but libcrypto, which runs no
		 * lanes; one this build or CPU lacks is a skip that says why */
		for (const char *const *l = f->levels->known + 1; *l; l++) {
			const struct ms_md_kernel *k;

			if (!level_force_or_skip(f->levels, *l, f->row))
				continue;
			k = ms_level_kernel(f->levels);
			test_known_answers(f, fi, *l, k);
			test_against_libcrypto(f, *l, k);
			test_short_beside_long(f, *l, k);
			if (f->levels != &ms_sha256_levels)
				test_one_stream(*l, fi, fi);
			if (fi == MS_ARRAY_LEN(fams) - 1)
				test_one_stream(*l, fi - 1, fi);
		}
	}
	if (ms_level_force(&ms_md5_levels, "libcrypto") == 0)
		test_one_stream("libcrypto", 0, 0);
	if (ms_level_force(&ms_sha1_levels, "libcrypto") == 0)
		test_one_stream("libcrypto", 1, 1);
	if (ms_level_force(&ms_sha256_levels, "libcrypto") == 0)
		test_one_stream("libcrypto", 2, 3);
	return tap_done();
}
