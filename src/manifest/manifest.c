/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * manifest.c - manifest lines into entries: name, algorithm, digest.
 *
 * Owns the parser's interface: a manifest's state from its first line to
 * its last (its name, a PGP clear-signed message's parts, a gpg record
 * still open), the helpers every part shares, and what a manifest's name
 * implies.  The line shapes are manifest_native.c's,
 * manifest_coreutils.c's and manifest_b3sum.c's; digests, their one
 * algorithm and the small helpers all parts share are
 * manifest_digest.c's.  Pure: it never does I/O, never prints, never
 * decides what a bad line costs, and keeps nothing of its own between
 * calls (a reason put together for a line lives in the caller's state,
 * st->why, as every part's does).
 */
#include "manifest/manifest_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest/backend_s3.h"
#include "base/util.h"

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

/* Lines of a PGP clear-signed message (RFC 4880, 7). */
#define PGP_BEGIN	"-----BEGIN PGP SIGNED MESSAGE-----"
#define PGP_SIG		"-----BEGIN PGP SIGNATURE-----"
#define PGP_END		"-----END PGP SIGNATURE-----"

/*
 * A PGP clear-signed message: the armour lines are skipped, the body is
 * read (dash-escaped lines unescaped), and every line outside the body
 * is marked, for the caller to refuse.  Returns true for an armour line.
 */
static bool
pgp_line(struct ms_manifest_state *st, char **line, size_t *len)
{
	char *s = *line;
	size_t n = *len;

	switch (st->pgp) {
	case MS_PGP_NONE:
	case MS_PGP_AFTER:
		if (n == strlen(PGP_BEGIN) && memcmp(s, PGP_BEGIN, n) == 0) {
			st->pgp = MS_PGP_HEADER;
			st->pgp_seen = true;
			return true;
		}
		return false;
	case MS_PGP_HEADER:
		/* "Hash: SHA256" lines, up to an empty line */
		if (n == 0)
			st->pgp = MS_PGP_BODY;
		return true;
	case MS_PGP_BODY:
		if (n == strlen(PGP_SIG) && memcmp(s, PGP_SIG, n) == 0) {
			st->pgp = MS_PGP_SIG;
			return true;
		}
		if (n >= 2 && s[0] == '-' && s[1] == ' ') {
			*line = s + 2;
			*len = n - 2;
		}
		return false;
	case MS_PGP_SIG:
		if (n == strlen(PGP_END) && memcmp(s, PGP_END, n) == 0)
			st->pgp = MS_PGP_AFTER;
		return true;
	}
	return false;
}

/* --------------------------------------------------------- interface */

void
ms_manifest_begin(const struct ms_manifest_rules *r,
    struct ms_manifest_state *st, const char *path)
{
	const char *dot, *slash;

	st->line = 0;
	st->from_stdin = strcmp(path, "-") == 0;
	st->refused = false;
	if (r->dialect != MS_DIALECT_NATIVE) {
		/* The tools keep these for the whole run. */
		if (st->hex_len == 0 && r->tool != NULL)
			st->hex_len = r->tool->bits / 4;
		return;
	}
	ms_manifest_end(st);
	st->reversed = -1;
	st->sfv = false;
	st->pgp = MS_PGP_NONE;
	st->pgp_seen = false;
	st->gpg_pending = st->again = false;
	st->hd_version = st->hd_header = false;
	st->hd_cols = 0;
	st->pyrecord = !st->from_stdin && ms_manifest_pyrecord_named(path);
	st->name_algo = st->from_stdin ? NULL :
	    ms_manifest_name_algo(path, &st->sfv);
	ms_mf_win_begin(st, path);
	ms_mf_apt_begin(r, st, path);
	/* "x.iso.sha256": the file it may hold only the digest of */
	dot = strrchr(path, '.');
	slash = strrchr(path, '/');
	/* "x.iso.json": an aws s3api answer about x.iso */
	if (!st->from_stdin && dot != NULL && (slash == NULL || dot > slash + 1) &&
	    ms_strcaseeq(dot, ".json"))
		st->json_name = ms_xstrndup(path, (size_t)(dot - path));
	if (st->name_algo != NULL && !st->sfv && dot != NULL &&
	    (slash == NULL || dot > slash + 1)) {
		st->own_name = ms_xmalloc((size_t)(dot - path) + 1);
		memcpy(st->own_name, path, (size_t)(dot - path));
		st->own_name[dot - path] = '\0';
	}
}

void
ms_manifest_end(struct ms_manifest_state *st)
{
	free(st->own_name);
	free(st->json_name);
	st->own_name = st->json_name = NULL;
	ms_mf_record_free(st);
	free(st->gpg_name);
	free(st->gpg_given);
	st->gpg_name = st->gpg_given = NULL;
	st->gpg_pending = false;
	ms_mf_win_end(st);
	ms_mf_apt_end(st);
}

enum ms_line
ms_manifest_finish(const struct ms_manifest_rules *r,
    struct ms_manifest_state *st, struct ms_manifest_entry *e)
{
	memset(e, 0, offsetof(struct ms_manifest_entry, d));
	st->again = false;
	if (r->dialect != MS_DIALECT_NATIVE)
		return MS_LINE_SKIP;
	if (st->win.at != MS_WIN_NONE)
		return ms_mf_win_finish(st, e);
	if (ms_mf_record_open(st))
		return ms_mf_record_close(st, e);
	if (ms_mf_apt_open(st))
		return ms_mf_apt_finish(st, e);
	if (!st->gpg_pending)
		return MS_LINE_SKIP;
	return ms_mf_gpg_close(r, st, e);
}

bool
ms_manifest_at_rest(const struct ms_manifest_state *st)
{
	return st->line > 0 && !st->refused && st->pgp == MS_PGP_NONE &&
	    !st->gpg_pending && !st->again && !st->sfv && !st->hd_header &&
	    st->win.at == MS_WIN_NONE && !ms_mf_record_open(st) &&
	    !ms_mf_apt_open(st);
}

enum ms_line
ms_manifest_parse(const struct ms_manifest_rules *r,
    struct ms_manifest_state *st, char *line, size_t len,
    struct ms_manifest_entry *e)
{
	enum ms_line rc;

	if (!st->again)
		st->line++;
	st->again = false;
	memset(e, 0, offsetof(struct ms_manifest_entry, d));
	/* b3sum reads every line its own way, an empty one or "#" included */
	if (r->dialect == MS_DIALECT_B3SUM)
		return ms_mf_b3sum_parse(r, st, line, len, e);
	if (r->dialect == MS_DIALECT_NATIVE && st->line == 1 && len >= 2 &&
	    ((line[0] == '\xff' && line[1] == '\xfe') ||
	    (line[0] == '\xfe' && line[1] == '\xff'))) {
		st->refused = true;
		/* -c decodes it before (io/text_input.c); --update, --merge
		 * and -o's check of the file they replace do not */
		e->why = "UTF-16 text (CertUtil, Get-FileHash?) is read by -c "
		    "only";
		return MS_LINE_BAD;
	}
	if (st->refused)
		return MS_LINE_SKIP;
	if (r->dialect == MS_DIALECT_NATIVE && st->line == 1 && len >= 3 &&
	    memcmp(line, "\xef\xbb\xbf", 3) == 0) {
		line += 3;
		len -= 3;
	}
	if (r->zero) {
		/* -z: the NUL ends the line; a newline is part of a name */
		if (len > 0 && line[len - 1] == '\0')
			len--;
	} else {
		len = chomp(line, len);
	}
	if (r->dialect == MS_DIALECT_NATIVE && ms_mf_record_open(st))
		return ms_mf_record_line(st, line, len, e);
	if (r->dialect == MS_DIALECT_NATIVE && st->gpg_pending) {
		size_t i = 0;

		while (i < len && ISWHITE(line[i]))
			i++;
		/* an indented line of groups continues the record */
		if (i > 0 && i < len && ms_mf_hex_groups(line + i, len - i, 1)) {
			ms_mf_gpg_append(st, line + i, len - i);
			return MS_LINE_SKIP;
		}
		st->again = true;
		return ms_mf_gpg_close(r, st, e);
	}
	if (r->dialect == MS_DIALECT_NATIVE && !r->zero) {
		if (pgp_line(st, &line, &len))
			return MS_LINE_SKIP;
		e->outside = st->pgp != MS_PGP_BODY;
	}
	line[len] = '\0';
	if (r->dialect == MS_DIALECT_NATIVE && !r->zero &&
	    (rc = ms_mf_apt_parse(st, line, len, e)) != (enum ms_line)-2)
		return rc;
	if (r->dialect == MS_DIALECT_NATIVE && !r->zero &&
	    (rc = ms_mf_win_parse(r, st, line, len, e)) != (enum ms_line)-2)
		return rc;
	if (len == 0 || line[0] == '#')
		return MS_LINE_SKIP;
	if (r->dialect == MS_DIALECT_NATIVE && len >= 4 &&
	    memcmp(line, "%%%%", 4) == 0)
		return ms_mf_hashdeep_header(st, line, len, e);
	if (r->dialect == MS_DIALECT_NATIVE && st->hd_header)
		return ms_mf_hashdeep_parse(st, line, len, e);
	if (r->dialect == MS_DIALECT_NATIVE && !r->zero && (st->pyrecord ||
	    ms_mf_pyrecord_like(line, len)))
		return ms_mf_pyrecord_parse(st, line, len, e);
	if (r->dialect == MS_DIALECT_NATIVE)
		rc = ms_mf_native_parse(r, st, line, len, e);
	else
		rc = ms_mf_cu_parse(r, st, line, len, e);
	/* "-" would be the manifest itself. */
	if (rc == MS_LINE_ENTRY && st->from_stdin && strcmp(e->name, "-") == 0)
		rc = MS_LINE_BAD;
	return rc;
}

const char *
ms_resolved_text(enum ms_resolved how)
{
	switch (how) {
	case MS_BY_TAG:		return "its tag";
	case MS_BY_OPTION:	return "-a";
	case MS_BY_PREFIX:	return "its prefix";
	case MS_BY_NAME:	return "the manifest's name";
	case MS_BY_FORMAT:	return "SFV";
	case MS_BY_LENGTH:	return "its length";
	case MS_BY_DECIMAL:	return "its decimal form";
	case MS_BY_TRIAL:	return "its length's algorithms, tried";
	}
	return "?";
}

/* How hard a row is to forge a match for: checksums, broken, unbroken. */
static int
strength(const struct ms_algo *a)
{
	switch (a->class) {
	case MS_CLASS_NONCRYPTO:	return 0;
	case MS_CLASS_BROKEN:		return 1;
	case MS_CLASS_LEGACY:
	case MS_CLASS_SECURE:		break;
	}
	return 2;
}

/*
 * A row that computes a digest of n bytes into *s: a fixed row of that
 * length, or a variable one (BLAKE2b-N, SHAKE, BLAKE3) unless a fixed row
 * of its tag has that length (BLAKE2b's 512 bits are the row blake2b's).
 */
static bool
row_fits(const struct ms_algo *a, size_t n, struct ms_digest_spec *s)
{
	if (!ms_mf_usable(a) || a->params & ~MS_PARAM_KEY ||
	    a->ops->text != NULL)
		return false;
	if (ms_mf_is_variable(a))
		for (size_t k = 0; k < ms_algo_count; k++)
			if (!ms_mf_is_variable(&ms_algos[k]) &&
			    ms_algos[k].bits == n * 8 &&
			    strcmp(ms_algos[k].tag, a->tag) == 0)
				return false;
	return ms_mf_fit(a, n, s) && s->algo == a;
}

/* May a stand in for guess (ms_manifest_stand_ins)? */
static bool
stands_in(const struct ms_algo *a, const struct ms_algo *guess)
{
	if (a == guess)
		return true;
	if (a->class == MS_CLASS_BROKEN)
		return false;
	return strength(a) >= strength(guess);
}

void
ms_manifest_stand_ins(const struct ms_digest_spec *guess,
    struct ms_selection *sel)
{
	size_t n = ms_spec_len(guess);
	struct ms_digest_spec s;

	*sel = (struct ms_selection){ 0 };
	ms_selection_add(sel, guess);
	for (size_t k = 0; k < ms_algo_count; k++) {
		const struct ms_algo *a = &ms_algos[k];

		if (a != guess->algo && stands_in(a, guess->algo) &&
		    row_fits(a, n, &s) && ms_selection_add(sel, &s) == -1)
			break;
	}
}

void
ms_manifest_others(const struct ms_digest_spec *spec, bool tried, char *buf,
    size_t cap)
{
	size_t used = 0, n = ms_spec_len(spec);
	struct ms_digest_spec b2;
	char nb[32];

	buf[0] = '\0';
	for (size_t k = 0; k < ms_algo_count; k++) {
		const struct ms_algo *a = &ms_algos[k];
		const char *name = a->name;

		/* fixed rows, and the default length of an XOF (blake3);
		 * once the stand-ins were tried, those that are not */
		if (!ms_mf_usable(a) || a->bits != n * 8 ||
		    a == spec->algo || (ms_mf_is_variable(a) &&
		    a->family != NULL && strcmp(a->family, a->name) != 0) ||
		    (tried ? stands_in(a, spec->algo) : !a->in_all))
			continue;
		if (used + strlen(name) + 3 >= cap)
			break;
		used += (size_t)snprintf(buf + used, cap - used, "%s%s",
		    used ? ", " : "", name);
	}
	/* b2sum -l N */
	if (!tried && ms_mf_fit(ms_mf_algo_named("blake2b"), n, &b2) &&
	    b2.algo != spec->algo && b2.bits != 512) {
		snprintf(nb, sizeof(nb), "blake2b-%u", b2.bits);
		if (used + strlen(nb) + 3 < cap)
			snprintf(buf + used, cap - used, "%s%s", used ? ", " : "", nb);
	}
}

const char *
ms_manifest_type(const struct ms_manifest_rules *r,
    const struct ms_manifest_state *st)
{
	switch (r->dialect) {
	case MS_DIALECT_COREUTILS:
		if (r->cksum != NULL)
			return (st->cksum_algo != NULL ? st->cksum_algo :
			    r->cksum)->tag;
		return r->tool->tag;
	case MS_DIALECT_B3SUM:
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

	*sfv = false;
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
			return ms_mf_algo_named(name_alias[k].algo);
	a = ms_mf_algo_named(word);
	return ms_mf_usable(a) ? a : NULL;
}
