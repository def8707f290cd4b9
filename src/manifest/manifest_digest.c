/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * manifest_digest.c - a digest's text into bytes, and the one
 * algorithm taken for an untagged digest: -a, the manifest's name, the
 * length's default (what may stand in for the last two when a file does
 * not match is manifest.c's); --expect's spellings.  Hex or
 * base64 is decided by the length, never by the alphabet.  Also the
 * helpers every part of the parser shares (it calls none of them).
 * Pure.
 */
#include "manifest/manifest_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest/backend_s3.h"
#include "base/json_read.h"
#include "base/util.h"

bool
ms_mf_is_xdigit(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/* Characters of a tag: "SHA2-512/256", "BLAKE2b-256", "XXH3_64". */
bool
ms_mf_is_tag_char(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z') || c == '-' || c == '_' || c == '/';
}

const struct ms_algo *
ms_mf_algo_named(const char *name)
{
	struct ms_digest_spec s;
	const char *why;

	return ms_algo_resolve(name, 0, &s, &why) == 0 ? s.algo : NULL;
}

/*
 * Undo GNU name escaping in place over n bytes: \\, \n and \r; anything
 * else after a backslash, a trailing backslash or a NUL byte makes the
 * name invalid.  The result is NUL-terminated.
 */
bool
ms_mf_unescape(char *s, size_t n)
{
	char *d = s;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\0')
			return false;
		if (s[i] != '\\') {
			*d++ = s[i];
			continue;
		}
		if (++i == n)
			return false;
		switch (s[i]) {
		case '\\': *d++ = '\\'; break;
		case 'n':  *d++ = '\n'; break;
		case 'r':  *d++ = '\r'; break;
		default:   return false;
		}
	}
	if (d < s + n)
		*d = '\0';
	return true;
}

/*
 * The algorithm of an untagged digest that only its length identifies
 * (SPEC.md, "Verification"): the cryptographic default of the length;
 * for a length no cryptographic algorithm has, the one algorithm that
 * writes bare digests of it (xxhsum writes XXH3 as "XXH3_HEX", so 16
 * hex digits are XXH64), or SFV's CRC-32 for 8 hex digits, which
 * CRC-32C and XXH32 write too.  This is a guess: check mode tries the
 * algorithms that may stand in for it (ms_manifest_stand_ins) when a
 * file does not match, and keeps what matched for the list.
 */
static const struct {
	size_t		 len;
	const char	*algo;
} by_length[] = {
	{ .len = 4, .algo = "crc32" },
	{ .len = 8, .algo = "xxh64" },
	{ .len = 16, .algo = "md5" },
	{ .len = 20, .algo = "sha1" },
	{ .len = 24, .algo = "tiger" },
	{ .len = 28, .algo = "sha224" },
	{ .len = 32, .algo = "sha256" },
	{ .len = 48, .algo = "sha384" },
	{ .len = 64, .algo = "sha512" },
};

bool
ms_mf_usable(const struct ms_algo *a)
{
	return a != NULL && a->legacy == MS_LEGACY_NONE;
}

bool
ms_mf_is_variable(const struct ms_algo *a)
{
	return a->min_bits != a->max_bits;
}

/* spec for a digest of n bytes under algorithm a (fixed or a family). */
bool
ms_mf_fit(const struct ms_algo *a, size_t n, struct ms_digest_spec *spec)
{
	const char *why;

	if (a == NULL || n == 0 || n > MS_DIGEST_MAX)
		return false;
	if (a->bits == n * 8 && !ms_mf_is_variable(a)) {
		*spec = (struct ms_digest_spec){ .algo = a, .bits = a->bits };
		return true;
	}
	if (ms_mf_is_variable(a) && n * 8 >= a->min_bits && n * 8 <= a->max_bits) {
		*spec = (struct ms_digest_spec){ .algo = a,
		    .bits = (unsigned)(n * 8) };
		return true;
	}
	return a->family != NULL &&
	    ms_algo_resolve(a->family, (unsigned)(n * 8), spec, &why) == 0 &&
	    ms_spec_len(spec) == n;
}

bool
ms_mf_all_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!ms_mf_is_xdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* S3's "ETAG-N" and "BASE64-N" (backend_s3.c). */
static bool
cloud_digest(const char *tok, size_t n, struct ms_manifest_digest *d)
{
	const char *implied;

	return ms_s3_decode(tok, n, d->digest, sizeof(d->digest), &d->len,
	    &implied) == 1;
}

/*
 * Base64 in RFC 4648's alphabet, or in its URL-safe one ('-' and '_' for
 * '+' and '/', as `rclone hashsum --base64` writes it), never mixed.
 */
static long
unbase64(unsigned char *out, size_t cap, const char *s, size_t n)
{
	char std[4 * (MS_DIGEST_MAX / 3 + 1)];
	long got = ms_unbase64(out, cap, s, n);

	if (got != -1 || n > sizeof(std) || memchr(s, '+', n) != NULL ||
	    memchr(s, '/', n) != NULL)
		return got;
	for (size_t i = 0; i < n; i++)
		std[i] = s[i] == '-' ? '+' : s[i] == '_' ? '/' : s[i];
	return ms_unbase64(out, cap, std, n);
}

/*
 * RHash's base32 of AICH (32 characters) or TTH (39), in one case: the
 * bytes it stands for (20, 24), else 0.  Such a token is never taken for
 * base64, which RHash writes only when told to and then in both cases.
 */
static size_t
rhash_base32(const char *s, size_t n)
{
	bool lower = false, upper = false;

	if (n != 32 && n != 39)
		return 0;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];

		if (c >= 'a' && c <= 'z')
			lower = true;
		else if (c >= 'A' && c <= 'Z')
			upper = true;
		else if (c < '2' || c > '7')
			return 0;
	}
	return lower && upper ? 0 : n == 39 ? 24 : 20;
}

/*
 * A digest of exactly len bytes: hex if the text has 2 * len hex digits,
 * else canonical base64 of len bytes.  The length decides, never the
 * alphabet: "784e" is the base64 of a 3-byte BLAKE2b-24.
 */
bool
ms_mf_decode_as(const char *tok, size_t n, size_t len, struct ms_manifest_digest *d)
{
	if (len == 0 || len > sizeof(d->digest))
		return false;
	if (n == 2 * len && ms_mf_all_hex(tok, n)) {
		ms_unhex(d->digest, tok, len);
		d->len = len;
		return true;
	}
	if (rhash_base32(tok, n) != 0) {
		d->len = len;
		return rhash_base32(tok, n) == len &&
		    ms_unbase32(d->digest, len, tok, n) == 0;
	}
	if (unbase64(d->digest, sizeof(d->digest), tok, n) == (long)len) {
		d->len = len;
		return true;
	}
	/* RHash's base32 (TTH, AICH; --base32 for any) */
	if (ms_unbase32(d->digest, len, tok, n) == 0) {
		d->len = len;
		return true;
	}
	return cloud_digest(tok, n, d) && d->len == len;
}

/*
 * A digest of spec's algorithm.  A row with a text form of its own
 * (S3's, backend_s3.c) keeps a part count after the digest: without "-N"
 * the text is a single PUT's, count 0.
 */
static bool
decode_for(const struct ms_digest_spec *spec, const char *tok, size_t n,
    struct ms_manifest_digest *d)
{
	size_t len = ms_spec_len(spec);

	if (ms_mf_decode_as(tok, n, len, d))
		return true;
	if (!(spec->algo->params & MS_PARAM_PART_SIZE) || len <= 4 ||
	    !ms_mf_decode_as(tok, n, len - 4, d))
		return false;
	memset(d->digest + len - 4, 0, 4);
	d->len = len;
	return true;
}

/*
 * The same in the forms RHash and the sum tools write by default only:
 * hex, or RHash's base32.  Tried first where several algorithms may take
 * a token, so that 32 hex digits are MD5's or ED2K's, never a base64
 * of TTH's 24 bytes.
 */
static bool
decode_native(const struct ms_digest_spec *spec, const char *tok, size_t n,
    struct ms_manifest_digest *d)
{
	size_t len = ms_spec_len(spec);

	return ((n == 2 * len && ms_mf_all_hex(tok, n)) ||
	    rhash_base32(tok, n) == len) && ms_mf_decode_as(tok, n, len, d);
}

bool
ms_mf_spaced_hex(const char *s, size_t n, char *out, size_t cap, size_t *got,
    bool *spaced)
{
	size_t o = 0;

	*spaced = false;
	while (n > 0 && ISWHITE(s[n - 1]))
		n--;
	while (n > 0 && ISWHITE(*s)) {
		s++;
		n--;
	}
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == ' ') {
			/* "a9 99 3e": one space between pairs of digits */
			if (i % 3 != 2)
				return false;
			*spaced = true;
			continue;
		}
		if (!ms_mf_is_xdigit((unsigned char)s[i]) ||
		    (*spaced && i % 3 == 2) || o + 1 >= cap)
			return false;
		out[o++] = s[i];
	}
	if (*spaced && n % 3 != 2)
		return false;
	out[o] = '\0';
	*got = o;
	return true;
}

/* A digest whose length is not known yet: hex if it can be, else base64. */
bool
ms_mf_decode_any(const char *tok, size_t n, struct ms_manifest_digest *d)
{
	long got;

	if (n % 2 == 0 && n / 2 <= sizeof(d->digest) && ms_mf_all_hex(tok, n)) {
		ms_unhex(d->digest, tok, n / 2);
		d->len = n / 2;
		return n > 0;
	}
	if ((d->len = rhash_base32(tok, n)) != 0)
		return ms_unbase32(d->digest, d->len, tok, n) == 0;
	got = unbase64(d->digest, sizeof(d->digest), tok, n);
	if (got <= 0)
		return cloud_digest(tok, n, d);
	d->len = (size_t)got;
	return true;
}

/*
 * The one algorithm of an untagged digest (tok, n): -a, else the
 * manifest's name, else the length's default.  Fills e->d[e->n].
 */
enum ms_line
ms_mf_untagged(const struct ms_manifest_rules *r, const struct ms_manifest_state *st,
    const char *tok, size_t n, struct ms_manifest_entry *e)
{
	struct ms_manifest_digest *d = &e->d[e->n];

	if (e->n == MS_MANIFEST_DIGESTS)
		return MS_LINE_BAD;
	if (r->given != NULL && r->given->cnt > 0) {
		/* The first algorithm of -a with the digest's length, in
		 * its own form first. */
		for (size_t k = 0; k < 2 * r->given->cnt; k++) {
			const struct ms_digest_spec *g =
			    &r->given->spec[k % r->given->cnt];

			if (ms_mf_usable(g->algo) && (k < r->given->cnt ?
			    decode_native(g, tok, n, d) : decode_for(g, tok, n, d))) {
				d->spec = *g;
				e->how = MS_BY_OPTION;
				e->n++;
				return MS_LINE_ENTRY;
			}
		}
		/* -a blake2b without -l: the digest's length, as b2sum -c */
		for (size_t k = 0; k < r->given->cnt; k++) {
			const struct ms_digest_spec *g = &r->given->spec[k];

			if (!r->length_given && (ms_mf_is_variable(g->algo) ||
			    (g->algo->family != NULL &&
			    strcmp(g->algo->family, g->algo->name) == 0)) &&
			    ms_mf_decode_any(tok, n, d) &&
			    ms_mf_fit(g->algo, d->len, &d->spec)) {
				e->how = MS_BY_OPTION;
				e->n++;
				return MS_LINE_ENTRY;
			}
		}
		return MS_LINE_BAD;
	}
	if (st->name_algo != NULL) {
		const struct ms_algo *a = st->name_algo;

		if (!ms_mf_is_variable(a) && a->family == NULL ?
		    ms_mf_decode_as(tok, n, a->bits / 8, d) && ms_mf_fit(a, d->len, &d->spec) :
		    ms_mf_decode_any(tok, n, d) && ms_mf_fit(a, d->len, &d->spec)) {
			e->how = st->sfv ? MS_BY_FORMAT : MS_BY_NAME;
			e->guessed |= 1u << e->n++;
			return MS_LINE_ENTRY;
		}
	}
	if (!ms_mf_decode_any(tok, n, d))
		return MS_LINE_BAD;
	/* RHash's base32 lines: TTH's or AICH's, by their length */
	if (!(n == 2 * d->len && ms_mf_all_hex(tok, n)) &&
	    rhash_base32(tok, n) != 0) {
		if (!ms_mf_fit(ms_mf_algo_named(n == 39 ? "tth" : "aich"),
		    d->len, &d->spec))
			return MS_LINE_BAD;
		e->how = MS_BY_LENGTH;
		e->n++;
		return MS_LINE_ENTRY;
	}
	for (size_t k = 0; k < MS_ARRAY_LEN(by_length); k++) {
		if (by_length[k].len != d->len)
			continue;
		if (!ms_mf_fit(ms_mf_algo_named(by_length[k].algo), d->len, &d->spec))
			return MS_LINE_BAD;
		e->how = MS_BY_LENGTH;
		e->guessed |= 1u << e->n++;
		return MS_LINE_ENTRY;
	}
	return MS_LINE_BAD;
}

/*
 * RHash puts a line's digests in the order of its hash identifiers,
 * whatever the order of its options ("rhash --blake3 --sha256" writes
 * SHA-256 first): ours that it has, in that order.
 */
static const char *const rhash_order[] = {
	"crc32", "md4", "md5", "sha1", "tiger", "tth", "ed2k", "aich",
	"whirlpool", "ripemd160", "gost94", "gost94-cryptopro", "has160",
	"streebog256", "streebog512", "sha224", "sha256", "sha384", "sha512",
	"edonr256", "edonr512", "sha3-224", "sha3-256", "sha3-384",
	"sha3-512", "crc32c", "snefru128", "snefru256", "blake2s", "blake2b",
	"blake3",
};

static size_t
rhash_rank(const struct ms_algo *a)
{
	size_t i;

	for (i = 0; i < MS_ARRAY_LEN(rhash_order); i++)
		if (strcmp(a->name, rhash_order[i]) == 0)
			break;
	return i;	/* those RHash lacks last, in -a's order */
}

enum ms_line
ms_mf_positional(const struct ms_manifest_rules *r, const char *tok, size_t n,
    size_t pos, size_t same, struct ms_manifest_entry *e)
{
	const struct ms_digest_spec *cand[MS_MANIFEST_DIGESTS];
	struct ms_manifest_digest *d = &e->d[e->n];
	size_t cnt = 0;

	if (e->n == MS_MANIFEST_DIGESTS)
		return MS_LINE_BAD;
	/* -a's algorithms that take this digest, in RHash's order: those
	 * that take it in its own form, else any. */
	for (size_t k = 0; r->given != NULL && k < 2 * r->given->cnt; k++) {
		const struct ms_digest_spec *g = &r->given->spec[k % r->given->cnt];
		size_t j = cnt;

		if (k == r->given->cnt) {
			if (cnt == same)
				break;
			cnt = 0;
			j = 0;
		}
		if (!ms_mf_usable(g->algo) || cnt == MS_ARRAY_LEN(cand) ||
		    !(k < r->given->cnt ? decode_native(g, tok, n, d) :
		    decode_for(g, tok, n, d)))
			continue;
		while (j > 0 && rhash_rank(cand[j - 1]->algo) > rhash_rank(g->algo)) {
			cand[j] = cand[j - 1];
			j--;
		}
		cand[j] = g;
		cnt++;
	}
	if (cnt != same) {
		e->why = "digests of one length, not told apart: "
		    "-a must name one algorithm for each";
		return MS_LINE_UNSUPPORTED;
	}
	if (!decode_for(cand[pos], tok, n, d))
		return MS_LINE_BAD;
	d->spec = *cand[pos];
	e->how = MS_BY_OPTION;
	e->n++;
	return MS_LINE_ENTRY;
}

/* Does the tag word spell a length of its own ("BLAKE2b-256")? */
static bool
tag_has_length(const char *word, unsigned bits)
{
	char tail[16];
	size_t wl = strlen(word), tl;

	snprintf(tail, sizeof(tail), "-%u", bits);
	tl = strlen(tail);
	return wl > tl && strcmp(word + wl - tl, tail) == 0;
}

/* The digest after a tag: by the tag's length, or its own (SHAKE). */
bool
ms_mf_tag_digest(const char *word, char *s, size_t len, struct ms_manifest_digest *d)
{
	const struct ms_algo *a = d->spec.algo;

	while (len > 0 && ISWHITE(s[len - 1]))
		len--;
	if (decode_for(&d->spec, s, len, d))
		return true;
	/* OpenSSL's "SHAKE-128(f)= " gives the length by the digest only. */
	return ms_mf_is_variable(a) && !tag_has_length(word, d->spec.bits) &&
	    ms_mf_decode_any(s, len, d) && ms_mf_fit(a, d->len, &d->spec);
}

/*
 * A prefix naming the algorithm: "sha256:", "sha256=", "SHA256:" (OCI,
 * pip, SSH), or Subresource Integrity's "sha384-" before base64.
 */
static bool
expect_prefix(const char *text, size_t n, struct ms_manifest_entry *e)
{
	static const char *const sri[] = {
		"sha256", "sha384", "sha512",	/* SRI's, as it spells them */
	};
	struct ms_manifest_digest *d = &e->d[0];
	const char *why;
	char word[32];
	size_t p = strcspn(text, ":=");

	if (p > 0 && p < n && p < sizeof(word)) {
		memcpy(word, text, p);
		word[p] = '\0';
		if (ms_algo_resolve(word, 0, &d->spec, &why) == 0)
			return ms_mf_tag_digest(word, (char *)text + p + 1, n - p - 1, d);
	}
	for (size_t k = 0; k < MS_ARRAY_LEN(sri); k++) {
		size_t pl = strlen(sri[k]);

		if (n <= pl + 1 || strncmp(text, sri[k], pl) != 0 ||
		    text[pl] != '-' ||
		    ms_algo_resolve(sri[k], 0, &d->spec, &why) == -1)
			continue;
		d->len = ms_spec_len(&d->spec);
		return ms_unbase64(d->digest, sizeof(d->digest), text + pl + 1,
		    n - pl - 1) == (long)d->len;
	}
	return false;
}

/*
 * S3's and GCS's spellings (backend_s3.c): 1 with the entry, 0 if text is none
 * of them, -1 if it is one but malformed or of no algorithm.
 */
static int
expect_cloud(const char *text, size_t n, const struct ms_selection *given,
    struct ms_manifest_entry *e)
{
	struct ms_manifest_digest *d = &e->d[0];
	const char *implied;
	char *tok = ms_xmalloc(n + 1);
	int rc;

	memcpy(tok, text, n);
	tok[n] = '\0';
	rc = ms_s3_expect(tok, d->digest, sizeof(d->digest), &d->len,
	    &implied);
	free(tok);
	if (rc != 1)
		return rc;
	e->n = 1;
	e->how = MS_BY_PREFIX;
	if (given != NULL && given->cnt > 0) {
		/* "BASE64-N" of a CRC: -a says which */
		for (size_t k = 0; k < given->cnt; k++)
			if (ms_spec_len(&given->spec[k]) == d->len) {
				d->spec = given->spec[k];
				e->how = MS_BY_OPTION;
				return 1;
			}
		return -1;
	}
	return implied != NULL && ms_mf_fit(ms_mf_algo_named(implied), d->len, &d->spec) ?
	    1 : -1;
}

int
ms_manifest_expect(const char *text, const struct ms_selection *given,
    struct ms_manifest_entry *e, const char **why)
{
	struct ms_manifest_rules r = { .dialect = MS_DIALECT_NATIVE,
	    .given = given };
	struct ms_manifest_state st = { .reversed = -1 };
	char joined[2 * MS_DIGEST_MAX + 1];
	size_t n;
	bool spaced;

	memset(e, 0, offsetof(struct ms_manifest_entry, d));
	*why = NULL;
	/* CertUtil's "a9 99 3e ..." (Windows 7), as copied from its output */
	if (ms_mf_spaced_hex(text, strcspn(text, "\r\n"), joined,
	    sizeof(joined), &n, &spaced) && spaced &&
	    text[strcspn(text, "\r\n") + strspn(text + strcspn(text, "\r\n"),
	    "\r\n")] == '\0')
		text = joined;
	/* Surrounding blanks, a CR/LF, and a "  NAME" as sha256sum writes */
	while (*text == ' ' || *text == '\t')
		text++;
	n = strcspn(text, " \t\r\n");
	if (text[n + strspn(text + n, " \t\r\n")] != '\0' &&
	    strspn(text + n, " \t") == 0)
		return -1;
	if (n == 0)
		return -1;
	if (expect_prefix(text, n, e)) {
		e->n = 1;
		e->how = MS_BY_PREFIX;
		return 0;
	}
	switch (expect_cloud(text, n, given, e)) {
	case 1:
		return 0;
	case -1:
		return -1;
	}
	switch (ms_mf_untagged(&r, &st, text, n, e)) {
	case MS_LINE_ENTRY:
		return 0;
	case MS_LINE_UNSUPPORTED:
		*why = e->why;
		return -1;
	default:
		return -1;
	}
}

/*
 * The JSON string at *p (after its quote), unescaped in place, as
 * ms_json_string writes it (U+DC80..U+DCFF are the bytes of a name that
 * is not UTF-8).  Returns the string, *p past its closing quote.
 */
char *
ms_mf_json_string(char **p, char *end)
{
	char *s = *p, *out = *p, *start = *p;

	while (s < end && *s != '"') {
		long u;

		if (*s != '\\') {
			*out++ = *s++;
			continue;
		}
		if (++s == end)
			return NULL;
		if ((u = ms_json_escape(*s)) >= 0) {
			*out++ = (char)u;
			s++;
			continue;
		}
		if (*s++ != 'u' || end - s < 4 || (u = ms_json_hex4(s)) < 0)
			return NULL;
		s += 4;
		if (u >= 0xdc80 && u <= 0xdcff) {
			*out++ = (char)(u - 0xdc00);
			continue;
		}
		if (u >= 0xd800 && u <= 0xdbff) {
			long lo;

			if (end - s < 6 || s[0] != '\\' || s[1] != 'u' ||
			    (lo = ms_json_hex4(s + 2)) < 0xdc00 || lo > 0xdfff)
				return NULL;
			s += 6;
			u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
		} else if (u == 0 || (u >= 0xdc00 && u <= 0xdfff)) {
			return NULL;
		}
		out = ms_utf8_put(out, (uint32_t)u);
	}
	if (s == end)
		return NULL;
	*p = s + 1;
	*out = '\0';
	return start;
}
