/*
 * manifest.c - manifest lines into entries: name, algorithm, digest.
 *
 * Owns every rule about what a checksum line may look like, for
 * multisum's own reading (each line's format detected on its own) and
 * for the coreutils 9.1 personalities (one tool's rules, including the
 * state those tools carry from line to line).  Pure: it never does I/O,
 * never prints and never decides what a bad line costs.
 */
#include "manifest.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cloud.h"
#include "util.h"

#define ISWHITE(c)	((c) == ' ' || (c) == '\t')

static bool
is_xdigit(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/* Characters of a tag: "SHA2-512/256", "BLAKE2b-256", "XXH3_64". */
static bool
is_tag_char(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z') || c == '-' || c == '_' || c == '/';
}

static const struct ms_algo *
algo_named(const char *name)
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
static bool
unescape(char *s, size_t n)
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

/* Remove the newline, then one carriage return; is anything left? */
static size_t
chomp(const char *line, size_t len)
{
	if (len > 0 && line[len - 1] == '\n')
		len--;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	return len;
}

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
	if (hexlen / 2 > sizeof(e->digest) ||
	    ms_unhex(e->digest, hex, hexlen / 2) == -1)
		return false;
	e->digest_len = hexlen / 2;
	return true;
}

/* Exactly hexlen hex digits, then the end of the string. */
static bool
hex_then_end(const char *s, size_t hexlen)
{
	for (size_t i = 0; i < hexlen; i++)
		if (!is_xdigit((unsigned char)s[i]))
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
	if (escaped && !unescape(s, i))
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
	if (strcmp(algo->name, "blake2b") == 0)
		return blake2b_spec(e->digest_len * 8, &e->spec);
	/* cksum's "SHA256-128" compares a prefix of the full digest */
	e->spec.algo = algo;
	e->spec.bits = algo->bits;
	return true;
}

/* One line by the rules of coreutils 9.1's split_3. */
static enum ms_line
cu_parse(const struct ms_manifest_rules *r, struct ms_manifest_state *st,
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

		while (is_xdigit((unsigned char)hex[n]))
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
	if (escaped && !unescape(s + i, len - i))
		return MS_LINE_BAD;
	if (!decode_hex(e, hex, st->hex_len))
		return MS_LINE_BAD;
	return cu_spec(algo, e) ? MS_LINE_ENTRY : MS_LINE_BAD;
}

/* ------------------------------------------------------------- native */

/*
 * Untagged digests by length, when nothing else tells (SPEC.md).  Some
 * lengths are shared with digests that tools write untagged (rhash
 * --simple's CRC32, xxhsum's XXH32, XXH64 and XXH128, b2sum's BLAKE2b,
 * b3sum's BLAKE3):
 * those are tried beside the first.  Matching any of them is as hard as
 * matching the weakest, which for a cryptographic length is one of two
 * unbroken functions.
 */
static const struct {
	size_t		 len;
	const char	*algo;		/* the likeliest */
	const char	*alt[MS_MANIFEST_ALTS];	/* others of that length */
} by_length[] = {
	{ .len = 4, .algo = "crc32", .alt = { "xxh32" } },
	{ .len = 8, .algo = "xxh64", .alt = { "xxh3" } },
	{ .len = 16, .algo = "md5", .alt = { "xxh128" } },
	{ .len = 20, .algo = "sha1" },
	{ .len = 28, .algo = "sha224" },
	{ .len = 32, .algo = "sha256",
	  .alt = { [0] = "blake3", [1] = "blake2b-256" } },
	{ .len = 48, .algo = "sha384" },
	{ .len = 64, .algo = "sha512",
	  .alt = { [0] = "blake2b", [1] = "blake3" } },
};

/* Manifest file names: the stem or extension, and the algorithm. */
static const struct {
	const char	*stem;
	const char	*algo;
} name_alias[] = {
	{ .stem = "b2", .algo = "blake2b" },
	{ .stem = "blake2", .algo = "blake2b" },
	{ .stem = "sfv", .algo = "crc32" },
	{ .stem = "ripemd", .algo = "ripemd160" },
};

static bool
usable(const struct ms_algo *a)
{
	return a != NULL && a->legacy == MS_LEGACY_NONE;
}

/* spec for a digest of n bytes under algorithm a (fixed or a family). */
static bool
fit(const struct ms_algo *a, size_t n, struct ms_digest_spec *spec)
{
	const char *why;

	if (!usable(a) || n == 0 || n > MS_DIGEST_MAX)
		return false;
	if (a->bits == n * 8 && a->min_bits == a->max_bits) {
		spec->algo = a;
		spec->bits = a->bits;
		return true;
	}
	return a->family != NULL &&
	    ms_algo_resolve(a->family, (unsigned)(n * 8), spec, &why) == 0 &&
	    ms_spec_len(spec) == n;
}

/* Hex (any case) or canonical base64 into e; false if neither. */
static bool
decode_digest(const char *tok, size_t n, struct ms_manifest_entry *e)
{
	long got;

	if (n % 2 == 0 && n / 2 <= sizeof(e->digest) &&
	    ms_unhex(e->digest, tok, n / 2) == 0) {
		e->digest_len = n / 2;
		return true;
	}
	got = ms_unbase64(e->digest, sizeof(e->digest), tok, n);
	if (got <= 0) {
		const char *implied;	/* S3's "ETAG-N", "BASE64-N" */

		return ms_cloud_decode(tok, n, e->digest, sizeof(e->digest),
		    &e->digest_len, &implied) == 1;
	}
	e->digest_len = (size_t)got;
	return true;
}

/* The algorithm(s) of an untagged line whose digest has n bytes. */
static bool
untagged_spec(const struct ms_manifest_rules *r,
    const struct ms_manifest_state *st, size_t n, struct ms_manifest_entry *e)
{
	e->nalt = 0;
	if (r->given != NULL && r->given->cnt > 0) {
		for (size_t k = 0; k < r->given->cnt; k++)
			if (ms_spec_len(&r->given->spec[k]) == n &&
			    usable(r->given->spec[k].algo)) {
				e->spec = r->given->spec[k];
				return true;
			}
		return false;
	}
	if (st->name_algo != NULL && fit(st->name_algo, n, &e->spec))
		return true;
	for (size_t k = 0; k < MS_ARRAY_LEN(by_length); k++) {
		if (by_length[k].len != n)
			continue;
		for (size_t a = 0; a < MS_MANIFEST_ALTS && by_length[k].alt[a]; a++)
			if (fit(algo_named(by_length[k].alt[a]), n, &e->alt[e->nalt]))
				e->nalt++;
		return fit(algo_named(by_length[k].algo), n, &e->spec);
	}
	return false;
}

/* The digest after "= ", trailing blanks ignored; false if it is not one. */
static bool
tag_digest(char *s, size_t len, const struct ms_digest_spec *spec,
    struct ms_manifest_entry *e)
{
	while (len > 0 && ISWHITE(s[len - 1]))
		len--;
	return decode_digest(s, len, e) && e->digest_len == ms_spec_len(spec);
}

/*
 * "TAG (NAME) = DIGEST" with any tag the algorithm table knows in any
 * case: coreutils' and ours ("SHA256", "BLAKE2b-256"), RHash's padded
 * ones ("SHA1  (f)", "SHA-256", "RMD160"), xxhsum's, OpenSSL's
 * ("SHA2-256(f)= ").  Returns -2 when the line is not tagged at all.
 */
static int
native_tagged(char *s, size_t len, size_t i, bool escaped,
    struct ms_manifest_entry *e)
{
	char word[48];
	size_t j = i, k, close;
	const char *why;

	while (j < len && is_tag_char((unsigned char)s[j]))
		j++;
	for (k = j; k < len && s[k] == ' '; k++)
		continue;
	if (j == i || j - i >= sizeof(word) || k == len || s[k] != '(')
		return -2;
	memcpy(word, s + i, j - i);
	word[j - i] = '\0';
	if (ms_algo_resolve(word, 0, &e->spec, &why) == -1)
		return -2;
	if (!usable(e->spec.algo))
		return MS_LINE_BAD;
	k++;
	for (close = len; close > k && s[close - 1] != ')'; close--)
		continue;
	if (close == k)
		return MS_LINE_BAD;
	close--;
	j = close + 1;
	while (ISWHITE(s[j]))
		j++;
	if (s[j++] != '=')
		return MS_LINE_BAD;
	while (ISWHITE(s[j]))
		j++;
	if (!tag_digest(s + j, len - j, &e->spec, e))
		return MS_LINE_BAD;
	s[close] = '\0';
	e->name = s + k;
	if (escaped && !unescape(s + k, close - k))
		return MS_LINE_BAD;
	/* An empty name is a file that cannot be opened, as in coreutils. */
	return MS_LINE_ENTRY;
}

/* "DIGEST  NAME", "DIGEST *NAME" or "DIGEST NAME" (BSD reversed). */
static enum ms_line
native_gnu(const struct ms_manifest_rules *r, struct ms_manifest_state *st,
    char *s, size_t len, size_t i, bool escaped, struct ms_manifest_entry *e)
{
	size_t j = i;
	int reversed = st->reversed;

	while (j < len && !ISWHITE(s[j]))
		j++;
	if (j == len || !decode_digest(s + i, j - i, e) ||
	    !untagged_spec(r, st, e->digest_len, e))
		return MS_LINE_BAD;
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
	if (escaped && !unescape(s + j, len - j))
		return MS_LINE_BAD;
	st->reversed = reversed;
	return MS_LINE_ENTRY;
}

/* SFV: "NAME CRC32" with the CRC in hex, the name first. */
static enum ms_line
native_sfv(char *s, size_t len, size_t i, struct ms_manifest_entry *e)
{
	size_t end = len, sp;

	while (end > i && ISWHITE(s[end - 1]))
		end--;
	for (sp = end; sp > i && !ISWHITE(s[sp - 1]); sp--)
		continue;
	if (end - sp != 8 || sp == i || !decode_digest(s + sp, 8, e) ||
	    !fit(algo_named("crc32"), e->digest_len, &e->spec))
		return MS_LINE_BAD;
	while (sp > i && ISWHITE(s[sp - 1]))
		sp--;
	if (sp == i)
		return MS_LINE_BAD;
	s[sp] = '\0';
	e->name = s + i;
	return MS_LINE_ENTRY;
}

static enum ms_line
native_parse(const struct ms_manifest_rules *r, struct ms_manifest_state *st,
    char *s, size_t len, struct ms_manifest_entry *e)
{
	size_t i = 0, start;
	bool escaped = false;
	int rc;

	while (i < len && ISWHITE(s[i]))
		i++;
	/* Like coreutils, a NUL ends a plain name and spoils an escaped one. */
	if (strnlen(s, len) < len) {
		if (s[i] == '\\')
			return MS_LINE_BAD;
		len = strnlen(s, len);
	}
	if (i == len || s[i] == '#')
		return MS_LINE_SKIP;
	if (s[i] == ';') {
		st->sfv = true;		/* SFV files open with ; comments */
		return MS_LINE_SKIP;
	}
	start = i;
	if (s[i] == '\\') {
		i++;
		escaped = true;
	}
	rc = native_tagged(s, len, i, escaped, e);
	if (rc != -2)
		return (enum ms_line)rc;
	if (st->sfv)
		return native_sfv(s, len, start, e);
	return native_gnu(r, st, s, len, i, escaped, e);
}

/* --------------------------------------------------------- interface */

void
ms_manifest_begin(const struct ms_manifest_rules *r,
    struct ms_manifest_state *st, const char *path)
{
	st->line = 0;
	st->from_stdin = strcmp(path, "-") == 0;
	if (r->dialect != MS_DIALECT_NATIVE) {
		/* The tools keep these for the whole run. */
		if (st->hex_len == 0 && r->tool != NULL)
			st->hex_len = r->tool->bits / 4;
		return;
	}
	st->reversed = -1;
	st->name_algo = st->from_stdin ? NULL :
	    ms_manifest_name_algo(path, &st->sfv);
}

enum ms_line
ms_manifest_parse(const struct ms_manifest_rules *r,
    struct ms_manifest_state *st, char *line, size_t len,
    struct ms_manifest_entry *e)
{
	enum ms_line rc;

	st->line++;
	if (r->dialect == MS_DIALECT_NATIVE && st->line == 1 && len >= 3 &&
	    memcmp(line, "\xef\xbb\xbf", 3) == 0) {
		line += 3;
		len -= 3;
	}
	if (len == 0 || line[0] == '#')
		return MS_LINE_SKIP;
	len = chomp(line, len);
	if (len == 0)
		return MS_LINE_SKIP;
	line[len] = '\0';
	memset(e, 0, offsetof(struct ms_manifest_entry, digest));
	if (r->dialect == MS_DIALECT_NATIVE)
		rc = native_parse(r, st, line, len, e);
	else
		rc = cu_parse(r, st, line, len, e);
	/* "-" would be the manifest itself. */
	if (rc == MS_LINE_ENTRY && st->from_stdin && strcmp(e->name, "-") == 0)
		rc = MS_LINE_BAD;
	return rc;
}

int
ms_manifest_expect(const char *text, const struct ms_selection *given,
    struct ms_manifest_entry *e)
{
	struct ms_manifest_rules r = { .dialect = MS_DIALECT_NATIVE,
	    .given = given };
	struct ms_manifest_state st = { .reversed = -1 };

	const char *implied;
	int cloud;

	memset(e, 0, sizeof(*e));
	/* S3's and GCS's spellings (cloud.c), else hex or base64 */
	cloud = ms_cloud_expect(text, e->digest, sizeof(e->digest),
	    &e->digest_len, &implied);
	if (cloud == -1 || (cloud == 0 && !decode_digest(text, strlen(text), e)))
		return -1;
	if (cloud == 1 && given == NULL)	/* "BASE64-N" of a CRC needs -a */
		return implied != NULL &&
		    fit(algo_named(implied), e->digest_len, &e->spec) ? 0 : -1;
	if (!untagged_spec(&r, &st, e->digest_len, e))
		return -1;
	return 0;
}

const char *
ms_manifest_type(const struct ms_manifest_rules *r,
    const struct ms_manifest_state *st)
{
	switch (r->dialect) {
	case MS_DIALECT_COREUTILS:
		return r->tool->tag;
	case MS_DIALECT_CKSUM:
		return st->cksum_algo != NULL ? st->cksum_algo->tag : "CRC";
	case MS_DIALECT_NATIVE:
		break;
	}
	if (r->given != NULL && r->given->cnt == 1)
		return r->given->spec[0].algo->tag;
	if (r->given == NULL || r->given->cnt == 0)
		return st->name_algo != NULL ? st->name_algo->tag : NULL;
	return NULL;
}

/* Does s end with suffix, in any case?  Returns the length before it. */
static size_t
strip_suffix(const char *s, size_t n, const char *suffix)
{
	size_t sl = strlen(suffix);
	char tmp[16];

	if (n <= sl || sl >= sizeof(tmp))
		return n;
	memcpy(tmp, s + n - sl, sl);
	tmp[sl] = '\0';
	return ms_strcaseeq(tmp, suffix) ? n - sl : n;
}

const struct ms_algo *
ms_manifest_name_algo(const char *path, bool *sfv)
{
	const char *base = strrchr(path, '/');
	const char *dot, *stem;
	const struct ms_algo *a;
	char word[32];
	size_t n;

	base = base != NULL ? base + 1 : path;
	dot = strrchr(base, '.');
	/* "SHA256SUMS", "MD5SUM"; else the extension, "x.sha256(sum)" */
	stem = dot != NULL && dot[1] != '\0' ? dot + 1 : base;
	n = strlen(stem);
	if (stem == base || strip_suffix(stem, n, "sums") != n ||
	    strip_suffix(stem, n, "sum") != n) {
		size_t m = strip_suffix(stem, n, "sums");

		n = m != n ? m : strip_suffix(stem, n, "sum");
	}
	if (n == 0 || n >= sizeof(word))
		return NULL;
	memcpy(word, stem, n);
	word[n] = '\0';
	*sfv = ms_strcaseeq(word, "sfv");
	for (size_t k = 0; k < MS_ARRAY_LEN(name_alias); k++)
		if (ms_strcaseeq(word, name_alias[k].stem))
			return algo_named(name_alias[k].algo);
	a = algo_named(word);
	return usable(a) ? a : NULL;
}
