/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json.c - writing JSON: strings escaped so that any file name
 * round-trips (format.c's NDJSON and the bench's report use it), and a
 * writer that puts the commas between members and elements, so that no
 * caller counts them.  Never reads JSON.
 */
#include "base/json.h"

#include <math.h>	/* isfinite: a macro only; no libm */
#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

/*
 * The length of the well-formed UTF-8 sequence at p (RFC 3629, table 3-7
 * of Unicode), or 0.  Checking only the lead byte and the count of
 * continuation bytes would pass overlong forms (c0 80), UTF-16 surrogates
 * (ed a0 80) and code points beyond U+10FFFF (f4 90 80 80), and a JSON
 * line holding them is no longer UTF-8.
 */
static size_t
utf8_len(const unsigned char *p)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;	/* overlong */
	else if (c == 0xed)
		hi = 0x9f;	/* surrogates */
	else if (c == 0xf0)
		lo = 0x90;	/* overlong */
	else if (c == 0xf4)
		hi = 0x8f;	/* beyond U+10FFFF */
	if (p[1] < lo || p[1] > hi)
		return 0;
	/* p[1] is no NUL, so p[2] exists; and so on */
	for (size_t k = 2; k < n; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	return n;
}

void
ms_json_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putc('"', out);
	while (*p) {
		unsigned char c = *p;
		size_t seq = utf8_len(p);
		bool valid = seq > 0;

		if (c == '"' || c == '\\') {
			fprintf(out, "\\%c", c);
		} else if (c < 0x20) {
			fprintf(out, "\\u%04x", c);
		} else if (valid) {
			fwrite(p, 1, seq, out);
			p += seq;
			continue;
		} else {
			/* Not UTF-8: the byte as a lone low surrogate, the
			 * "surrogateescape" convention, so that no valid name
			 * maps to the same string. */
			fprintf(out, "\\udc%02x", c);
		}
		p++;
	}
	putc('"', out);
}

void
ms_json_start(struct ms_json *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->more[0] = false;
	j->keyed = false;
	j->indent = -1;
}

void
ms_json_break(struct ms_json *j, int indent)
{
	j->indent = indent;
}

/* Before a member or an element: the comma, a space or a line break. */
static void
separate(struct ms_json *j)
{
	bool more = j->more[j->depth];

	if (j->keyed) {
		j->keyed = false;	/* the value of a key: no comma */
		return;
	}
	if (more)
		putc(',', j->out);
	if (j->indent >= 0)
		fprintf(j->out, "\n%*s", j->indent, "");
	else if (more)
		putc(' ', j->out);
	j->indent = -1;
	j->more[j->depth] = true;
}

void
ms_json_key(struct ms_json *j, const char *key)
{
	separate(j);
	ms_json_string(j->out, key);
	fputs(": ", j->out);
	j->keyed = true;
}

static void
open_nest(struct ms_json *j, char c)
{
	separate(j);
	if (j->depth + 1 >= MS_JSON_DEPTH)
		ms_bug("json: nested too deep");
	putc(c, j->out);
	j->more[++j->depth] = false;
}

static void
close_nest(struct ms_json *j, char c)
{
	if (j->depth == 0)
		ms_bug("json: nothing to close");
	j->depth--;
	j->indent = -1;
	putc(c, j->out);
}

void
ms_json_open_object(struct ms_json *j)
{
	open_nest(j, '{');
}

void
ms_json_open_array(struct ms_json *j)
{
	open_nest(j, '[');
}

void
ms_json_close_object(struct ms_json *j)
{
	close_nest(j, '}');
}

void
ms_json_close_array(struct ms_json *j)
{
	close_nest(j, ']');
}

void
ms_json_null(struct ms_json *j)
{
	separate(j);
	fputs("null", j->out);
}

void
ms_json_bool(struct ms_json *j, bool v)
{
	separate(j);
	fputs(v ? "true" : "false", j->out);
}

void
ms_json_str(struct ms_json *j, const char *s)
{
	if (s == NULL) {
		ms_json_null(j);
		return;
	}
	separate(j);
	ms_json_string(j->out, s);
}

void
ms_json_real(struct ms_json *j, int decimals, double v)
{
	if (!isfinite(v)) {
		ms_json_null(j);
		return;
	}
	separate(j);
	fprintf(j->out, "%.*f", decimals, v);
}

void
ms_json_uint(struct ms_json *j, uintmax_t v)
{
	separate(j);
	fprintf(j->out, "%ju", v);
}

void
ms_json_int(struct ms_json *j, intmax_t v)
{
	separate(j);
	fprintf(j->out, "%jd", v);
}
