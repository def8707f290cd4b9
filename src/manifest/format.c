/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * format.c - result lines, byte for byte as the reference tools write
 * them.
 *
 * Owns name escaping (a name holding \, newline or CR is written with
 * those escaped and the line starts with a backslash, as coreutils does;
 * -z turns escaping off; b3sum's rule is rust_text.c's), the BSD tag
 * line, SFV, NDJSON (its string escaping is json.c's), the decimal lines
 * of cksum and sum, and the tab-separated lines of `hadoop fs -checksum`.
 * Writes only to the FILE (or, for the common lines, the byte buffer)
 * it is given and never decides about errors.
 */
#include "manifest/format.h"

#include <stdlib.h>
#include <string.h>

#include "digest/backend_hdfs.h"
#include "manifest/manifest.h"
#include "base/json.h"
#include "base/rust_text.h"
#include "base/util.h"

bool
ms_name_needs_escape(const char *name)
{
	return strpbrk(name, "\\\n\r") != NULL;
}

void
ms_write_escaped(FILE *out, const char *name)
{
	for (const char *p = name; *p; p++) {
		switch (*p) {
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		default:   putc(*p, out); break;
		}
	}
}

/* Text of one digest: hex, or base64 with b64 (buf: 2 * len + 4 bytes). */
static const char *
ms_digest_text(char *buf, const unsigned char *d, size_t len, bool b64)
{
	if (b64)
		ms_base64(buf, d, len);
	else
		ms_hex(buf, d, len);
	return buf;
}

/* Decimal value of a legacy digest (cksum CRC, BSD or SysV sum). */
static unsigned long
ms_legacy_value(const unsigned char *d, size_t len)
{
	unsigned long v = 0;

	for (size_t i = 0; i < len; i++)
		v = v << 8 | d[i];
	return v;
}

/* cksum's "CRC SIZE NAME" and sum's "SUM BLOCKS NAME" lines. */
static void
legacy_line(FILE *out, const struct ms_format_opts *o, const char *name,
    const struct ms_digest_spec *s, const unsigned char *d, uint64_t size)
{
	unsigned long v = ms_legacy_value(d, ms_spec_len(s));
	bool with_name = strcmp(name, "-") != 0 || o->name_stdin;

	switch (s->algo->legacy == MS_LEGACY_NONE && o->decimal ?
	    MS_LEGACY_CKSUM : s->algo->legacy) {
	case MS_LEGACY_CKSUM:
		fprintf(out, "%lu %ju", v, (uintmax_t)size);
		break;
	case MS_LEGACY_SYSV:
		fprintf(out, "%lu %ju", v, (uintmax_t)((size + 511) / 512));
		break;
	case MS_LEGACY_BSD:
		fprintf(out, "%05lu %5ju", v, (uintmax_t)((size + 1023) / 1024));
		break;
	case MS_LEGACY_HADOOP:
	case MS_LEGACY_NONE:
		ms_bug("legacy_line");
	}
	if (with_name) {
		putc(' ', out);
		fputs(name, out);
	}
	putc(o->zero ? '\0' : '\n', out);
}

/* `hadoop fs -checksum`'s "NAME\tALGORITHM\tHEX", the name escaped as
 * in GNU lines (HDFS never prints such a name). */
static void
hadoop_line(FILE *out, const struct ms_format_opts *o, const char *name,
    const struct ms_digest_spec *s, const unsigned char *d, uint64_t size)
{
	char value[MS_HDFS_VALUE_MAX];
	bool esc = !o->zero && ms_name_needs_escape(name);

	ms_hdfs_value(s, d, size, value);
	if (esc) {
		putc('\\', out);
		ms_write_escaped(out, name);
	} else {
		fputs(name, out);
	}
	fprintf(out, "\t%s%c", value, o->zero ? '\0' : '\n');
}

/*
 * A digest as text: the row's own form if it has one (S3's "ETAG-N";
 * TTH's base32, which --base64 overrides as it does rhash's, while S3's
 * forms of several parts stay).
 */
static const char *
spec_text(char *buf, const struct ms_digest_spec *s, const unsigned char *d,
    bool b64)
{
	if (s->algo->ops->text == NULL ||
	    (b64 && !(s->algo->params & MS_PARAM_PART_SIZE)))
		return ms_digest_text(buf, d, ms_spec_len(s), b64);
	s->algo->ops->text(buf, d, ms_spec_len(s));
	return buf;
}

/*
 * Does "NAME 00000000" read back, in a manifest that does not say it is
 * SFV (standard input), as name's CRC-32?  SFV has no escaping: a name
 * such as 'x (y) = z' reads as a tag line of an algorithm "x".
 */
static bool
sfv_reads_back(const char *name)
{
	static const struct ms_manifest_rules rules = {
		.dialect = MS_DIALECT_NATIVE,
	};
	struct ms_manifest_state st = { .reversed = -1 };
	struct ms_manifest_entry e;
	size_t n = strlen(name) + sizeof(" 00000000\n") - 1;
	char *line = ms_xmalloc(n + 1);
	bool ok;

	snprintf(line, n + 1, "%s 00000000\n", name);
	ms_manifest_begin(&rules, &st, "sfv-round-trip");
	ok = ms_manifest_parse(&rules, &st, line, n, &e) == MS_LINE_ENTRY &&
	    !st.again && e.n == 1 && strcmp(e.name, name) == 0 &&
	    strcmp(e.d[0].spec.algo->name, "crc32") == 0;
	ms_manifest_end(&st);
	free(line);
	return ok;
}

/*
 * Lines gathered for one fwrite, or straight into a caller's byte buffer
 * (ms_format_result_bytes: standard output's, no FILE at all): a tree of
 * small files writes a line per file (per digest in BSD form), and
 * stdio's calls for each piece took as many instructions as hashing
 * 1 KiB with xxh3.  What does not fit goes out as it comes, in order.
 */
struct lines {
	FILE		*out;
	struct ms_bytes	*b;		/* or NULL: into out through buf */
	size_t		 len;
	char		 buf[2048];
};

/* Inlined: a line is five of these, and a call each cost as much as the
 * copy (callgrind). */
static inline __attribute__((always_inline)) void
lines_add(struct lines *l, const char *s, size_t k)
{
	if (l->b != NULL) {
		if (l->b->cap - l->b->len < k) {
			ms_bytes_add(l->b, s, k);
			return;
		}
		memcpy(l->b->p + l->b->len, s, k);
		l->b->len += k;
		return;
	}
	if (l->len + k > sizeof(l->buf)) {
		fwrite(l->buf, 1, l->len, l->out);
		l->len = 0;
		if (k > sizeof(l->buf)) {
			fwrite(s, 1, k, l->out);
			return;
		}
	}
	memcpy(l->buf + l->len, s, k);
	l->len += k;
}

/* A digest's hex, straight into l (no copy through a buffer of its own). */
static void
lines_hex(struct lines *l, const unsigned char *d, size_t n)
{
	char *at;

	if (l->b != NULL) {
		at = (char *)ms_bytes_room(l->b, 2 * n + 1);
		l->b->len += 2 * n;
	} else {
		if (l->len + 2 * n + 1 > sizeof(l->buf)) {
			fwrite(l->buf, 1, l->len, l->out);
			l->len = 0;
		}
		at = l->buf + l->len;
		l->len += 2 * n;
	}
	ms_hex(at, d, n);	/* and a NUL, past the end */
}

/* Not an initialiser: that would clear the buffer, a line's worth of
 * stores for each result. */
static void
lines_begin(struct lines *l, FILE *out, struct ms_bytes *b)
{
	l->out = out;
	l->b = b;
	l->len = 0;
}

static void
lines_end(struct lines *l)
{
	if (l->b == NULL)
		fwrite(l->buf, 1, l->len, l->out);
	l->len = 0;
}

const char *
ms_format_refuses(const struct ms_format_opts *o, const char *name)
{
	size_t n;

	if (o->format == MS_FORMAT_HASHDEEP && !o->raw &&
	    strpbrk(name, "\n\r") != NULL)
		return "a hashdeep line cannot hold a name with a line end; "
		    "use another --format";
	if (o->format != MS_FORMAT_SFV || o->raw)
		return NULL;
	n = strlen(name);
	/* A reader takes "NAME CRC" apart at the last blank and skips ; and
	 * # lines: names it would read otherwise cannot be written. */
	if (n == 0 || name[0] == ';' || name[0] == '#' || name[0] == ' ' ||
	    name[0] == '\t' || name[n - 1] == ' ' || name[n - 1] == '\t' ||
	    strpbrk(name, "\n\r") != NULL)
		return "SFV cannot hold this name (a leading ; or #, leading or "
		    "trailing blanks, a newline); use another --format";
	if (!sfv_reads_back(name))
		return "SFV cannot hold this name: its line would read back "
		    "as a tagged line ('TAG (NAME) = DIGEST'); use another "
		    "--format";
	return NULL;
}

/* A digest as hex of any length (b3sum -l), in pieces. */
static void
put_hex(FILE *out, const unsigned char *d, size_t len)
{
	char text[2 * MS_DIGEST_MAX + 1];

	for (size_t at = 0, n; at < len; at += n) {
		n = len - at < MS_DIGEST_MAX ? len - at : MS_DIGEST_MAX;
		ms_hex(text, d + at, n);
		fputs(text, out);
	}
}

void
ms_format_lead(FILE *out, const struct ms_format_opts *o, const char *name)
{
	bool esc;

	if (!o->b3sum_names || o->no_names || o->raw)
		return;
	free(ms_rust_lossy(name, true, &esc));
	if (esc)
		putc('\\', out);
}

/* "HEX  NAME" as b3sum 1.2 writes it, or the digest alone. */
static void
b3sum_line(FILE *out, const struct ms_format_opts *o, const char *name,
    const struct ms_selection *sel, const unsigned char *digest)
{
	ms_format_lead(out, o, name);
	put_hex(out, digest, sel->out_len);
	if (!o->no_names) {
		char *shown = ms_rust_lossy(name, true, NULL);

		fprintf(out, "  %s", shown);
		free(shown);
	}
	putc('\n', out);
}

/* A digest as spec_text writes it, into l; text is room for it. */
static void
lines_digest(struct lines *l, const struct ms_format_opts *o,
    const struct ms_digest_spec *s, const unsigned char *d, char *text)
{
	if (s->algo->ops->text == NULL && !o->base64) {
		lines_hex(l, d, ms_spec_len(s));
		return;
	}
	spec_text(text, s, d, o->base64);
	lines_add(l, text, strlen(text));
}

/*
 * The lines most runs write, into l: GNU's "HEX  NAME" and BSD's
 * "TAG (NAME) = HEX" of a name that needs no escaping (or with -z), in
 * pieces copied once.  False, with nothing written, for every other line.
 */
static bool
simple_result(struct lines *l, const struct ms_format_opts *o,
    const char *name, const struct ms_selection *sel,
    const unsigned char *digest)
{
	char text[2 * MS_DIGEST_MAX + 4];
	char tagbuf[64];
	char eol = o->zero ? '\0' : '\n';
	size_t n;

	if (o->raw || (o->format != MS_FORMAT_GNU &&
	    o->format != MS_FORMAT_BSD) || (!o->zero &&
	    ms_name_needs_escape(name)))
		return false;
	n = strlen(name);
	if (o->format == MS_FORMAT_GNU) {
		const struct ms_digest_spec *s = &sel->spec[0];
		const char *prefix = s->algo->gnu_prefix;

		if (s->algo->legacy != MS_LEGACY_NONE || o->decimal ||
		    o->b3sum_names)
			return false;
		if (prefix != NULL)
			lines_add(l, prefix, strlen(prefix));
		lines_digest(l, o, s, digest, text);
		lines_add(l, o->binary ? " *" : "  ", 2);
		lines_add(l, name, n);
		lines_add(l, &eol, 1);
		return true;
	}
	for (size_t i = 0; i < sel->cnt; i++) {	/* every digest's line */
		const struct ms_digest_spec *s = &sel->spec[i];
		const char *tag = ms_spec_tag(s, tagbuf, sizeof(tagbuf));

		lines_add(l, tag, strlen(tag));
		lines_add(l, " (", 2);
		lines_add(l, name, n);
		lines_add(l, ") = ", 4);
		lines_digest(l, o, s, digest + sel->offset[i], text);
		lines_add(l, &eol, 1);
	}
	return true;
}

/* A GNU line simple_result does not write. */
static void
gnu_result(FILE *out, const struct ms_format_opts *o, const char *name,
    const struct ms_selection *sel, const unsigned char *digest, uint64_t size)
{
	const struct ms_digest_spec *s = &sel->spec[0];
	const char *prefix = s->algo->gnu_prefix ? s->algo->gnu_prefix : "";
	char text[2 * MS_DIGEST_MAX + 4];
	char eol = o->zero ? '\0' : '\n';

	if (s->algo->legacy == MS_LEGACY_HADOOP) {
		hadoop_line(out, o, name, s, digest, size);
		return;
	}
	if (s->algo->legacy != MS_LEGACY_NONE || o->decimal) {
		legacy_line(out, o, name, s, digest, size);
		return;
	}
	if (o->b3sum_names) {
		b3sum_line(out, o, name, sel, digest);
		return;
	}
	spec_text(text, s, digest, o->base64);
	putc('\\', out);
	fputs(prefix, out);
	fputs(text, out);
	putc(' ', out);
	putc(o->binary ? '*' : ' ', out);
	ms_write_escaped(out, name);
	putc(eol, out);
}

/* BSD lines of a name escaped (simple_result writes the others). */
static void
bsd_result(FILE *out, const struct ms_format_opts *o, const char *name,
    const struct ms_selection *sel, const unsigned char *digest, uint64_t size)
{
	char text[2 * MS_DIGEST_MAX + 4];
	char tagbuf[64];
	char eol = o->zero ? '\0' : '\n';

	(void)size;

	for (size_t i = 0; i < sel->cnt; i++) {
		const struct ms_digest_spec *s = &sel->spec[i];

		putc('\\', out);
		fputs(ms_spec_tag(s, tagbuf, sizeof(tagbuf)), out);
		fputs(" (", out);
		ms_write_escaped(out, name);
		fputs(") = ", out);
		fputs(spec_text(text, s, digest + sel->offset[i], o->base64),
		    out);
		putc(eol, out);
	}
}

/* SFV is "NAME CRC32" with the CRC in upper case. */
static void
sfv_result(FILE *out, const struct ms_format_opts *o, const char *name,
    const struct ms_selection *sel, const unsigned char *digest, uint64_t size)
{
	char text[2 * 4 + 1];

	(void)sel;
	(void)size;

	ms_hex(text, digest, 4);
	for (char *p = text; *p; p++)
		if (*p >= 'a' && *p <= 'f')
			*p = (char)(*p - 'a' + 'A');
	fprintf(out, "%s %s%c", name, text, o->zero ? '\0' : '\n');
}

static void
ndjson_result(FILE *out, const struct ms_format_opts *o, const char *name,
    const struct ms_selection *sel, const unsigned char *digest, uint64_t size)
{
	char text[2 * MS_DIGEST_MAX + 4];
	char tagbuf[64];

	fputs("{\"path\":", out);
	ms_json_string(out, name);
	fprintf(out, ",\"size\":%ju", (uintmax_t)size);
	for (size_t i = 0; i < sel->cnt; i++) {
		const struct ms_digest_spec *s = &sel->spec[i];

		fprintf(out, ",\"%s\":\"%s\"",
		    ms_spec_name(s, tagbuf, sizeof(tagbuf)),
		    spec_text(text, s, digest + sel->offset[i], o->base64));
	}
	fputs("}\n", out);
}

static void
hashdeep_result(FILE *out, const struct ms_format_opts *o, const char *name,
    const struct ms_selection *sel, const unsigned char *digest, uint64_t size)
{
	(void)o;
	ms_format_hashdeep_line(out, name, sel, digest, size);
}

/* Each format's --format word, and the writer of its lines (of those
 * simple_result does not write). */
static const struct {
	const char	*name;
	void		(*result)(FILE *out, const struct ms_format_opts *o,
			    const char *name, const struct ms_selection *sel,
			    const unsigned char *digest, uint64_t size);
} formats[] = {
	[MS_FORMAT_GNU] = { .name = "gnu", .result = gnu_result },
	[MS_FORMAT_BSD] = { .name = "bsd", .result = bsd_result },
	[MS_FORMAT_SFV] = { .name = "sfv", .result = sfv_result },
	[MS_FORMAT_NDJSON] = { .name = "ndjson", .result = ndjson_result },
	[MS_FORMAT_HASHDEEP] = { .name = "hashdeep", .result = hashdeep_result },
};

const char *
ms_format_name(enum ms_format f)
{
	return formats[f].name;
}

int
ms_format_named(const char *s, size_t len, enum ms_format *f)
{
	for (size_t i = 0; i < MS_ARRAY_LEN(formats); i++)
		if (strlen(formats[i].name) == len &&
		    memcmp(s, formats[i].name, len) == 0) {
			*f = (enum ms_format)i;
			return 0;
		}
	return -1;
}

void
ms_format_result(FILE *out, const struct ms_format_opts *o, const char *name,
    const struct ms_selection *sel, const unsigned char *digest, uint64_t size)
{
	struct lines l;

	lines_begin(&l, out, NULL);
	if (simple_result(&l, o, name, sel, digest)) {
		lines_end(&l);
		return;
	}
	if (o->raw) {
		fwrite(digest, 1, sel->out_len, out);
		return;
	}
	formats[o->format].result(out, o, name, sel, digest, size);
}

bool
ms_format_result_bytes(struct ms_bytes *b, const struct ms_format_opts *o,
    const char *name, const struct ms_selection *sel,
    const unsigned char *digest)
{
	struct lines l;

	lines_begin(&l, NULL, b);
	return simple_result(&l, o, name, sel, digest);
}
