/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * manifest_native.c - multisum's own reading of a line, its
 * format detected on its own: BSD tags of every tool, GNU and BSD
 * reversed lines, xxhsum's XXH3_ lines, SFV and RHash name-first lines,
 * cksum's legacy lines with -a, NDJSON, gpg --print-md records (the
 * storage systems' tools' are manifest_storage.c's).  Pure.
 */
#include "manifest/manifest_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest/backend_s3.h"
#include "base/util.h"

/* memmem, which POSIX.1-2008 lacks. */
static const char *
ms_memmem(const char *h, size_t hl, const char *n, size_t nl)
{
	for (size_t i = 0; i + nl <= hl; i++)
		if (memcmp(h + i, n, nl) == 0)
			return h + i;
	return NULL;
}

/*
 * "TAG (NAME) = DIGEST" with any tag the algorithm table knows in any
 * case: coreutils' and ours ("SHA256", "BLAKE2b-256", "CRC"), RHash's
 * padded ones ("SHA1  (f)", "SHA-256", "RMD160"), xxhsum's, OpenSSL's
 * ("SHA2-256(f)= ", "SHAKE-128(f)= ").  A tag this build does not know
 * is an unsupported algorithm.  Returns -2 when the line is not tagged.
 */
static int
native_tagged(struct ms_manifest_state *st, char *s, size_t len, size_t i,
    bool escaped, struct ms_manifest_entry *e)
{
	char word[48];
	size_t j = i, k, close, dig;
	const char *why;
	bool known;
	struct ms_manifest_digest *d = &e->d[0];

	while (j < len && ms_mf_is_tag_char((unsigned char)s[j]))
		j++;
	for (k = j; k < len && s[k] == ' '; k++)
		continue;
	if (j == i || j - i >= sizeof(word) || k == len || s[k] != '(')
		return -2;
	memcpy(word, s + i, j - i);
	word[j - i] = '\0';
	k++;
	for (close = len; close > k && s[close - 1] != ')'; close--)
		continue;
	if (close == k)
		return -2;
	close--;
	j = close + 1;
	known = ms_algo_resolve(word, 0, &d->spec, &why) == 0;
	while (ISWHITE(s[j]))
		j++;
	if (s[j++] != '=')
		return known ? MS_LINE_BAD : -2;
	while (ISWHITE(s[j]))
		j++;
	dig = j;
	if (!known) {
		struct ms_manifest_digest tmp;

		/* "DIGEST  (name) = x" is a GNU line, not an unknown tag */
		if (ms_mf_decode_any(word, strlen(word), &tmp) && tmp.len >= 4)
			return -2;
		/* "BLAKE3 (f) = HEX" without BLAKE3: say so, once per line. */
		snprintf(st->why, sizeof(st->why), "unsupported algorithm %s",
		    word);
		e->why = st->why;
	} else if (!ms_mf_tag_digest(word, s + dig, len - dig, d)) {
		return MS_LINE_BAD;
	} else {
		e->n = 1;
		e->how = MS_BY_TAG;
	}
	s[close] = '\0';
	e->name = s + k;
	if (escaped && !ms_mf_unescape(s + k, close - k))
		return MS_LINE_BAD;
	/* An empty name is a file that cannot be opened, as in coreutils. */
	return known ? MS_LINE_ENTRY : MS_LINE_UNSUPPORTED;
}

/*
 * After the digest: "  NAME", " *NAME" or " NAME" (BSD reversed, never
 * mixed with GNU lines in one manifest).
 */
static enum ms_line
gnu_name(const struct ms_manifest_rules *r, struct ms_manifest_state *st,
    char *s, size_t len, size_t j, bool escaped, struct ms_manifest_entry *e)
{
	int reversed = st->reversed;

	j++;
	if (len - j == 1 || (s[j] != ' ' && s[j] != '*')) {
		if (reversed == 0)
			return MS_LINE_BAD;
		reversed = 1;
	} else if (reversed != 1) {
		reversed = 0;
		j++;
	}
	e->name = s + j;
	if (escaped && !r->zero && !ms_mf_unescape(s + j, len - j))
		return MS_LINE_BAD;
	st->reversed = reversed;
	return MS_LINE_ENTRY;
}

/*
 * "deadbeef 46EA081F": 8 hex digits, one blank, a name, 8 hex digits at
 * the end.  As a reversed line (md5 -r's shape) it would be a CRC-sized
 * digest of a file named "46EA081F"; as SFV, which writes exactly this
 * (rhash --sfv, multisum --format=sfv), the CRC-32 of "deadbeef".  The
 * digest of the line's start begins at i and ends at j.
 */
static bool
sfv_shaped(const char *s, size_t len, size_t i, size_t j)
{
	while (len > j && ISWHITE(s[len - 1]))
		len--;
	return j - i == 8 && s[j] == ' ' && s[j + 1] != ' ' &&
	    s[j + 1] != '*' && len >= j + 9 && ISWHITE(s[len - 9]) &&
	    ms_mf_all_hex(s + len - 8, 8);
}

/* "DIGEST  NAME", and xxhsum 0.8.3's "XXH3_HEX  NAME". */
static enum ms_line
native_gnu(const struct ms_manifest_rules *r, struct ms_manifest_state *st,
    char *s, size_t len, size_t i, bool escaped, struct ms_manifest_entry *e)
{
	size_t j = i;
	int reversed = st->reversed;
	enum ms_line rc;

	while (j < len && !ISWHITE(s[j]))
		j++;
	if (j == len)
		return MS_LINE_BAD;
	if (j - i > 5 && memcmp(s + i, "XXH3_", 5) == 0) {
		struct ms_manifest_digest *d = &e->d[0];

		if (!ms_mf_fit(ms_mf_algo_named("xxh3"), 8, &d->spec) ||
		    !ms_mf_decode_as(s + i + 5, j - i - 5, 8, d))
			return MS_LINE_BAD;
		e->n = 1;
		e->how = MS_BY_TAG;
		return gnu_name(r, st, s, len, j, escaped, e);
	}
	rc = ms_mf_untagged(r, st, s + i, j - i, e);
	if (rc == MS_LINE_BAD)
		return rc;
	if (gnu_name(r, st, s, len, j, escaped, e) != MS_LINE_ENTRY)
		return MS_LINE_BAD;
	if (sfv_shaped(s, len, i, j) && reversed != 1 && st->reversed == 1) {
		st->reversed = reversed;
		return MS_LINE_BAD;	/* native_sfv's */
	}
	return rc;
}

/*
 * SFV and RHash: "NAME DIGEST..." with one or more digests after the
 * name (rhash --sfv --sha256, rhash --md5 --sha1 --sha256).  In a line
 * that puts the name first, 8 hex digits are SFV's CRC-32.
 */
static enum ms_line
native_sfv(const struct ms_manifest_rules *r, const struct ms_manifest_state *st,
    char *s, size_t len, size_t i, struct ms_manifest_entry *e)
{
	size_t end = len, sp, first;
	size_t starts[MS_MANIFEST_DIGESTS], lens[MS_MANIFEST_DIGESTS], cnt = 0;
	size_t bytes[MS_MANIFEST_DIGESTS];	/* each digest's, decoded */
	struct ms_manifest_state plain = *st;
	enum ms_resolved how = MS_BY_FORMAT;

	plain.name_algo = NULL;
	/* The digests, from the end: the rest is the name. */
	for (;;) {
		while (end > i && ISWHITE(s[end - 1]))
			end--;
		for (sp = end; sp > i && !ISWHITE(s[sp - 1]); sp--)
			continue;
		if (sp == i || end - sp < 8) {
			break;
		} else {
			struct ms_manifest_digest tmp;

			if (!ms_mf_decode_any(s + sp, end - sp, &tmp))
				break;
			if (cnt < MS_MANIFEST_DIGESTS)
				bytes[cnt] = tmp.len;
		}
		if (cnt == MS_MANIFEST_DIGESTS)
			return MS_LINE_BAD;
		starts[cnt] = sp;
		lens[cnt++] = end - sp;
		end = sp;
	}
	if (cnt == 0)
		return MS_LINE_BAD;
	first = end;
	while (first > i && ISWHITE(s[first - 1]))
		first--;
	if (first == i)
		return MS_LINE_BAD;
	s[first] = '\0';
	e->name = s + i;
	e->n = 0;
	e->guessed = 0;
	for (size_t k = cnt; k-- > 0;) {
		const char *tok = s + starts[k];
		size_t same = 0, pos = 0;
		enum ms_line rc;

		/* Digests of one length are told apart by their places. */
		for (size_t j = 0; j < cnt; j++)
			if (bytes[j] == bytes[k]) {
				same++;
				pos += j > k;
			}
		if (same > 1) {
			rc = ms_mf_positional(r, tok, lens[k], pos, same, e);
			if (rc != MS_LINE_ENTRY)
				return rc;
			how = e->how;
			continue;
		}
		if (lens[k] == 8 && ms_mf_all_hex(tok, 8) &&
		    (r->given == NULL || r->given->cnt == 0)) {
			struct ms_manifest_digest *d = &e->d[e->n];

			/* SFV's CRC-32; CRC-32C and XXH32 write 8 too */
			if (!ms_mf_fit(ms_mf_algo_named("crc32"), 4, &d->spec) ||
			    !ms_mf_decode_as(tok, 8, 4, d))
				return MS_LINE_BAD;
			e->guessed |= 1u << e->n++;
			continue;
		}
		rc = ms_mf_untagged(r, cnt == 1 ? st : &plain, tok, lens[k], e);
		if (rc != MS_LINE_ENTRY)
			return rc;
		if (e->how != MS_BY_FORMAT)
			how = e->how;
	}
	e->how = how;
	return MS_LINE_ENTRY;
}

/*
 * A legacy sum with -a cksum, -a bsd or -a sysv: "VALUE SIZE NAME".
 * Without -a, cksum's own "%u %u %s" (multisum -a cksum writes it) with
 * a VALUE past 16 bits is cksum's: sum's are 16-bit; below, the line
 * says that -a must tell them apart.
 */
static enum ms_line
native_legacy(const struct ms_manifest_rules *r, char *s, size_t len, size_t i,
    struct ms_manifest_entry *e)
{
	struct ms_digest_spec cksum;
	const struct ms_digest_spec *g = NULL;
	struct ms_manifest_digest *d = &e->d[0];
	bool guess = r->given == NULL || r->given->cnt == 0;
	unsigned long long v;
	char *end;

	for (size_t k = 0; r->given != NULL && k < r->given->cnt; k++)
		if (r->given->spec[k].algo->legacy != MS_LEGACY_NONE)
			g = &r->given->spec[k];
	if ((g == NULL && !guess) || s[i] < '0' || s[i] > '9')
		return MS_LINE_BAD;
	errno = 0;
	v = strtoull(s + i, &end, 10);
	if (g == NULL) {
		/* cksum's shape exactly: one space, no leading zero */
		if (errno != 0 || *end != ' ' || end[1] < '0' || end[1] > '9' ||
		    (s[i] == '0' && end - (s + i) > 1) || v > 0xffffffffu ||
		    !ms_mf_fit(ms_mf_algo_named("cksum"), 4, &cksum))
			return MS_LINE_BAD;
		g = &cksum;
	}
	if (errno != 0 || *end != ' ' || v >> (8 * ms_spec_len(g)) != 0)
		return MS_LINE_BAD;
	while (*end == ' ')
		end++;
	if (*end < '0' || *end > '9')
		return MS_LINE_BAD;
	while (*end >= '0' && *end <= '9')
		end++;
	if (*end != ' ' || end + 1 >= s + len)
		return MS_LINE_BAD;
	d->spec = *g;
	d->len = ms_spec_len(g);
	for (size_t k = 0; k < d->len; k++)
		d->digest[k] = (unsigned char)(v >> (8 * (d->len - 1 - k)));
	e->n = 1;
	e->how = g == &cksum ? MS_BY_DECIMAL : MS_BY_OPTION;
	e->name = end + 1;
	if (g == &cksum && v <= 0xffff) {
		e->why = "a 'SUM SIZE NAME' line of cksum, sum -r or sum -s: "
		    "say which with -a cksum, -a bsd or -a sysv";
		return MS_LINE_UNSUPPORTED;
	}
	return MS_LINE_ENTRY;
}

/*
 * A line of --format=ndjson: {"path":NAME,"size":N,"sha256":"HEX",...}.
 * Keys that name no algorithm are ignored; every digest must match.
 */
static enum ms_line
native_json(char *s, size_t len, struct ms_manifest_entry *e)
{
	char *p = s + 1, *end = s + len;

	e->n = 0;
	e->guessed = 0;
	e->how = MS_BY_TAG;
	for (;;) {
		char *key, *val = NULL;

		while (p < end && ISWHITE(*p))
			p++;
		if (p < end && *p == '}' && e->name != NULL)
			break;
		if (p == end || *p++ != '"' || (key = ms_mf_json_string(&p, end)) == NULL)
			return MS_LINE_BAD;
		while (p < end && ISWHITE(*p))
			p++;
		if (p == end || *p++ != ':')
			return MS_LINE_BAD;
		while (p < end && ISWHITE(*p))
			p++;
		if (p < end && *p == '"') {
			p++;
			if ((val = ms_mf_json_string(&p, end)) == NULL)
				return MS_LINE_BAD;
		} else {
			while (p < end && *p != ',' && *p != '}')
				p++;
		}
		if (strcmp(key, "path") == 0) {
			if (val == NULL)
				return MS_LINE_BAD;
			e->name = val;
		} else if (val != NULL) {
			struct ms_manifest_digest *d = &e->d[e->n];
			const char *why;

			if (ms_algo_resolve(key, 0, &d->spec, &why) == 0) {
				if (e->n == MS_MANIFEST_DIGESTS ||
				    !ms_mf_tag_digest(key, val, strlen(val), d))
					return MS_LINE_BAD;
				e->n++;
			}
		}
		while (p < end && ISWHITE(*p))
			p++;
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		if (p < end && *p == '}')
			break;
		return MS_LINE_BAD;
	}
	while (++p < end)
		if (!ISWHITE(*p))
			return MS_LINE_BAD;
	if (e->name == NULL || e->n == 0)
		return MS_LINE_BAD;
	return MS_LINE_ENTRY;
}

/* At least min upper-case hex groups of 2, 4 or 8 digits, spaces apart. */
bool
ms_mf_hex_groups(const char *s, size_t len, size_t min)
{
	size_t groups = 0, i = 0;

	while (i < len) {
		size_t g = 0;

		while (i + g < len && ((s[i + g] >= '0' && s[i + g] <= '9') ||
		    (s[i + g] >= 'A' && s[i + g] <= 'F')))
			g++;
		if (g != 2 && g != 4 && g != 8)
			return false;
		groups++;
		i += g;
		while (i < len && s[i] == ' ')
			i++;
	}
	return groups >= min;
}

/*
 * gpg --print-md: "NAME: D40B2215 A0BF652F ..." over one or more lines,
 * and Apache's .mds files, "NAME:    SHA1 = 2C24 ...".  Is s the first
 * line of a record?  Then the name ends at *name_end and the groups
 * start at *groups; an algorithm named before them goes to alg.
 */
static bool
gpg_first(const char *s, size_t len, size_t *name_end, size_t *groups,
    char *alg, size_t algcap)
{
	for (size_t c = 1; c + 2 < len; c++) {
		size_t g = c + 1, w;

		if (s[c] != ':' || s[c + 1] != ' ')
			continue;
		while (g < len && s[g] == ' ')
			g++;
		alg[0] = '\0';
		for (w = g; w < len && ms_mf_is_tag_char((unsigned char)s[w]); w++)
			continue;
		if (w > g && w - g < algcap) {
			size_t eq = w;

			while (eq < len && s[eq] == ' ')
				eq++;
			if (eq < len && s[eq] == '=') {
				memcpy(alg, s + g, w - g);
				alg[w - g] = '\0';
				for (g = eq + 1; g < len && s[g] == ' '; g++)
					continue;
			}
		}
		if (ms_mf_hex_groups(s + g, len - g, alg[0] != '\0' ? 1 : 2)) {
			*name_end = c;
			*groups = g;
			return true;
		}
	}
	return false;
}

/* The hex digits of groups, appended to the open record. */
void
ms_mf_gpg_append(struct ms_manifest_state *st, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (ms_mf_is_xdigit((unsigned char)s[i])) {
			if (st->gpg_hexlen + 1 < sizeof(st->gpg_hex))
				st->gpg_hex[st->gpg_hexlen] = s[i];
			st->gpg_hexlen++;	/* too long: refused at the end */
		}
}

/* Start a record; the line holds nothing else. */
static void
gpg_open(struct ms_manifest_state *st, const char *s, size_t len,
    size_t name_end, size_t groups, bool outside)
{
	free(st->gpg_name);
	st->gpg_name = ms_xmalloc(name_end + 1);
	memcpy(st->gpg_name, s, name_end);
	st->gpg_name[name_end] = '\0';
	st->gpg_hexlen = 0;
	st->gpg_outside = outside;
	st->gpg_pending = true;
	ms_mf_gpg_append(st, s + groups, len - groups);
}

/* The open record as an entry. */
enum ms_line
ms_mf_gpg_close(const struct ms_manifest_rules *r, struct ms_manifest_state *st,
    struct ms_manifest_entry *e)
{
	struct ms_manifest_digest *d = &e->d[0];
	const char *why;

	st->gpg_pending = false;
	free(st->gpg_given);
	st->gpg_given = st->gpg_name;
	st->gpg_name = NULL;
	e->name = st->gpg_given;
	e->outside = st->gpg_outside;
	if (st->gpg_hexlen >= sizeof(st->gpg_hex))
		return MS_LINE_BAD;
	if (st->gpg_alg[0] != '\0') {
		if (ms_algo_resolve(st->gpg_alg, 0, &d->spec, &why) == -1) {
			e->why = "unsupported algorithm";
			return MS_LINE_UNSUPPORTED;
		}
		if (!ms_mf_decode_as(st->gpg_hex, st->gpg_hexlen, ms_spec_len(&d->spec), d))
			return MS_LINE_BAD;
		e->n = 1;
		e->how = MS_BY_TAG;
		return MS_LINE_ENTRY;
	}
	return ms_mf_untagged(r, st, st->gpg_hex, st->gpg_hexlen, e);
}

/*
 * In an SFV manifest (by its name, or its ; comments: rhash --sfv), a
 * file may be called 'x (y) = z': a line that is no tagged line of a
 * known algorithm, but an SFV line, is read as SFV.  Both parsers write
 * into the line, so each first tries a copy.
 */
static bool
sfv_over_tag(const struct ms_manifest_rules *r, struct ms_manifest_state *st,
    char *s, size_t len, size_t start, struct ms_manifest_entry *e)
{
	char *copy = ms_xmalloc(len + 1);
	struct ms_manifest_entry tmp = *e;
	bool sfv = false;
	int t;

	memcpy(copy, s, len + 1);
	t = native_tagged(st, copy, len, start, false, &tmp);
	if (t != -2 && t != MS_LINE_ENTRY) {
		memcpy(copy, s, len + 1);
		tmp = *e;
		sfv = native_sfv(r, st, copy, len, start, &tmp) == MS_LINE_ENTRY;
	}
	free(copy);
	if (sfv) {
		tmp = *e;
		native_sfv(r, st, s, len, start, &tmp);
		*e = tmp;
	}
	return sfv;
}

/*
 * The length of the digest a line opens with (after a '\\'), up to a
 * blank; 0 if it opens with none.  Such a line is no gpg record; if a
 * GNU separator ("  " or " *") follows, it is no storage tool's line
 * either, whatever its name holds: a name may well contain "\tNONE" or
 * "\tMD5-of-0MD5-..." (the hadoop shape), and multisum writes names as
 * they are.
 */
static size_t
digest_first(const char *s, size_t len)
{
	struct ms_manifest_digest tmp;
	size_t n = strcspn(s, " \t");

	if (n > len)
		n = len;
	return ms_mf_decode_any(s, n, &tmp) && tmp.len >= 4 ? n : 0;
}

enum ms_line
ms_mf_native_parse(const struct ms_manifest_rules *r, struct ms_manifest_state *st,
    char *s, size_t len, struct ms_manifest_entry *e)
{
	size_t i = 0, start;
	bool escaped = false;
	enum ms_line rc;
	int t;

	while (i < len && ISWHITE(s[i]))
		i++;
	/* Like coreutils, a NUL ends a plain name and spoils an escaped one. */
	if (strnlen(s, len) < len) {
		size_t nul = strnlen(s, len);

		/* Another checksum line after the NUL: lines of -z, never
		 * half read.  Else coreutils' rule: the NUL ends the name. */
		if (len - nul > 9) {
			const char *next = s + nul + 1;
			size_t h = 0;

			while (h < len - nul - 1 && ms_mf_is_xdigit((unsigned char)next[h]))
				h++;
			if ((h >= 8 && ISWHITE(next[h])) ||
			    ms_memmem(next, len - nul - 1, ") = ", 4) != NULL) {
				e->why = "NUL-terminated lines: read them with -c -z";
				return MS_LINE_BAD;
			}
		}
		if (s[i] == '\\')
			return MS_LINE_BAD;
		len = nul;
	}
	if (i == len || s[i] == '#')
		return MS_LINE_SKIP;
	{
		size_t d0 = i + (s[i] == '\\'), n = digest_first(s + d0, len - d0);
		size_t name_end, groups;

		if ((n == 0 || d0 + n + 2 > len || s[d0 + n] != ' ' ||
		    (s[d0 + n + 1] != ' ' && s[d0 + n + 1] != '*')) &&
		    (t = ms_mf_storage_parse(st, s + i, len - i, e)) != -2)
			return (enum ms_line)t;
		if (n == 0 && gpg_first(s, len, &name_end, &groups,
		    st->gpg_alg, sizeof(st->gpg_alg))) {
			gpg_open(st, s, len, name_end, groups, e->outside);
			return MS_LINE_SKIP;
		}
	}
	if (s[i] == ';') {
		st->sfv = true;		/* SFV files open with ; comments */
		return MS_LINE_SKIP;
	}
	if (s[i] == '{')
		return native_json(s + i, len - i, e);
	start = i;
	if (s[i] == '\\' && !r->zero) {
		i++;
		escaped = true;
	}
	if (st->sfv && !escaped && sfv_over_tag(r, st, s, len, start, e))
		return MS_LINE_ENTRY;
	t = native_tagged(st, s, len, i, escaped, e);
	if (t != -2)
		return (enum ms_line)t;
	/* A file holding only the digest: "x.iso.sha256" names "x.iso". */
	if (st->own_name != NULL && !escaped &&
	    strcspn(s + i, " \t") == len - i) {
		rc = ms_mf_untagged(r, st, s + i, len - i, e);
		e->name = st->own_name;
		return rc;
	}
	if ((rc = native_legacy(r, s, len, i, e)) != MS_LINE_BAD)
		return rc;
	if (st->sfv || (rc = native_gnu(r, st, s, len, i, escaped, e)) ==
	    MS_LINE_BAD) {
		struct ms_manifest_entry tmp = *e;

		tmp.n = 0;
		tmp.guessed = 0;
		tmp.why = NULL;
		rc = native_sfv(r, st, s, len, start, &tmp);
		if (rc != MS_LINE_BAD || st->sfv)
			*e = tmp;
		else
			rc = MS_LINE_BAD;
	}
	return rc;
}
