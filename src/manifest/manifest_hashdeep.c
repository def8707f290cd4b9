/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * manifest_hashdeep.c - hashdeep's audit files (its FILEFORMAT 1.0),
 * read and written: "%%%% HASHDEEP-1.0", then "%%%% size,ALG,...,filename"
 * naming the columns, "##" comments (hashdeep's "Invoked from" and
 * command line), then "SIZE,HEX,...,NAME" lines.  The name is everything
 * after the last digest column, commas included, never escaped (hashdeep
 * escapes nothing, so a name with a line end cannot be written).  A
 * column of an algorithm this build lacks is skipped; a line
 * holding only such digests is unsupported.  Pure but for the lines it
 * writes to the stream it is given.
 */
#include "manifest/manifest_int.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "manifest/format.h"
#include "base/util.h"

#define HEADER		"%%%% HASHDEEP-"
#define COLUMNS		"%%%% size,"

/* "sha-256", "SHA1": hashdeep's column names into a spec; false if unknown. */
static bool
column(const char *word, size_t n, struct ms_digest_spec *spec)
{
	char name[16];
	const char *why;

	if (n == 0 || n >= sizeof(name))
		return false;
	memcpy(name, word, n);
	name[n] = '\0';
	return ms_algo_resolve(name, 0, spec, &why) == 0 &&
	    spec->bits == spec->algo->bits;
}

/* The "%%%% size,md5,...,filename" line: the columns of what follows. */
static enum ms_line
columns(struct ms_manifest_state *st, const char *s, size_t len,
    struct ms_manifest_entry *e)
{
	const char *p = s + strlen(COLUMNS), *end = s + len;

	st->hd_cols = 0;
	st->hd_unknown[0] = '\0';
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		size_t n = comma != NULL ? (size_t)(comma - p) : (size_t)(end - p);
		struct ms_digest_spec *sp = &st->hd_spec[st->hd_cols];

		if (comma == NULL) {
			/* the last column must be the name */
			if (n != strlen("filename") || memcmp(p, "filename", n) != 0)
				break;
			if (st->hd_cols == 0)
				break;
			st->hd_header = true;
			return MS_LINE_SKIP;
		}
		if (st->hd_cols == MS_HASHDEEP_COLS)
			break;
		if (!column(p, n, sp)) {
			sp->algo = NULL;	/* skipped */
			if (st->hd_unknown[0] == '\0' &&
			    n < sizeof(st->hd_unknown))
				snprintf(st->hd_unknown, sizeof(st->hd_unknown),
				    "%.*s", (int)n, p);
		}
		st->hd_cols++;
		p = comma + 1;
	}
	st->hd_cols = 0;
	e->why = "a hashdeep column line that is not \"%%%% size,ALG,...,filename\"";
	return MS_LINE_BAD;
}

enum ms_line
ms_mf_hashdeep_header(struct ms_manifest_state *st, const char *s, size_t len,
    struct ms_manifest_entry *e)
{
	if (len >= strlen(COLUMNS) && memcmp(s, COLUMNS, strlen(COLUMNS)) == 0 &&
	    st->hd_version)
		return columns(st, s, len, e);
	if (len == strlen(HEADER "1.0") && memcmp(s, HEADER "1.0", len) == 0) {
		st->hd_version = true;
		st->hd_header = false;
		return MS_LINE_SKIP;
	}
	e->why = len > strlen(HEADER) && memcmp(s, HEADER, strlen(HEADER)) == 0 ?
	    "a hashdeep file of a version other than 1.0" :
	    "a hashdeep header line without \"%%%% HASHDEEP-1.0\" before it";
	return MS_LINE_BAD;
}

enum ms_line
ms_mf_hashdeep_parse(struct ms_manifest_state *st, char *s, size_t len,
    struct ms_manifest_entry *e)
{
	char *p = s, *end = s + len;
	size_t digits = 0;

	while (p < end && *p >= '0' && *p <= '9') {
		p++;
		digits++;
	}
	if (digits == 0 || p == end || *p != ',')
		return MS_LINE_BAD;
	p++;
	for (size_t c = 0; c < st->hd_cols; c++) {
		char *comma = memchr(p, ',', (size_t)(end - p));
		struct ms_manifest_digest *d = &e->d[e->n];

		if (comma == NULL)
			return MS_LINE_BAD;
		if (st->hd_spec[c].algo != NULL) {
			d->spec = st->hd_spec[c];
			if ((size_t)(comma - p) != 2 * ms_spec_len(&d->spec) ||
			    !ms_mf_decode_as(p, (size_t)(comma - p),
			    ms_spec_len(&d->spec), d))
				return MS_LINE_BAD;
			e->n++;
		}
		p = comma + 1;
	}
	e->name = p;
	e->how = MS_BY_TAG;
	if (e->n == 0) {
		snprintf(st->why, sizeof(st->why), "hashdeep's %s: not in this build",
		    st->hd_unknown);
		e->why = st->why;
		return MS_LINE_UNSUPPORTED;
	}
	return MS_LINE_ENTRY;
}

/* The algorithms both hashdeep and multisum compute, each after a
 * space. */
#define WRITABLE	" md5 sha1 sha256 tiger whirlpool "

const char *
ms_format_hashdeep_refuses(const struct ms_selection *sel)
{
	for (size_t i = 0; i < sel->cnt; i++) {
		char buf[32], word[40];

		snprintf(word, sizeof(word), " %s ",
		    ms_spec_name(&sel->spec[i], buf, sizeof(buf)));
		if (strstr(WRITABLE, word) == NULL)
			return "--format=hashdeep takes md5, sha1, sha256, tiger "
			    "and whirlpool (the columns hashdeep reads)";
	}
	return NULL;
}

/* A comment's text: a line end in it goes on in a new "## " line. */
static void
comment_text(FILE *out, const char *s)
{
	for (; *s != '\0'; s++) {
		putc(*s == '\r' ? '\n' : *s, out);
		if (*s == '\n' || *s == '\r')
			fputs("## ", out);
	}
}

void
ms_format_hashdeep_header(FILE *out, const struct ms_selection *sel,
    const char *cwd, int argc, char *const *argv, bool root)
{
	char name[32];

	fputs("%%%% HASHDEEP-1.0\n%%%% size,", out);
	for (size_t i = 0; i < sel->cnt; i++)
		fprintf(out, "%s,", ms_spec_name(&sel->spec[i], name, sizeof(name)));
	fputs("filename\n## Invoked from: ", out);
	comment_text(out, cwd);
	/* hashdeep's prompt: # for root, $ for others */
	fputs(root ? "\n## #" : "\n## $", out);
	for (int i = 0; i < argc; i++) {
		putc(' ', out);
		comment_text(out, argv[i]);
	}
	fputs("\n## \n", out);
}

void
ms_format_hashdeep_line(FILE *out, const char *name,
    const struct ms_selection *sel, const unsigned char *digest, uint64_t size)
{
	char hex[2 * MS_DIGEST_MAX + 1];

	fprintf(out, "%ju,", (uintmax_t)size);
	for (size_t i = 0; i < sel->cnt; i++) {
		ms_hex(hex, digest + sel->offset[i], ms_spec_len(&sel->spec[i]));
		fputs(hex, out);
		putc(',', out);
	}
	fputs(name, out);
	putc('\n', out);
}
