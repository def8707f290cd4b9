/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * manifest_coreutils.c - the rules of one GNU coreutils 9.1 tool
 * (md5sum, sha*sum, b2sum, cksum), reproduced quirk for quirk for the
 * personalities, including the state those tools carry from line to
 * line.  Pure, as manifest.c.
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
 * no tag or the tag of a format `cksum -c` cannot check. */
static const struct ms_algo *
cksum_tag(const char *s)
{
	size_t i = 0;

	while (i <= CKSUM_TAG_MAX && s[i] && !ISWHITE(s[i]) && s[i] != '-' &&
	    s[i] != '(')
		i++;
	if (i > CKSUM_TAG_MAX)
		return NULL;
	for (size_t k = 0; k < ms_cksum_algo_count; k++) {
		const struct ms_algo *a = ms_algo_named(ms_cksum_algos[k].algo);

		if (strlen(a->tag) == i && memcmp(a->tag, s, i) == 0)
			return a->legacy == MS_LEGACY_NONE ? a : NULL;
	}
	return NULL;
}

static bool
decode_hex(struct ms_manifest_entry *e, const char *hex, size_t hexlen)
{
	if (hexlen / 2 > sizeof(e->d[0].digest) ||
	    ms_unhex(e->d[0].digest, hex, hexlen / 2) == -1)
		return false;
	e->d[0].len = hexlen / 2;
	e->n = 1;
	return true;
}

/* Exactly hexlen hex digits, then the end of the string. */
static bool
hex_then_end(const char *s, size_t hexlen)
{
	for (size_t i = 0; i < hexlen; i++)
		if (!ms_mf_is_xdigit((unsigned char)s[i]))
			return false;
	return s[hexlen] == '\0';
}

/* "NAME) = HEX" after the '(' of a tagged line (coreutils' bsd_split_3). */
static bool
cu_tagged_rest(char *s, size_t len, bool escaped, size_t hexlen,
    struct ms_manifest_entry *e)
{
	size_t i;

	if (len == 0)
		return false;
	for (i = len - 1; i > 0 && s[i] != ')'; i--)
		continue;
	if (s[i] != ')')
		return false;
	e->name = s;
	if (escaped && !ms_mf_unescape(s, i))
		return false;
	s[i++] = '\0';
	while (ISWHITE(s[i]))
		i++;
	if (s[i++] != '=')
		return false;
	while (ISWHITE(s[i]))
		i++;
	return hex_then_end(s + i, hexlen) && decode_hex(e, s + i, hexlen);
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

/* BLAKE2b of bits: coreutils' b2sum -l, a different function per length. */
static bool
blake2b_spec(size_t bits, struct ms_digest_spec *spec)
{
	const char *why;

	return ms_algo_resolve("blake2b", (unsigned)bits, spec, &why) == 0;
}

/* The entry's algorithm once its digest is known. */
static bool
cu_spec(const struct ms_algo *algo, struct ms_manifest_entry *e)
{
	e->how = MS_BY_TAG;
	if (strcmp(algo->name, "blake2b") == 0)
		return blake2b_spec(e->d[0].len * 8, &e->d[0].spec);
	/* cksum's "SHA256-128" compares a prefix of the full digest */
	e->d[0].spec = (struct ms_digest_spec){ .algo = algo,
	    .bits = algo->bits };
	return true;
}

/* One line by the rules of coreutils 9.1's split_3. */
enum ms_line
ms_mf_cu_parse(const struct ms_manifest_rules *r, struct ms_manifest_state *st,
    char *s, size_t len, struct ms_manifest_entry *e)
{
	const struct ms_algo *algo = r->tool;
	bool escaped = false;
	size_t i = 0, taglen;
	char *hex;

	while (ISWHITE(s[i]))
		i++;
	if (s[i] == '\\') {
		i++;
		escaped = true;
	}
	if (r->dialect == MS_DIALECT_CKSUM) {
		/* Without -a only tagged lines, and not the legacy sums. */
		if ((algo = cksum_tag(s + i)) == NULL)
			return MS_LINE_BAD;
		st->cksum_algo = algo;
	}
	taglen = strlen(algo->tag);
	if (strncmp(s + i, algo->tag, taglen) == 0) {
		uintmax_t bits = algo->bits;

		i += taglen;
		if (r->tag_length) {
			/* The byte after the tag is consumed, whatever it
			 * is, unless it opens the name. */
			bool with_len = s[i] == '-';

			if (s[i] != '(' && i++ == len)
				return MS_LINE_BAD;
			if (with_len) {
				char *end;
				uintmax_t v;

				if (!cu_length(s + i, &end, &v) || v == 0 ||
				    v > bits || v % 8 != 0)
					return MS_LINE_BAD;
				i = (size_t)(end - s);
				bits = v;
			}
			st->hex_len = (size_t)bits / 4;
		}
		if (s[i] == ' ')
			i++;
		if (s[i] != '(')
			return MS_LINE_BAD;
		i++;
		if (!cu_tagged_rest(s + i, len - i, escaped, st->hex_len, e))
			return MS_LINE_BAD;
		return cu_spec(algo, e) ? MS_LINE_ENTRY : MS_LINE_BAD;
	}

	if (len - i < r->min_line + (s[i] == '\\'))
		return MS_LINE_BAD;
	hex = s + i;
	if (r->auto_length) {
		size_t n = 0;

		while (ms_mf_is_xdigit((unsigned char)hex[n]))
			n++;
		if (n < 2 || n % 2 != 0 || n > 128)
			return MS_LINE_BAD;
		st->hex_len = n;
	}
	if (i + st->hex_len >= len)
		return MS_LINE_BAD;
	i += st->hex_len;
	if (!ISWHITE(s[i]))
		return MS_LINE_BAD;
	s[i++] = '\0';
	if (!hex_then_end(hex, st->hex_len))
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
	if (!decode_hex(e, hex, st->hex_len))
		return MS_LINE_BAD;
	return cu_spec(algo, e) ? MS_LINE_ENTRY : MS_LINE_BAD;
}
