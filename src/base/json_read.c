/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * json_read.c - the strict JSON reader of json_read.h: a recursive
 * descent over the bytes, each value a node of one growing array (linked
 * by index, as the array moves), strings decoded into their own memory.
 */
#include "base/json_read.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct rd {
	const char	*p, *end;
	struct ms_jdoc	*doc;
	const char	*why;
	unsigned	 depth;
};

static bool value(struct rd *r, size_t at);

static void
ws(struct rd *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' ||
	    *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static bool
fail(struct rd *r, const char *why)
{
	if (r->why == NULL)
		r->why = why;
	return false;
}

static size_t
node(struct rd *r)
{
	struct ms_jdoc *d = r->doc;

	if (d->cnt == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 16;
		d->n = ms_xrealloc(d->n, d->cap * sizeof(*d->n));
	}
	memset(&d->n[d->cnt], 0, sizeof(d->n[0]));
	return d->cnt++;
}

int
ms_json_hex4(const char *p)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		int c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

int
ms_json_escape(char c)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *at = c != '\0' ? strchr(from, c) : NULL;

	return at != NULL ? to[at - from] : -1;
}

char *
ms_utf8_put(char *o, uint32_t c)
{
	if (c < 0x80) {
		*o++ = (char)c;
	} else if (c < 0x800) {
		*o++ = (char)(0xc0 | c >> 6);
		*o++ = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		*o++ = (char)(0xe0 | c >> 12);
		*o++ = (char)(0x80 | (c >> 6 & 0x3f));
		*o++ = (char)(0x80 | (c & 0x3f));
	} else {
		*o++ = (char)(0xf0 | c >> 18);
		*o++ = (char)(0x80 | (c >> 12 & 0x3f));
		*o++ = (char)(0x80 | (c >> 6 & 0x3f));
		*o++ = (char)(0x80 | (c & 0x3f));
	}
	return o;
}

/* The length of the well-formed UTF-8 sequence at p (RFC 3629), or 0. */
static size_t
utf8_len(const unsigned char *p, const unsigned char *end)
{
	size_t n = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
	uint32_t c;

	if (n == 0 || p[0] > 0xf4 || (size_t)(end - p) < n)
		return 0;
	c = p[0] & (0x3f >> (n - 1));
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return n;
}

/* A string at r->p (its quote); decoded into *out (malloc), *len. */
static bool
string(struct rd *r, char **out, size_t *len)
{
	const char *s = ++r->p;
	char *o, *buf;

	/* escapes only shorten: the raw length bounds the result */
	while (r->p < r->end && *r->p != '"')
		r->p += *r->p == '\\' && r->p + 1 < r->end ? 2 : 1;
	if (r->p >= r->end)
		return fail(r, "a string without its closing quote");
	buf = o = ms_xmalloc((size_t)(r->p - s) + 1);
	for (const char *p = s; p < r->p;) {
		unsigned char c = (unsigned char)*p;
		int u, lo;
		size_t n;

		if (c < 0x20) {
			free(buf);
			return fail(r, "a control character in a string");
		}
		if (c >= 0x80) {
			if ((n = utf8_len((const unsigned char *)p,
			    (const unsigned char *)r->p)) == 0) {
				free(buf);
				return fail(r, "a string that is not UTF-8");
			}
			memcpy(o, p, n);
			o += n;
			p += n;
			continue;
		}
		if (c != '\\') {
			*o++ = *p++;
			continue;
		}
		p++;
		if ((u = ms_json_escape(*p)) >= 0) {
			*o++ = (char)u;
			p++;
			continue;
		}
		if (*p++ != 'u') {
			free(buf);
			return fail(r, "an unknown escape in a string");
		}
		if (r->p - p < 4 || (u = ms_json_hex4(p)) < 0) {
			free(buf);
			return fail(r, "a \\u escape without four hex digits");
		}
		p += 4;
		if (u >= 0xdc00 && u <= 0xdfff) {
			free(buf);
			return fail(r, "a lone low surrogate in a string");
		}
		if (u >= 0xd800 && u <= 0xdbff) {
			if (r->p - p < 6 || p[0] != '\\' || p[1] != 'u' ||
			    (lo = ms_json_hex4(p + 2)) < 0xdc00 || lo > 0xdfff) {
				free(buf);
				return fail(r, "a lone high surrogate in a string");
			}
			p += 6;
			u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
		}
		o = ms_utf8_put(o, (uint32_t)u);
	}
	*o = '\0';
	*out = buf;
	*len = (size_t)(o - buf);
	r->p++;
	return true;
}

static bool
digits(struct rd *r)
{
	const char *s = r->p;

	while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
		r->p++;
	return r->p > s;
}

static bool
number(struct rd *r, size_t at)
{
	const char *s = r->p;

	if (r->p < r->end && *r->p == '-')
		r->p++;
	if (r->p < r->end && *r->p == '0')
		r->p++;
	else if (!digits(r))
		return fail(r, "not a JSON value");
	if (r->p < r->end && *r->p == '.') {
		r->p++;
		if (!digits(r))
			return fail(r, "a number without digits after its point");
	}
	if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
		r->p++;
		if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
			r->p++;
		if (!digits(r))
			return fail(r, "a number without digits in its exponent");
	}
	r->doc->n[at].type = MS_J_NUMBER;
	r->doc->n[at].str = ms_xstrndup(s, (size_t)(r->p - s));
	r->doc->n[at].len = (size_t)(r->p - s);
	return true;
}

static bool
word(struct rd *r, size_t at, const char *w, enum ms_jtype t)
{
	size_t n = strlen(w);

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n) != 0)
		return fail(r, "not a JSON value");
	r->p += n;
	r->doc->n[at].type = t;
	return true;
}

/* The members of an object (at r->p after its brace) or an array's. */
static bool
items(struct rd *r, size_t at, bool object)
{
	size_t last = 0;
	char close = object ? '}' : ']';

	r->doc->n[at].type = object ? MS_J_OBJECT : MS_J_ARRAY;
	ws(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return true;
	}
	for (;;) {
		size_t k = node(r);
		char *key = NULL;
		size_t key_len = 0;

		if (object) {
			ws(r);
			if (r->p >= r->end || *r->p != '"')
				return fail(r, "an object member without a key");
			if (!string(r, &key, &key_len))
				return false;
			r->doc->n[k].key = key;
			r->doc->n[k].key_len = key_len;
			for (size_t i = r->doc->n[at].kid; i != 0;
			    i = r->doc->n[i].next)
				if (r->doc->n[i].key_len == key_len &&
				    memcmp(r->doc->n[i].key, key, key_len) == 0)
					return fail(r, "an object with a key twice");
			ws(r);
			if (r->p >= r->end || *r->p != ':')
				return fail(r, "an object key without a colon");
			r->p++;
		}
		if (last == 0)
			r->doc->n[at].kid = k;
		else
			r->doc->n[last].next = k;
		last = k;
		if (!value(r, k))
			return false;
		ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return true;
		}
		return fail(r, object ? "an object without its closing brace" :
		    "an array without its closing bracket");
	}
}

static bool
value(struct rd *r, size_t at)
{
	bool ok;

	ws(r);
	if (r->p >= r->end)
		return fail(r, "a JSON value missing");
	switch (*r->p) {
	case '{':
	case '[':
		if (++r->depth > MS_JREAD_DEPTH)
			return fail(r, "JSON nested too deep");
		r->p++;
		ok = items(r, at, r->p[-1] == '{');
		r->depth--;
		return ok;
	case '"':
		r->doc->n[at].type = MS_J_STRING;
		return string(r, &r->doc->n[at].str, &r->doc->n[at].len);
	case 't':
		return word(r, at, "true", MS_J_TRUE);
	case 'f':
		return word(r, at, "false", MS_J_FALSE);
	case 'n':
		return word(r, at, "null", MS_J_NULL);
	default:
		return number(r, at);
	}
}

int
ms_jread(const char *text, size_t len, struct ms_jdoc *doc, const char **why)
{
	struct rd r = { .p = text, .end = text + len, .doc = doc };

	memset(doc, 0, sizeof(*doc));
	node(&r);
	if (value(&r, 0)) {
		ws(&r);
		if (r.p == r.end)
			return 0;
		fail(&r, "bytes after the JSON value");
	}
	*why = r.why;
	ms_jread_free(doc);
	return -1;
}

void
ms_jread_free(struct ms_jdoc *doc)
{
	for (size_t i = 0; i < doc->cnt; i++) {
		free(doc->n[i].key);
		free(doc->n[i].str);
	}
	free(doc->n);
	memset(doc, 0, sizeof(*doc));
}

const struct ms_jnode *
ms_jread_first(const struct ms_jdoc *doc, const struct ms_jnode *o)
{
	if (o == NULL || (o->type != MS_J_OBJECT && o->type != MS_J_ARRAY) ||
	    o->kid == 0)
		return NULL;
	return &doc->n[o->kid];
}

const struct ms_jnode *
ms_jread_next(const struct ms_jdoc *doc, const struct ms_jnode *k)
{
	return k->next == 0 ? NULL : &doc->n[k->next];
}

const struct ms_jnode *
ms_jread_member(const struct ms_jdoc *doc, const struct ms_jnode *o,
    const char *key)
{
	if (o == NULL || o->type != MS_J_OBJECT)
		return NULL;
	for (const struct ms_jnode *k = ms_jread_first(doc, o); k != NULL;
	    k = ms_jread_next(doc, k))
		if (strlen(key) == k->key_len && strcmp(k->key, key) == 0)
			return k;
	return NULL;
}

const char *
ms_jread_string(const struct ms_jdoc *doc, const struct ms_jnode *o,
    const char *key)
{
	const struct ms_jnode *k = ms_jread_member(doc, o, key);

	if (k == NULL || k->type != MS_J_STRING || strlen(k->str) != k->len)
		return NULL;
	return k->str;
}
