/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * match_set.c - the sets --match and --unmatched test digests against:
 * known digests in hash tables, one per algorithm.
 *
 * Owns the tables and the streaming read of the manifests that fill
 * them.  A table keeps its digests inline, at the digest's own length,
 * in open addressing with linear probing, at most three quarters full
 * and doubled when it would be fuller: an entry costs its digest's bytes
 * divided by the load (between 3/8 and 3/4), so 43 to 85 bytes for a
 * SHA-256 and 21 to 43 for an MD5, plus one bit, whatever the names were.
 * Digests are uniform, so their first eight bytes, mixed with a seed
 * chosen at start, index the table.  The manifests' bytes are handed
 * in (lines.h) and parsed a line at a time: memory holds one block of a
 * manifest however long it is, and the tables stay under the bound the
 * caller gives (--memory).
 */
#include "manifest/match_set.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "manifest/lines.h"
#include "manifest/manifest.h"
#include "base/util.h"

struct table {
	struct ms_digest_spec spec;
	size_t		 len;		/* bytes of one digest */
	unsigned char	*slot;		/* (mask + 1) * len bytes */
	uint64_t	*used;		/* a bit per slot */
	size_t		 mask, cnt;
};

struct ms_match_set {
	struct table	 t[MS_SET_MAX];
	size_t		 n;
	uint64_t	 seed;
	size_t		 limit;		/* bytes the tables may take, 0: any */
	bool		 over;		/* a digest was refused for it */
};

struct ms_match_set *
ms_match_set_new(void)
{
	struct ms_match_set *h = ms_xcalloc(1, sizeof(*h));

	/* An index no file can be crafted against: the address and time. */
	h->seed = ((uint64_t)(uintptr_t)h ^ (uint64_t)time(NULL) ^
	    ((uint64_t)getpid() << 32)) * 0x9e3779b97f4a7c15u | 1;
	return h;
}

void
ms_match_set_free(struct ms_match_set *h)
{
	if (h == NULL)
		return;
	for (size_t i = 0; i < h->n; i++) {
		free(h->t[i].slot);
		free(h->t[i].used);
	}
	free(h);
}

static uint64_t
index_of(const struct ms_match_set *h, const unsigned char *d, size_t len)
{
	uint64_t w = 0;

	memcpy(&w, d, len < 8 ? len : 8);
	w = (w ^ h->seed) * 0xff51afd7ed558ccdu;
	return w ^ (w >> 29);
}

static bool
is_used(const struct table *t, size_t k)
{
	return t->used[k / 64] >> (k % 64) & 1;
}

/* The slot of d in t: where it is, or the empty one where it would go. */
static size_t
probe(const struct ms_match_set *h, const struct table *t, const unsigned char *d)
{
	size_t k = (size_t)index_of(h, d, t->len) & t->mask;

	while (is_used(t, k) && memcmp(t->slot + k * t->len, d, t->len) != 0)
		k = (k + 1) & t->mask;
	return k;
}

static void
put(const struct ms_match_set *h, struct table *t, const unsigned char *d)
{
	size_t k = probe(h, t, d);

	if (is_used(t, k))
		return;
	memcpy(t->slot + k * t->len, d, t->len);
	t->used[k / 64] |= (uint64_t)1 << (k % 64);
	t->cnt++;
}

/* A table of slots slots (a power of two), with t's digests moved in. */
static void
resize(const struct ms_match_set *h, struct table *t, size_t slots)
{
	struct table old = *t;

	t->slot = ms_xcalloc(slots, t->len);
	t->used = ms_xcalloc((slots + 63) / 64, sizeof(*t->used));
	t->mask = slots - 1;
	t->cnt = 0;
	for (size_t k = 0; old.slot != NULL && k <= old.mask; k++)
		if (is_used(&old, k))
			put(h, t, old.slot + k * old.len);
	free(old.slot);
	free(old.used);
}

static struct table *
table_of(const struct ms_match_set *h, const struct ms_digest_spec *spec)
{
	for (size_t i = 0; i < h->n; i++)
		if (h->t[i].spec.algo == spec->algo && h->t[i].spec.bits == spec->bits)
			return (struct table *)&h->t[i];
	return NULL;
}

/* The bytes of a table of slots slots of len bytes. */
static size_t
table_bytes(size_t slots, size_t len)
{
	return slots * len + (slots + 63) / 64 * 8;
}

/* Would growing t to slots slots pass h's limit (the old table is freed
 * after the new one is filled)? */
static bool
too_big(struct ms_match_set *h, const struct table *t, size_t slots)
{
	if (h->limit == 0 ||
	    ms_match_set_bytes(h) + table_bytes(slots, t->len) <= h->limit)
		return false;
	h->over = true;
	return true;
}

/*
 * Add a digest; false if the set holds MS_SET_MAX algorithms already, or
 * if its table would grow past h->limit (h->over).
 */
static bool
add(struct ms_match_set *h, const struct ms_digest_spec *spec,
    const unsigned char *d)
{
	struct table *t = table_of(h, spec);

	if (t == NULL) {
		struct table probe_t = { .len = ms_spec_len(spec) };

		if (h->n < MS_SET_MAX && too_big(h, &probe_t, 64))
			return false;
		if (h->n == MS_SET_MAX)
			return false;
		t = &h->t[h->n++];
		memset(t, 0, sizeof(*t));
		t->spec = *spec;
		t->len = ms_spec_len(spec);
		resize(h, t, 64);
	}
	if (t->cnt + 1 > (t->mask + 1) / 4 * 3) {
		if (too_big(h, t, 2 * (t->mask + 1)))
			return false;
		resize(h, t, 2 * (t->mask + 1));
	}
	put(h, t, d);
	return true;
}

bool
ms_match_set_has(const struct ms_match_set *h, const struct ms_digest_spec *spec,
    const unsigned char *d)
{
	const struct table *t = table_of(h, spec);

	return t != NULL && is_used(t, probe(h, t, d));
}

/* The digests of one entry; those cut short (cksum's SHA256-128) are not
 * whole digests and match nothing. */
static bool
add_entry(struct ms_match_set *h, const struct ms_manifest_entry *e)
{
	bool any = false;

	for (size_t i = 0; i < e->n; i++)
		if (e->d[i].len == ms_spec_len(&e->d[i].spec) &&
		    add(h, &e->d[i].spec, e->d[i].digest))
			any = true;
	return any;
}

int
ms_match_set_load(struct ms_match_set *h, const struct ms_manifest_input *in,
    const struct ms_selection *given, size_t limit, size_t *bad, size_t *got)
{
	const struct ms_manifest_rules rules = { .dialect = MS_DIALECT_NATIVE,
	    .given = given };
	struct ms_manifest_state st = { .reversed = -1 };
	struct ms_manifest_entry e;
	struct ms_lines r;
	char *line, *copy = NULL;
	uint64_t at;
	ssize_t n = 0;
	int err = 0;

	h->limit = limit;
	ms_lines_init(&r, in);
	ms_manifest_begin(&rules, &st, in->name);
	while (!h->over && (n = ms_lines_next(&r, &line, &at)) > 0) {
		enum ms_line rc;
		const char *why;

		size_t hex = strspn(line, "0123456789abcdefABCDEF");

		/* A hash list's line, a bare hex digest, goes the short way. */
		if (hex >= 8 && strspn(line + hex, "\r\n") == (size_t)n - hex) {
			char end = line[hex];

			line[hex] = '\0';
			if (ms_manifest_expect(line, given, &e, &why) == 0 &&
			    add_entry(h, &e))
				(*got)++;
			else
				(*bad)++;
			line[hex] = end;
			continue;
		}
		/* the parser works in place: keep the line for a bare digest */
		copy = ms_xrealloc(copy, (size_t)n + 1);
		memcpy(copy, line, (size_t)n + 1);
		do {
			rc = ms_manifest_parse(&rules, &st, line, (size_t)n, &e);
			if (rc == MS_LINE_ENTRY)
				*(add_entry(h, &e) ? got : bad) += 1;
		} while (st.again);
		if (rc == MS_LINE_BAD) {
			copy[strcspn(copy, "\r\n")] = '\0';
			if (ms_manifest_expect(copy, given, &e, &why) == 0 &&
			    add_entry(h, &e))
				(*got)++;
			else
				(*bad)++;
		}
	}
	if (n == -1 && !h->over)
		err = errno != 0 ? errno : EIO;
	else if (!h->over)
		do	/* a Debian list's held lines come one a call */
			if (ms_manifest_finish(&rules, &st, &e) == MS_LINE_ENTRY)
				*(add_entry(h, &e) ? got : bad) += 1;
		while (st.again && !h->over);
	if (h->over)
		err = E2BIG;
	ms_manifest_end(&st);
	ms_lines_free(&r);
	free(copy);
	if (ms_manifest_input_close(in) == -1 && err == 0)
		err = errno;
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}

/*
 * Can a file of other content match t's digests by chance or design: a
 * checksum (CRC, xxHash, a sum), or any digest cut below 128 bits
 * (b2sum -l 8 keeps one byte: one file in 256 would match).
 */
static bool
weak_table(const struct table *t)
{
	return t->spec.algo->class == MS_CLASS_NONCRYPTO || t->len < 16;
}

const char *
ms_match_set_drop_weak(struct ms_match_set *h, char *buf, size_t cap)
{
	size_t keep = 0, used = 0;
	bool strong = false;

	for (size_t i = 0; i < h->n; i++)
		strong |= !weak_table(&h->t[i]);
	if (!strong)
		return NULL;
	buf[0] = '\0';
	for (size_t i = 0; i < h->n; i++) {
		struct table *t = &h->t[i];
		char name[32];

		if (!weak_table(t)) {
			h->t[keep++] = *t;
			continue;
		}
		used += (size_t)snprintf(buf + used, used < cap ? cap - used : 0,
		    "%s%s", used > 0 ? ", " : "",
		    ms_spec_name(&t->spec, name, sizeof(name)));
		free(t->slot);
		free(t->used);
	}
	h->n = keep;
	return buf[0] != '\0' ? buf : NULL;
}

bool
ms_match_set_weak(const struct ms_match_set *h)
{
	for (size_t i = 0; i < h->n; i++)
		if (!weak_table(&h->t[i]))
			return false;
	return h->n > 0;
}

void
ms_match_set_algorithms(const struct ms_match_set *h, struct ms_selection *sel)
{
	for (size_t i = 0; i < h->n; i++)
		ms_selection_add(sel, &h->t[i].spec);
}

size_t
ms_match_set_count(const struct ms_match_set *h)
{
	size_t n = 0;

	for (size_t i = 0; i < h->n; i++)
		n += h->t[i].cnt;
	return n;
}

size_t
ms_match_set_bytes(const struct ms_match_set *h)
{
	size_t n = 0;

	for (size_t i = 0; i < h->n; i++)
		n += (h->t[i].mask + 1) * h->t[i].len +
		    (h->t[i].mask + 1 + 63) / 64 * 8;
	return n;
}
