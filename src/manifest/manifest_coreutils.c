/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * manifest_coreutils.c - the rules of one GNU coreutils tool (9.1's
 * md5sum, sha*sum and b2sum, 9.11's cksum), reproduced quirk for quirk
 * for the personalities, including the state those tools carry from line
 * to line.  Pure, as manifest.c.
 */
#include "manifest/manifest_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest/backend_s3.h"
#include "base/util.h"

/* ---------------------------------------------------- coreutils 9.1 */

#define CKSUM_TAG_MAX	7	/* strlen("BLAKE2b") */

/* cksum's tag lookup: the word before '-', '(' or white space; NULL for
 * no tag. */
static const struct ms_cksum_algo *
cksum_tag(const char *s)
{
	size_t i = 0;

	while (i <= CKSUM_TAG_MAX && s[i] && !ISWHITE(s[i]) && s[i] != '-' &&
	    s[i] != '(')
		i++;
	if (i > CKSUM_TAG_MAX)
		return NULL;
	for (size_t k = 0; k < ms_cksum_algo_count; k++) {
		const char *tag = ms_cksum_algos[k].tag;

		if (strlen(tag) == i && memcmp(tag, s, i) == 0)
			return &ms_cksum_algos[k];
	}
	return NULL;
}

/* The length of base64 text for n bytes. */
#define B64_LEN(n)	(((n) + 2) / 3 * 4)

/* Are these cksum 9.11's rules?  Without -a (MS_DIALECT_CKSUM) always. */
static bool
face(const struct ms_manifest_rules *r)
{
	return r->cksum_face || r->dialect == MS_DIALECT_CKSUM;
}

/* Is c a base64 digit (padding aside)? */
static bool
is_b64(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '+' || c == '/';
}

/*
 * coreutils' valid_digits: d (dlen bytes, then the end of the string) is
 * hex_len hex digits or, for the cksum face, the base64 of hex_len / 2
 * bytes, padded; into e.  -1 if not; 1 for base64 text with bits set
 * under its padding, which decodes to no digest's text: cksum compares
 * the texts, and such a line fails.
 */
static int
cu_digest(const struct ms_manifest_rules *r, const char *d, size_t dlen,
    size_t hex_len, struct ms_manifest_entry *e)
{
	size_t bytes = hex_len / 2;

	if (face(r) && dlen == B64_LEN(bytes)) {
		size_t pad = (3 - bytes % 3) % 3;
		long n;

		for (size_t i = 0; i < dlen; i++)
			if (i < dlen - pad ? !is_b64((unsigned char)d[i]) :
			    d[i] != '=')
				return -1;
		if (d[dlen] != '\0')
			return -1;
		n = ms_unbase64(e->d[0].digest, sizeof(e->d[0].digest), d, dlen);
		e->d[0].len = bytes;
		e->n = 1;
		return n == (long)bytes ? 0 : 1;
	}
	if (dlen != hex_len)
		return -1;
	for (size_t i = 0; i < hex_len; i++)
		if (!ms_mf_is_xdigit((unsigned char)d[i]))
			return -1;
	if (d[hex_len] != '\0' || hex_len / 2 > sizeof(e->d[0].digest) ||
	    ms_unhex(e->d[0].digest, d, hex_len / 2) == -1)
		return -1;
	e->d[0].len = hex_len / 2;
	e->n = 1;
	return 0;
}

/* "NAME) = DIGEST" after the '(' of a tagged line (coreutils'
 * bsd_split_3): cu_digest's answer. */
static int
cu_tagged_rest(const struct ms_manifest_rules *r, char *s, size_t len,
    bool escaped, size_t hexlen, struct ms_manifest_entry *e)
{
	size_t i;

	if (len == 0)
		return -1;
	for (i = len - 1; i > 0 && s[i] != ')'; i--)
		continue;
	if (s[i] != ')')
		return -1;
	e->name = s;
	if (escaped && !ms_mf_unescape(s, i))
		return -1;
	s[i++] = '\0';
	while (ISWHITE(s[i]))
		i++;
	if (s[i++] != '=')
		return -1;
	while (ISWHITE(s[i]))
		i++;
	return cu_digest(r, s + i, len - i, hexlen, e);
}

/* coreutils' xstrtoumax(s, &end, 0): C bases, leading blanks, no sign. */
static bool
cu_length(const char *s, char **end, uintmax_t *v)
{
	const char *p = s;

	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	if (*p == '-')
		return false;
	errno = 0;
	*v = strtoumax(s, end, 0);
	return *end != s && errno == 0;
}

/* Is bits a length of the sha2 and sha3 families? */
static bool
family_length(uintmax_t bits)
{
	return bits == 224 || bits == 256 || bits == 384 || bits == 512;
}

/* SHA2, SHA224, SHA256, SHA384 or SHA512: what -a sha2 reads. */
static bool
is_sha2(const struct ms_cksum_algo *t)
{
	return strcmp(t->arg, "sha2") == 0 ||
	    (strncmp(t->arg, "sha", 3) == 0 && strlen(t->arg) == 6);
}

/* The entry's algorithm once its digest is known. */
static bool
cu_spec_of(const struct ms_algo *algo, const struct ms_cksum_algo *ck,
    struct ms_manifest_entry *e)
{
	const char *why, *name = ck != NULL && ck->family != NULL ?
	    ck->family : strcmp(algo->name, "blake2b") == 0 ? "blake2b" : NULL;

	e->how = MS_BY_TAG;
	/* a family, and BLAKE2b (coreutils' b2sum -l): a different function
	 * per length */
	if (name != NULL)
		return ms_algo_resolve(name, (unsigned)e->d[0].len * 8,
		    &e->d[0].spec, &why) == 0;
	/* cksum's "SHA256-128" compares a prefix of the full digest */
	e->d[0].spec = (struct ms_digest_spec){ .algo = algo,
	    .bits = algo->bits };
	return true;
}

/* The line's entry, its digest read (cu_digest's answer, how). */
static enum ms_line
cu_spec(const struct ms_algo *algo, const struct ms_cksum_algo *ck,
    struct ms_manifest_entry *e, int how)
{
	if (how < 0 || !cu_spec_of(algo, ck, e))
		return MS_LINE_BAD;
	if (how == 1)	/* longer than the digest: never matches */
		e->d[0].len = ms_spec_len(&e->d[0].spec) + 1;
	return MS_LINE_ENTRY;
}

/*
 * cksum 9.11's untagged length for blake2b, sha2 and sha3: the hex
 * digits that open the digest, or its base64 text's length; 0 if none
 * fits.
 */
static size_t
cksum_auto_length(const struct ms_cksum_algo *ck, const char *d)
{
	size_t hex = 0, b64, eq = 0;

	while (ms_mf_is_xdigit((unsigned char)d[hex]))
		hex++;
	for (b64 = hex; is_b64((unsigned char)d[b64]); b64++)
		continue;
	while (d[b64 + eq] == '=')
		eq++;
	if (ck->family != NULL && !family_length(hex / 2 * 8)) {
		hex = 0;
		for (size_t bytes = 28; bytes <= 64; bytes += bytes < 32 ? 4 : 16)
			if (b64 + eq == B64_LEN(bytes))
				hex = bytes * 2;
	} else if (ck->family == NULL && hex < b64) {
		for (size_t bits = 8; bits <= MS_DIGEST_MAX; bits += 8)
			if (B64_LEN(bits / 8) == b64 + eq && bits % 3 == eq) {
				hex = bits / 4;
				break;
			}
	}
	return hex;
}

/*
 * The cksum face: the algorithm a line is read as, by its tag if there
 * is none (-a) or it is sha2; NULL for a line cksum 9.11 refuses at once.
 */
static const struct ms_cksum_algo *
cksum_line_algo(const struct ms_manifest_rules *r,
    struct ms_manifest_state *st, const char *s)
{
	const struct ms_cksum_algo *t = NULL, *ck = st->cksum_algo != NULL ?
	    st->cksum_algo : r->cksum;

	if (r->dialect == MS_DIALECT_CKSUM || strcmp(ck->arg, "sha2") == 0)
		t = cksum_tag(s);
	/* Without -a only tagged lines, and not the sums'; -a sha2 takes
	 * SHA2 and SHA224 to SHA512 tags, and keeps the last. */
	if (r->dialect == MS_DIALECT_CKSUM) {
		if (t == NULL || t->sum)
			return NULL;
		st->cksum_algo = t;
	} else if (t != NULL && strcmp(ck->arg, "sha2") == 0 && is_sha2(t)) {
		st->cksum_algo = t;
	}
	return st->cksum_algo != NULL ? st->cksum_algo : r->cksum;
}

/*
 * A tagged line from s + *at, where the tag was found: MS_LINE_ENTRY or
 * MS_LINE_BAD; MS_LINE_SKIP when cksum 9.11 reads the line again as
 * untagged (no "(" after the tag).
 */
static enum ms_line
cu_tagged(const struct ms_manifest_rules *r, struct ms_manifest_state *st,
    const struct ms_cksum_algo *ck, const struct ms_algo *algo, char *s,
    size_t len, size_t i, bool escaped, struct ms_manifest_entry *e)
{
	uintmax_t bits = algo->bits;

	if (r->tag_length) {
		/* 9.1: the byte after the tag is consumed, whatever it is,
		 * unless it opens the name. */
		bool with_len = s[i] == '-';

		if (!face(r) && s[i] != '(' && i++ == len)
			return MS_LINE_BAD;
		if (face(r) && with_len)
			i++;
		if (with_len) {
			char *end;
			uintmax_t v;

			if ((face(r) && !(s[i] >= '0' && s[i] <= '9')) ||
			    !cu_length(s + i, &end, &v))
				return MS_LINE_BAD;
			if (ck != NULL && ck->family != NULL ?
			    !family_length(v) : v == 0 || v > bits || v % 8 != 0)
				return MS_LINE_BAD;
			i = (size_t)(end - s);
			bits = v;
		}
		st->hex_len = (size_t)bits / 4;
	}
	if (s[i] == ' ')
		i++;
	if (s[i] != '(')	/* 9.11: a base64 digest may open so */
		return face(r) ? MS_LINE_SKIP : MS_LINE_BAD;
	i++;
	return cu_spec(algo, ck, e,
	    cu_tagged_rest(r, s + i, len - i, escaped, st->hex_len, e));
}

/* One line by the rules of coreutils 9.1's split_3, or 9.11's for the
 * cksum face. */
enum ms_line
ms_mf_cu_parse(const struct ms_manifest_rules *r, struct ms_manifest_state *st,
    char *s, size_t len, struct ms_manifest_entry *e)
{
	const struct ms_algo *algo = r->tool;
	const struct ms_cksum_algo *ck = NULL;
	bool escaped = false;
	size_t i = 0;
	const char *tag;
	char *hex;
	int how;

	while (ISWHITE(s[i]))
		i++;
	if (s[i] == '\\') {
		i++;
		escaped = true;
	}
	if (face(r)) {
		if ((ck = cksum_line_algo(r, st, s + i)) == NULL)
			return MS_LINE_BAD;
		algo = ms_algo_named(ck->algo);
	}
	tag = ck != NULL ? ck->tag : algo->tag;
	if (strncmp(s + i, tag, strlen(tag)) == 0) {
		enum ms_line l = cu_tagged(r, st, ck, algo, s, len,
		    i + strlen(tag), escaped, e);

		if (l != MS_LINE_SKIP)
			return l;
	}

	if (len - i < r->min_line + (s[i] == '\\'))
		return MS_LINE_BAD;
	hex = s + i;
	if (r->auto_length && ck == NULL) {
		size_t n = 0;

		while (ms_mf_is_xdigit((unsigned char)hex[n]))
			n++;
		if (n < 2 || n % 2 != 0 || n > 128)
			return MS_LINE_BAD;
		st->hex_len = n;
	} else if (ck != NULL && (ck->family != NULL ||
	    strcmp(ck->arg, "blake2b") == 0)) {
		size_t n = cksum_auto_length(ck, hex);

		if (n < 2 || n % 2 != 0 || n > 128)
			return MS_LINE_BAD;
		st->hex_len = n;
	}
	if (ck != NULL) {
		/* the digest, hex or base64, runs to the first blank */
		while (s[i] && !ISWHITE(s[i]))
			i++;
		if (i == len)
			return MS_LINE_BAD;
	} else {
		if (i + st->hex_len >= len)
			return MS_LINE_BAD;
		i += st->hex_len;
		if (!ISWHITE(s[i]))
			return MS_LINE_BAD;
	}
	s[i++] = '\0';
	if ((how = cu_digest(r, hex, (size_t)(s + i - 1 - hex), st->hex_len,
	    e)) < 0)
		return MS_LINE_BAD;
	if (len - i == 1 || (s[i] != ' ' && s[i] != '*')) {
		/* One blank: BSD "reversed" lines, never mixed with GNU
		 * ones in a run, lest a name with a leading blank mislead. */
		if (st->reversed == 0)
			return MS_LINE_BAD;
		st->reversed = 1;
	} else if (st->reversed != 1) {
		st->reversed = 0;
		i++;
	}
	e->name = s + i;
	if (escaped && !ms_mf_unescape(s + i, len - i))
		return MS_LINE_BAD;
	return cu_spec(algo, ck, e, how);
}
