/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * manifest_windows.c - the hash files Windows' own tools write, as
 * records over several lines: CertUtil -hashfile ("SHA256 hash of
 * NAME:", the digest on the next line, with or without a space between
 * bytes as Windows 7 wrote it, then "CertUtil: -hashfile command
 * completed successfully."), and PowerShell's Get-FileHash in its table
 * layout (Algorithm, Hash and Path columns under a line of dashes) and
 * its list layout ("Algorithm : SHA256", "Hash : ...", "Path : ...",
 * long values wrapped onto indented lines).
 *
 * A Path, or a CertUtil name, that is an absolute Windows path
 * (C:\x\f.iso, \\server\share\f.iso) names a directory that is not
 * here: the file is looked up by its base name beside the list.  A
 * relative one (x\f.iso) names its folder as a relative name does: it
 * is read with slashes (x/f.iso), never by its base name, which may be
 * another file.  The entry carries a note saying which.  The text is
 * UTF-8 by then (UTF-16 is decoded by io/text_input.c).  Pure, as the
 * rest of the parser.
 */
#include "manifest/manifest_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

/* The algorithms CertUtil -hashfile names (its usage text). */
static const char *const certutil_algos[] = {
	"MD2", "MD4", "MD5", "SHA1", "SHA256", "SHA384", "SHA512",
};

#define CERTUTIL_OK	"CertUtil: -hashfile command completed successfully."
#define CUT_SHORT	"Get-FileHash's table cut the value short: write it " \
			"with '| Format-List' (or widen the window)"

static char *
dup_n(const char *s, size_t n)
{
	char *d = ms_xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static void
replace(char **slot, char *value)
{
	free(*slot);
	*slot = value;
}

void
ms_mf_win_begin(struct ms_manifest_state *st, const char *path)
{
	ms_mf_win_end(st);
	st->win.list = st->from_stdin ? NULL : path;
}

void
ms_mf_win_end(struct ms_manifest_state *st)
{
	struct ms_manifest_windows *w = &st->win;

	free(w->name);
	free(w->hash);
	free(w->given);
	free(w->note);
	free(w->note_relative);
	memset(w, 0, sizeof(*w));
}

/* Does raw name its file from a root of its own: a drive ("C:..."), a
 * UNC name or the current drive's root ("\\x", "\\server\\share")? */
static bool
absolute_path(const char *raw)
{
	return raw[0] == '\\' ||
	    (((raw[0] | 0x20) >= 'a' && (raw[0] | 0x20) <= 'z') && raw[1] == ':');
}

/* Is raw a Windows path: a drive, a UNC name, a backslash? */
static bool
windows_path(const char *raw)
{
	return strchr(raw, '\\') != NULL || absolute_path(raw);
}

/*
 * The name to look up for raw: itself; a relative Windows path
 * (sub\f.iso, as CertUtil echoes the name typed) with its backslashes
 * as slashes, so that it names its own folder as any relative name does;
 * an absolute one's base name beside the list, its folder being on
 * another machine.  e->note says which.  NULL if it has no file name.
 */
static const char *
lookup_name(struct ms_manifest_state *st, const char *raw,
    struct ms_manifest_entry *e)
{
	struct ms_manifest_windows *w = &st->win;
	const char *base = raw, *slash;
	char **note;

	if (!windows_path(raw)) {
		replace(&w->given, ms_xstrdup(raw));
		return w->given;
	}
	for (const char *p = raw; *p; p++)
		if (*p == '\\' || *p == '/' || (p == raw + 1 && *p == ':'))
			base = p + 1;
	if (*base == '\0')
		return NULL;
	if (!absolute_path(raw)) {
		char *name = ms_xstrdup(raw);

		for (char *p = name; *p; p++)
			if (*p == '\\')
				*p = '/';
		replace(&w->given, name);
		note = &w->note_relative;
		if (*note == NULL)
			*note = ms_xasprintf("%s is a relative Windows path: "
			    "read as %s", raw, w->given);
	} else {
		/* beside the list: its folder, or the current one */
		slash = w->list != NULL ? strrchr(w->list, '/') : NULL;
		replace(&w->given, ms_xasprintf("%.*s%s", slash != NULL ?
		    (int)(slash - w->list + 1) : 0, w->list ? w->list : "",
		    base));
		note = &w->note;
		if (*note == NULL)
			*note = ms_xasprintf("%s is a Windows path: files are "
			    "looked up by their base name beside the list (%s)",
			    raw, w->given);
	}
	e->note = *note;
	return w->given;
}

/* One record's entry: algorithm, hex digits, the name as written. */
static enum ms_line
record_entry(struct ms_manifest_state *st, const char *alg, const char *hex,
    size_t n, const char *raw, struct ms_manifest_entry *e)
{
	struct ms_manifest_digest *d = &e->d[0];
	char name[sizeof(st->win.alg)];
	const char *why;

	e->outside = st->win.outside;
	if ((e->name = lookup_name(st, raw, e)) == NULL) {
		e->why = "a Windows path without a file name";
		return MS_LINE_BAD;
	}
	snprintf(name, sizeof(name), "%s", alg);
	/* PowerShell 7's SHA3_256 is our sha3-256 */
	for (char *p = name; *p; p++)
		if (*p == '_')
			*p = '-';
	if (ms_algo_resolve(name, 0, &d->spec, &why) == -1) {
		snprintf(st->why, sizeof(st->why), "unsupported algorithm %s",
		    alg);
		e->why = st->why;
		return MS_LINE_UNSUPPORTED;
	}
	if (!ms_mf_decode_as(hex, n, ms_spec_len(&d->spec), d)) {
		snprintf(st->why, sizeof(st->why), "%s digests have %zu hex "
		    "digits, this one %zu", alg, 2 * ms_spec_len(&d->spec), n);
		e->why = st->why;
		return MS_LINE_BAD;
	}
	e->n = 1;
	e->how = MS_BY_TAG;
	return MS_LINE_ENTRY;
}

/* "SHA256 hash of NAME:" (Windows 7: "hash of file NAME:"). */
static bool
certutil_header(struct ms_manifest_state *st, const char *s, size_t len)
{
	static const char of[] = " hash of ";
	size_t a = strcspn(s, " "), k;

	if (a == len || a >= sizeof(st->win.alg) ||
	    strncmp(s + a, of, sizeof(of) - 1) != 0 || s[len - 1] != ':' ||
	    len <= a + sizeof(of))
		return false;
	for (k = 0; k < MS_ARRAY_LEN(certutil_algos); k++)
		if (strlen(certutil_algos[k]) == a &&
		    strncasecmp(s, certutil_algos[k], a) == 0)
			break;
	if (k == MS_ARRAY_LEN(certutil_algos))
		return false;
	memcpy(st->win.alg, s, a);
	st->win.alg[a] = '\0';
	replace(&st->win.name, dup_n(s + a + sizeof(of) - 1,
	    len - a - sizeof(of)));
	return true;
}

/* The line after a CertUtil header: the digest. */
static enum ms_line
certutil_digest(struct ms_manifest_state *st, const char *s, size_t len,
    struct ms_manifest_entry *e)
{
	char hex[2 * MS_DIGEST_MAX + 1];
	const char *raw = st->win.name;
	size_t n;
	bool spaced;

	st->win.at = MS_WIN_NONE;
	if (!ms_mf_spaced_hex(s, len, hex, sizeof(hex), &n, &spaced)) {
		st->again = true;	/* the line is read for itself */
		e->why = "CertUtil's 'hash of NAME:' line is not followed by "
		    "the digest";
		return MS_LINE_BAD;
	}
	/* Windows 7 wrote "hash of file NAME:" with its spaced digests */
	if (spaced && strncmp(raw, "file ", 5) == 0 && raw[5] != '\0')
		raw += 5;
	return record_entry(st, st->win.alg, hex, n, raw, e);
}

/* The words of a line, split at blanks: at most max, *n of them. */
static size_t
words(const char *s, size_t len, const char **w, size_t *wl, size_t max)
{
	size_t n = 0, i = 0;

	while (i < len && n < max) {
		while (i < len && ISWHITE(s[i]))
			i++;
		if (i == len)
			break;
		w[n] = s + i;
		while (i < len && !ISWHITE(s[i]))
			i++;
		wl[n] = (size_t)(s + i - w[n]);
		n++;
	}
	return n;
}

static bool
is_word(const char *w, size_t n, const char *want)
{
	return n == strlen(want) && memcmp(w, want, n) == 0;
}

/* Get-FileHash's table: "Algorithm  Hash  Path", then its dashes. */
static bool
table_line(const char *s, size_t len, bool dashes)
{
	static const char *const head[] = { "Algorithm", "Hash", "Path" };
	const char *w[4];
	size_t wl[4];

	if (words(s, len, w, wl, 4) != 3)
		return false;
	for (size_t k = 0; k < 3; k++)
		if (dashes ? strspn(w[k], "-") < wl[k] :
		    !is_word(w[k], wl[k], head[k]))
			return false;
	return true;
}

/* Does a table cell end in PowerShell's "..." (5.1) or "…" (7)? */
static bool
cut_short(const char *s, size_t n)
{
	return (n >= 3 && memcmp(s + n - 3, "...", 3) == 0) ||
	    (n >= 3 && memcmp(s + n - 3, "\xe2\x80\xa6", 3) == 0);
}

/* A row of the table: ALGORITHM HASH PATH (the path may hold blanks). */
static enum ms_line
table_row(struct ms_manifest_state *st, const char *s, size_t len,
    struct ms_manifest_entry *e)
{
	const char *w[2], *path;
	size_t wl[2], n;
	char alg[sizeof(st->win.alg)];
	char *raw;
	enum ms_line rc;

	if (words(s, len, w, wl, 2) != 2 || wl[0] >= sizeof(alg))
		return MS_LINE_BAD;
	path = w[1] + wl[1];
	while (path < s + len && ISWHITE(*path))
		path++;
	n = (size_t)(s + len - path);
	while (n > 0 && ISWHITE(path[n - 1]))
		n--;
	if (cut_short(w[1], wl[1]) || cut_short(path, n)) {
		e->why = CUT_SHORT;
		return MS_LINE_BAD;
	}
	if (n == 0) {
		e->why = "no Path (Get-FileHash -InputStream): no file to "
		    "check it against";
		return MS_LINE_BAD;
	}
	memcpy(alg, w[0], wl[0]);
	alg[wl[0]] = '\0';
	raw = dup_n(path, n);
	rc = record_entry(st, alg, w[1], wl[1], raw, e);
	free(raw);
	return rc;
}

/* "Key<blanks>: value" of the list layout; *value and *vn if so. */
static bool
list_key(const char *s, size_t len, const char *key, const char **value,
    size_t *vn)
{
	size_t k = strlen(key), i;

	if (len < k || memcmp(s, key, k) != 0)
		return false;
	for (i = k; i < len && s[i] == ' '; i++)
		continue;
	if (i == len || s[i] != ':' || i == k)
		return false;
	for (i++; i < len && s[i] == ' '; i++)
		continue;
	*value = s + i;
	*vn = len - i;
	while (*vn > 0 && ISWHITE((*value)[*vn - 1]))
		(*vn)--;
	return true;
}

/* The open list record as an entry; the record is closed. */
static enum ms_line
list_close(struct ms_manifest_state *st, struct ms_manifest_entry *e)
{
	struct ms_manifest_windows *w = &st->win;

	w->at = MS_WIN_NONE;
	w->last = NULL;
	if (w->alg[0] == '\0' || w->hash == NULL || w->name == NULL) {
		e->why = "a Get-FileHash record needs its Algorithm, Hash and "
		    "Path";
		return MS_LINE_BAD;
	}
	if (w->name[0] == '\0') {
		e->why = "no Path (Get-FileHash -InputStream): no file to "
		    "check it against";
		return MS_LINE_BAD;
	}
	return record_entry(st, w->alg, w->hash, strlen(w->hash), w->name, e);
}

/* A line of an open list record; MS_LINE_SKIP while it goes on. */
static enum ms_line
list_line(struct ms_manifest_state *st, const char *s, size_t len,
    struct ms_manifest_entry *e)
{
	struct ms_manifest_windows *w = &st->win;
	const char *v;
	size_t vn, i = 0;

	if (list_key(s, len, "Hash", &v, &vn)) {
		replace(&w->hash, dup_n(v, vn));
		w->last = w->hash;
		return MS_LINE_SKIP;
	}
	if (list_key(s, len, "Path", &v, &vn)) {
		replace(&w->name, dup_n(v, vn));
		w->last = w->name;
		return MS_LINE_SKIP;
	}
	while (i < len && ISWHITE(s[i]))
		i++;
	if (i > 0 && i < len && w->last != NULL) {
		/* a long value wrapped onto an indented line */
		char **slot = w->last == w->hash ? &w->hash : &w->name;
		char *joined = ms_xasprintf("%s%.*s", *slot, (int)(len - i),
		    s + i);

		replace(slot, joined);
		w->last = joined;
		return MS_LINE_SKIP;
	}
	st->again = i < len;	/* another line: read for itself after */
	return list_close(st, e);
}

int
ms_mf_win_parse(const struct ms_manifest_rules *r, struct ms_manifest_state *st,
    char *s, size_t len, struct ms_manifest_entry *e)
{
	struct ms_manifest_windows *w = &st->win;
	const char *v;
	size_t vn, i = 0;

	(void)r;
	while (i < len && ISWHITE(s[i]))
		i++;
	switch (w->at) {
	case MS_WIN_CERTUTIL:
		return certutil_digest(st, s, len, e);
	case MS_WIN_TABLE_HEAD:
		w->at = MS_WIN_NONE;
		if (table_line(s, len, true)) {
			w->at = MS_WIN_TABLE;
			return MS_LINE_SKIP;
		}
		break;
	case MS_WIN_TABLE:
		if (i < len)
			return table_row(st, s, len, e);
		w->at = MS_WIN_NONE;	/* a blank line ends the table */
		return MS_LINE_SKIP;
	case MS_WIN_LIST:
		return list_line(st, s, len, e);
	case MS_WIN_NONE:
		break;
	}
	if (i == len)
		return -2;
	if (strcmp(s, CERTUTIL_OK) == 0)
		return MS_LINE_SKIP;
	if (strncmp(s, "CertUtil: ", 10) == 0) {
		e->why = "CertUtil reported an error here, not a digest";
		return MS_LINE_BAD;
	}
	if (i == 0 && certutil_header(st, s, len)) {
		w->at = MS_WIN_CERTUTIL;
		w->outside = e->outside;
		return MS_LINE_SKIP;
	}
	if (table_line(s, len, false)) {
		w->at = MS_WIN_TABLE_HEAD;
		return MS_LINE_SKIP;
	}
	if (list_key(s, len, "Algorithm", &v, &vn) && vn > 0 &&
	    vn < sizeof(w->alg)) {
		memcpy(w->alg, v, vn);
		w->alg[vn] = '\0';
		replace(&w->hash, NULL);
		replace(&w->name, NULL);
		w->last = NULL;
		w->at = MS_WIN_LIST;
		w->outside = e->outside;
		return MS_LINE_SKIP;
	}
	return -2;
}

enum ms_line
ms_mf_win_finish(struct ms_manifest_state *st, struct ms_manifest_entry *e)
{
	switch (st->win.at) {
	case MS_WIN_LIST:
		return list_close(st, e);
	case MS_WIN_CERTUTIL:
		st->win.at = MS_WIN_NONE;
		e->why = "CertUtil's 'hash of NAME:' line is not followed by "
		    "the digest";
		return MS_LINE_BAD;
	default:
		st->win.at = MS_WIN_NONE;
		return MS_LINE_SKIP;
	}
}
