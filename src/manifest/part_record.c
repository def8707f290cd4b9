/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * part_record.c - the partial record of --part=K/N, both ways
 * (part_record.h has the grammar).
 *
 * Owns its text: the part's place in the file (which of N, the range,
 * the file's size and modification time, which tell the parts of one
 * file from those of another or of a changed one), the format a run over
 * the whole file would have written its line in, and each digest's
 * saved state in hex, and the SHA-256 of all that text, which tells a
 * damaged or altered record (one digit of a state) from a sound one.
 * Every line starts with '#', so a checker reads none of it: a record
 * verifies nothing on its own.  Parsing is strict; what the states mean
 * is the digests' (compose.h).
 */
#include "manifest/part_record.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "digest/digest_set.h"
#include "manifest/ledger.h"
#include "manifest/manifest_int.h"
#include "base/util.h"

#define NAME_LINE	"#multisum-part-name "
#define STATE_LINE	"#multisum-part-state "
#define SUM_LINE	"#multisum-part-sum sha256="
#define SUM_HEX		64

/* The parameters a state line may name: a word, and where it goes. */
static const struct {
	const char	*word;
	unsigned	 param;		/* MS_PARAM_* of the rows that take it */
	size_t		 at;		/* offset in struct ms_digest_params */
	size_t		 size;
} words[] = {
	{ "part-size", MS_PARAM_PART_SIZE,
	  offsetof(struct ms_digest_params, part_size), 8 },
	{ "bytes-per-crc", MS_PARAM_HDFS,
	  offsetof(struct ms_digest_params, bytes_per_crc), 4 },
	{ "block-size", MS_PARAM_HDFS,
	  offsetof(struct ms_digest_params, block_size), 8 },
};

static uint64_t
param_get(const struct ms_digest_params *p, size_t i)
{
	const unsigned char *f = (const unsigned char *)p + words[i].at;
	uint64_t v64;
	uint32_t v32;

	if (words[i].size == 4) {
		memcpy(&v32, f, 4);
		return v32;
	}
	memcpy(&v64, f, 8);
	return v64;
}

static void
param_set(struct ms_digest_params *p, size_t i, uint64_t v)
{
	unsigned char *f = (unsigned char *)p + words[i].at;
	uint32_t v32 = (uint32_t)v;

	if (words[i].size == 4)
		memcpy(f, &v32, 4);
	else
		memcpy(f, &v, 8);
}

/* The record's checksum: SHA-256 of its text, in hex; -1 if this build
 * cannot compute one. */
static int
text_sum(const void *text, size_t len, char hex[SUM_HEX + 1])
{
	unsigned char d[SUM_HEX / 2];

	if (ms_digest_buffer("sha256", 0, text, len, d) == -1)
		return -1;
	ms_hex(hex, d, sizeof(d));
	return 0;
}

/* Every line of the record but its checksum. */
static void
write_body(FILE *out, const struct ms_part_record *r)
{
	const struct ms_format_opts *f = &r->fmt;
	char hex[2 * 64 + 1], name[64];

	fprintf(out, "%s%spart=%" PRIu32 "/%" PRIu32 " size=%" PRIu64
	    " mtime=%" PRId64 " range=%" PRIu64 "+%" PRIu64 " format=%s"
	    " options=%s%s%s%s\n", MS_PART_MAGIC, MS_PART_VERSION, r->k, r->n,
	    r->size,
	    r->mtime_ns, r->part.off, r->part.len, ms_format_name(f->format),
	    f->binary ? "binary," : "", f->zero ? "zero," : "",
	    f->base64 ? "base64," : "",
	    f->binary || f->zero || f->base64 ? "" : "-");
	fputs(NAME_LINE, out);
	ms_write_escaped(out, r->name);
	putc('\n', out);
	for (size_t i = 0; i < r->sel.cnt; i++) {
		const struct ms_digest_spec *s = &r->sel.spec[i];
		const struct ms_bytes *b = &r->part.saved[i];

		fprintf(out, "%s%s", STATE_LINE, ms_spec_name(s, name,
		    sizeof(name)));
		for (size_t w = 0; w < MS_ARRAY_LEN(words); w++)
			if ((s->algo->params & words[w].param) &&
			    param_get(&s->param, w) != 0)
				fprintf(out, " %s=%" PRIu64, words[w].word,
				    param_get(&s->param, w));
		putc(' ', out);
		if (b->len == 0)
			putc('-', out);
		for (size_t at = 0; at < b->len; at += 64) {
			size_t n = b->len - at < 64 ? b->len - at : 64;

			ms_hex(hex, b->p + at, n);
			fputs(hex, out);
		}
		putc('\n', out);
	}
}

int
ms_part_record_write(FILE *out, const struct ms_part_record *r)
{
	char *text = NULL, sum[SUM_HEX + 1];
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int rc = -1;

	if (mem == NULL)
		return -1;
	write_body(mem, r);
	if (fclose(mem) == 0 && text_sum(text, len, sum) == 0) {
		fwrite(text, 1, len, out);
		fprintf(out, "%s%s\n", SUM_LINE, sum);
		rc = 0;
	}
	free(text);
	return rc;
}

/* A decimal number that is all of [s, s + n). */
static bool
number(const char *s, size_t n, uint64_t *v)
{
	char buf[24], *end;

	if (n == 0 || n >= sizeof(buf) || s[0] < '0' || s[0] > '9')
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return *end == '\0' && errno == 0;
}

/* "A/B" or "A+B" of two numbers: the whole value of a word. */
static bool
pair(const char *v, size_t len, char sep, uint64_t *a, uint64_t *b)
{
	const char *at = v != NULL ? memchr(v, sep, len) : NULL;

	return at != NULL && number(v, (size_t)(at - v), a) &&
	    number(at + 1, len - (size_t)(at - v) - 1, b);
}

/* The options word: "-" or flags, each followed by a comma. */
static bool
options(struct ms_format_opts *f, const char *v, size_t len)
{
	static const char *const names[] = { "binary", "zero", "base64" };
	bool *flags[] = { &f->binary, &f->zero, &f->base64 };

	if (len == 1 && v[0] == '-')
		return true;
	while (len > 0) {
		size_t k, n = 0;

		while (n < len && v[n] != ',')
			n++;
		for (k = 0; k < MS_ARRAY_LEN(names); k++)
			if (n == strlen(names[k]) && memcmp(v, names[k], n) == 0)
				break;
		if (k == MS_ARRAY_LEN(names) || n == len)
			return false;
		*flags[k] = true;
		v += n + 1;
		len -= n + 1;
	}
	return true;
}

static bool
header(struct ms_part_record *r, const char *line)
{
	const char *v;
	uint64_t k, n, mtime;
	size_t len;
	bool minus;

	if (strncmp(line, MS_PART_MAGIC MS_PART_VERSION,
	    strlen(MS_PART_MAGIC MS_PART_VERSION)) != 0)
		return false;
	v = ms_header_word(line, "part", &len);
	if (!pair(v, len, '/', &k, &n) || k < 1 || k > n || n > UINT32_MAX)
		return false;
	r->k = (uint32_t)k;
	r->n = (uint32_t)n;
	if ((v = ms_header_word(line, "size", &len)) == NULL || !number(v, len, &r->size))
		return false;
	if ((v = ms_header_word(line, "mtime", &len)) == NULL)
		return false;
	minus = *v == '-';
	if (!number(v + minus, len - minus, &mtime) || mtime > INT64_MAX)
		return false;
	r->mtime_ns = minus ? -(int64_t)mtime : (int64_t)mtime;
	v = ms_header_word(line, "range", &len);
	if (!pair(v, len, '+', &r->part.off, &r->part.len) ||
	    r->part.off > r->size || r->part.len > r->size - r->part.off)
		return false;
	if ((v = ms_header_word(line, "format", &len)) == NULL)
		return false;
	/* never hashdeep's: none of its columns compose (--part refuses) */
	return ms_format_named(v, len, &r->fmt.format) == 0 &&
	    r->fmt.format != MS_FORMAT_HASHDEEP &&
	    (v = ms_header_word(line, "options", &len)) != NULL &&
	    options(&r->fmt, v, len);
}

/* "ALGORITHM [WORD=N]... HEX|-" into digest i of the record. */
static bool
state(struct ms_part_record *r, char *line)
{
	struct ms_digest_spec spec;
	struct ms_digest_params p = { 0 };
	struct ms_bytes *b = &r->part.saved[r->sel.cnt];
	char *tok, *save = NULL, *hex = NULL;
	const char *why;
	bool first = true;

	if (r->sel.cnt == MS_SET_MAX)
		return false;
	for (tok = strtok_r(line, " \n", &save); tok != NULL;
	    tok = strtok_r(NULL, " \n", &save)) {
		char *eq = strchr(tok, '=');
		uint64_t v;
		size_t w;

		if (first) {
			/* a digest that does not compose has no state */
			if (ms_algo_resolve(tok, 0, &spec, &why) == -1 ||
			    spec.algo->compose == NULL)
				return false;
			first = false;
			continue;
		}
		if (hex != NULL)
			return false;
		if (eq == NULL) {
			hex = tok;
			continue;
		}
		for (w = 0; w < MS_ARRAY_LEN(words); w++)
			if ((size_t)(eq - tok) == strlen(words[w].word) &&
			    memcmp(tok, words[w].word, (size_t)(eq - tok)) == 0)
				break;
		if (w == MS_ARRAY_LEN(words) ||
		    !(spec.algo->params & words[w].param) ||
		    !number(eq + 1, strlen(eq + 1), &v) || v == 0 ||
		    (words[w].size == 4 && v > UINT32_MAX))
			return false;
		param_set(&p, w, v);
	}
	if (hex == NULL || (strcmp(hex, "-") != 0 && strlen(hex) % 2 != 0))
		return false;
	ms_spec_set_params(&spec, &p);
	if (strcmp(hex, "-") != 0) {
		size_t n = strlen(hex) / 2;

		b->len = 0;
		ms_bytes_add(b, hex, n);	/* room; then decoded in place */
		if (ms_unhex(b->p, hex, n) == -1)
			return false;
	}
	/* a digest given twice would lose its place: damaged */
	return ms_selection_add(&r->sel, &spec) == 0 && r->sel.cnt > 0 &&
	    b == &r->part.saved[r->sel.cnt - 1];
}

/* Is line the record's checksum line, and the sum of text? */
static bool
sum_matches(const char *line, size_t n, const struct ms_bytes *text,
    const char **why)
{
	char sum[SUM_HEX + 1];

	*why = "a damaged --part record (its checksum line is malformed)";
	if (n != strlen(SUM_LINE) + SUM_HEX + 1 || line[n - 1] != '\n')
		return false;
	if (text_sum(text->p, text->len, sum) == -1) {
		*why = "its checksum cannot be computed (no SHA-256 in this "
		    "build)";
		return false;
	}
	*why = "a damaged --part record: its checksum does not match (a "
	    "state or a field altered since --part wrote it)";
	return memcmp(line + strlen(SUM_LINE), sum, SUM_HEX) == 0;
}

bool
ms_part_record_begins(const char *head, size_t n)
{
	return n >= strlen(MS_PART_MAGIC) &&
	    memcmp(head, MS_PART_MAGIC, strlen(MS_PART_MAGIC)) == 0;
}

/* The next line of lines; 0 at the end, -1 with *why the read error. */
static ssize_t
next_line(struct ms_lines *lines, char **line, const char **why)
{
	uint64_t at;
	ssize_t n = ms_lines_next(lines, line, &at);

	if (n == -1)
		*why = errno == EFBIG ? "not a --part record (a line too "
		    "long for one)" : strerror(errno);
	return n;
}

int
ms_part_record_read(const struct ms_manifest_input *in,
    struct ms_part_record *r, const char **why)
{
	struct ms_bytes text = { 0 };
	struct ms_lines lines;
	char *line;
	ssize_t n;
	int rc = -1;
	bool summed = false;

	memset(r, 0, sizeof(*r));
	ms_lines_init(&lines, in);
	*why = "not a --part record";
	if ((n = next_line(&lines, &line, why)) <= 0)
		goto out;
	if (strncmp(line, MS_PART_MAGIC "v1 ",
	    strlen(MS_PART_MAGIC "v1 ")) == 0) {
		*why = "a --part record of version 1, without a checksum of its "
		    "own: refused (run its --part again)";
		goto out;
	}
	if (!header(r, line))
		goto out;
	ms_bytes_add(&text, line, (size_t)n);
	*why = "a damaged --part record";
	if ((n = next_line(&lines, &line, why)) <= 0 ||
	    strncmp(line, NAME_LINE, strlen(NAME_LINE)) != 0 ||
	    line[n - 1] != '\n')
		goto out;
	ms_bytes_add(&text, line, (size_t)n);
	line[--n] = '\0';
	r->name = ms_xstrdup(line + strlen(NAME_LINE));
	if (!ms_mf_unescape(r->name, strlen(r->name)))
		goto out;
	while ((n = next_line(&lines, &line, why)) > 0) {
		if (summed) {
			*why = "a damaged --part record (lines after its "
			    "checksum)";
			goto out;
		}
		if (strncmp(line, SUM_LINE, strlen(SUM_LINE)) == 0) {
			if (!sum_matches(line, (size_t)n, &text, why))
				goto out;
			summed = true;
			continue;
		}
		ms_bytes_add(&text, line, (size_t)n);
		if (strncmp(line, STATE_LINE, strlen(STATE_LINE)) != 0 ||
		    !state(r, line + strlen(STATE_LINE)))
			goto out;
	}
	if (n == -1)
		goto out;	/* *why says the read error */
	if (!summed) {
		*why = "a damaged --part record (no checksum line: cut short)";
		goto out;
	}
	if (r->sel.cnt > 0)
		rc = 0;
out:
	ms_bytes_free(&text);
	ms_lines_free(&lines);
	return rc;
}

void
ms_part_record_free(struct ms_part_record *r)
{
	free(r->name);
	for (size_t i = 0; i < MS_SET_MAX; i++)
		ms_bytes_free(&r->part.saved[i]);
	memset(r, 0, sizeof(*r));
}
