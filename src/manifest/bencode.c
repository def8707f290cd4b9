/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bencode.c - BitTorrent's bencoding (BEP 3) parsed from bytes in memory.
 *
 * Owns the syntax and nothing else: what a torrent's keys mean is
 * torrent.c's.  It opens no file and trusts no length: every string must
 * fit in what is left of the input, integers are canonical and within
 * int64_t, keys are sorted and unique, nesting is bounded, and nothing
 * may follow the value.  A node's raw bytes are kept (the info hash is
 * the digest of the info dictionary exactly as it was written).
 */
#include "manifest/bencode.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct parser {
	const unsigned char *p, *end;
	const char	*why;
};

static bool parse_value(struct parser *ps, struct ms_bnode *out,
    unsigned depth);

static bool
fail(struct parser *ps, const char *why)
{
	if (ps->why == NULL)
		ps->why = why;
	return false;
}

/* Digits up to stop into *v (canonical, non-negative unless neg_ok). */
static bool
parse_int(struct parser *ps, unsigned char stop, bool neg_ok, int64_t *v)
{
	bool neg = false;
	uint64_t acc = 0, limit = INT64_MAX;
	const unsigned char *first;

	if (neg_ok && ps->p < ps->end && *ps->p == '-') {
		neg = true;
		limit = (uint64_t)INT64_MAX + 1;
		ps->p++;
	}
	first = ps->p;
	while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') {
		unsigned d = *ps->p - '0';

		if (acc > (limit - d) / 10)
			return fail(ps, "a number too large");
		acc = acc * 10 + d;
		ps->p++;
	}
	if (ps->p == first)
		return fail(ps, "a number without digits");
	if (ps->p == ps->end || *ps->p != stop)
		return fail(ps, "a number not ended as bencoding ends it");
	if ((*first == '0' && ps->p - first > 1) || (neg && acc == 0))
		return fail(ps, "a number not in canonical form");
	ps->p++;
	*v = neg ? (int64_t)(0 - acc) : (int64_t)acc;
	return true;
}

static bool
parse_string(struct parser *ps, struct ms_bnode *out)
{
	int64_t len;

	if (!parse_int(ps, ':', false, &len))
		return false;
	if ((uint64_t)len > (uint64_t)(ps->end - ps->p))
		return fail(ps, "a string longer than the file");
	out->type = MS_BSTR;
	out->s = ps->p;
	out->len = (size_t)len;
	ps->p += len;
	return true;
}

/* A list's or dictionary's items, up to 'e'. */
static bool
parse_items(struct parser *ps, struct ms_bnode *out, bool dict,
    unsigned depth)
{
	size_t cap = 0;

	/* a list of nodes (keys and values) until it is whole */
	out->type = MS_BLIST;
	for (;;) {
		if (ps->p == ps->end)
			return fail(ps, "a list or dictionary not ended");
		if (*ps->p == 'e') {
			ps->p++;
			break;
		}
		if (out->len + 2 > cap) {
			cap = cap == 0 ? 8 : 2 * cap;
			out->item = ms_xrealloc(out->item,
			    cap * sizeof(*out->item));
		}
		memset(&out->item[out->len], 0, 2 * sizeof(*out->item));
		if (dict) {
			struct ms_bnode *key = &out->item[out->len];

			if (*ps->p < '0' || *ps->p > '9')
				return fail(ps, "a dictionary key not a string");
			if (!parse_string(ps, key))
				return false;
			out->len++;
			if (out->len > 2) {
				const struct ms_bnode *prev =
				    &out->item[out->len - 3];
				size_t m = prev->len < key->len ? prev->len :
				    key->len;
				int c = memcmp(prev->s, key->s, m);

				if (c > 0 || (c == 0 && prev->len >= key->len))
					return fail(ps, "dictionary keys out "
					    "of order or repeated");
			}
		}
		if (!parse_value(ps, &out->item[out->len++], depth + 1))
			return false;
	}
	if (dict) {
		out->type = MS_BDICT;
		out->len /= 2;
	}
	return true;
}

static bool
parse_value(struct parser *ps, struct ms_bnode *out, unsigned depth)
{
	const unsigned char *start = ps->p;
	bool ok;

	if (depth >= MS_BENCODE_DEPTH)
		return fail(ps, "nested too deeply");
	if (ps->p == ps->end)
		return fail(ps, "cut short");
	out->raw = start;
	switch (*ps->p) {
	case 'i':
		ps->p++;
		out->type = MS_BINT;
		ok = parse_int(ps, 'e', true, &out->i);
		break;
	case 'l':
	case 'd':
		ps->p++;
		ok = parse_items(ps, out, *start == 'd', depth);
		break;
	default:
		if (*ps->p < '0' || *ps->p > '9')
			return fail(ps, "not bencoding");
		ok = parse_string(ps, out);
		break;
	}
	out->raw_len = (size_t)(ps->p - start);
	return ok;
}

static void
free_items(struct ms_bnode *v)
{
	size_t n;

	if (v->type != MS_BLIST && v->type != MS_BDICT)
		return;
	n = v->type == MS_BDICT ? 2 * v->len : v->len;
	for (size_t i = 0; i < n && v->item != NULL; i++)
		free_items(&v->item[i]);
	free(v->item);
}

struct ms_bnode *
ms_bencode_parse(const unsigned char *buf, size_t n, const char **why)
{
	struct parser ps = { .p = buf, .end = buf + n };
	struct ms_bnode *root = ms_xcalloc(1, sizeof(*root));

	if (parse_value(&ps, root, 0) && ps.p != ps.end)
		fail(&ps, "data after the end");
	if (ps.why != NULL) {
		*why = ps.why;
		ms_bencode_free(root);
		return NULL;
	}
	return root;
}

void
ms_bencode_free(struct ms_bnode *root)
{
	if (root == NULL)
		return;
	free_items(root);
	free(root);
}

int
ms_bencode_is(const struct ms_bnode *v, const char *s)
{
	size_t n = strlen(s);

	return v != NULL && v->type == MS_BSTR && v->len == n &&
	    memcmp(v->s, s, n) == 0;
}

const struct ms_bnode *
ms_bencode_get(const struct ms_bnode *d, const char *key)
{
	if (d == NULL || d->type != MS_BDICT)
		return NULL;
	for (size_t i = 0; i < d->len; i++)
		if (ms_bencode_is(&d->item[2 * i], key))
			return &d->item[2 * i + 1];
	return NULL;
}
