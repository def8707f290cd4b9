/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * shard.c - the split of a tree into N shards.
 *
 * Owns the stable hash that assigns a path to a shard.  The hash sees
 * only the path below its operand, so a shard does not depend on where
 * the tree is mounted, and adding or removing files never moves another
 * file to a different shard.  FNV-1a is specified in a few lines, so a
 * script can reproduce the split; it needs no key because shards only
 * balance work, they guard nothing.  Also owns sets of shards (which of
 * the N a manifest holds): their text, union, overlap and what is
 * missing, for the bookkeeping and --merge.
 */
#include "manifest/shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

int
ms_shard_parse(struct ms_shard *s, const char *text)
{
	char *end;
	unsigned long k, n;

	if (*text < '0' || *text > '9')
		return -1;
	k = strtoul(text, &end, 10);
	if (*end != '/' || end[1] < '0' || end[1] > '9')
		return -1;
	n = strtoul(end + 1, &end, 10);
	if (*end != '\0' || k < 1 || n < 1 || k > n || n > (1ul << 31))
		return -1;
	s->k = (uint32_t)k;
	s->n = (uint32_t)n;
	return 0;
}

const char *
ms_shard_key(const char *operand, const char *path)
{
	size_t len = strlen(operand);

	if (strncmp(path, operand, len) != 0)
		return path;
	if (path[len] == '/')
		return path + len + 1;
	/* an operand "dir/" already ends with the separator */
	if (path[len] != '\0' && len > 0 && operand[len - 1] == '/')
		return path + len;
	return path;
}

uint64_t
ms_shard_hash(const char *key)
{
	uint64_t h = 0xcbf29ce484222325u;

	for (const unsigned char *p = (const unsigned char *)key; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3u;
	}
	return h;
}

bool
ms_shard_keeps(const struct ms_shard *s, const char *key)
{
	return s->n == 0 || ms_shard_hash(key) % s->n == s->k - 1;
}

bool
ms_shard_keeps_path(const struct ms_shard *s, const char *operand,
    const char *path)
{
	return s->n == 0 || ms_shard_keeps(s, ms_shard_key(operand, path));
}

/* ------------------------------------------------------ sets of shards */

static void
push(struct ms_shard_set *set, uint32_t lo, uint32_t hi)
{
	/* touching or overlapping the last range: one range */
	if (set->cnt > 0 && lo <= set->r[set->cnt - 1].hi + 1) {
		if (hi > set->r[set->cnt - 1].hi)
			set->r[set->cnt - 1].hi = hi;
		return;
	}
	set->r = ms_xrealloc(set->r, (set->cnt + 1) * sizeof(*set->r));
	set->r[set->cnt].lo = lo;
	set->r[set->cnt].hi = hi;
	set->cnt++;
}

void
ms_shard_set_of(struct ms_shard_set *set, const struct ms_shard *s)
{
	memset(set, 0, sizeof(*set));
	set->n = s->n;
	if (s->n > 0)
		push(set, s->k, s->k);
}

static int
number(const char **p, uint32_t *v)
{
	char *end;
	unsigned long x;

	if (**p < '0' || **p > '9')
		return -1;
	x = strtoul(*p, &end, 10);
	if (x < 1 || x > (1ul << 31))
		return -1;
	*v = (uint32_t)x;
	*p = end;
	return 0;
}

int
ms_shard_set_parse(struct ms_shard_set *set, const char *text)
{
	const char *p = text;
	struct ms_shard_set s = { 0 };

	for (;;) {
		uint32_t lo, hi;

		if (number(&p, &lo) == -1)
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (number(&p, &hi) == -1 || hi < lo)
				goto bad;
		}
		/* in order, apart */
		if (s.cnt > 0 && lo <= s.r[s.cnt - 1].hi + 1)
			goto bad;
		push(&s, lo, hi);
		if (*p == '/')
			break;
		if (*p++ != ',')
			goto bad;
	}
	p++;
	if (number(&p, &s.n) == -1 ||
	    (*p != '\0' && *p != ' ' && *p != '\n') ||
	    s.r[s.cnt - 1].hi > s.n)
		goto bad;
	*set = s;
	return 0;
bad:
	free(s.r);
	return -1;
}

void
ms_shard_set_text(const struct ms_shard_set *set, char *buf, size_t cap)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < set->cnt && used < cap; i++) {
		const struct ms_shard_range *r = &set->r[i];
		int w = r->lo == r->hi ?
		    snprintf(buf + used, cap - used, "%s%u", i ? "," : "", r->lo) :
		    snprintf(buf + used, cap - used, "%s%u-%u", i ? "," : "",
		    r->lo, r->hi);

		used += w > 0 ? (size_t)w : 0;
	}
	if (used < cap)
		snprintf(buf + used, cap - used, "/%u", set->n);
}

bool
ms_shard_set_overlaps(const struct ms_shard_set *a, const struct ms_shard_set *b,
    uint32_t *first)
{
	for (size_t i = 0, j = 0; i < a->cnt && j < b->cnt;) {
		const struct ms_shard_range *x = &a->r[i], *y = &b->r[j];

		if (x->hi < y->lo) {
			i++;
		} else if (y->hi < x->lo) {
			j++;
		} else {
			*first = x->lo > y->lo ? x->lo : y->lo;
			return true;
		}
	}
	return false;
}

void
ms_shard_set_add(struct ms_shard_set *a, const struct ms_shard_set *b)
{
	struct ms_shard_set u = { .n = a->n };
	size_t i = 0, j = 0;

	while (i < a->cnt || j < b->cnt) {
		const struct ms_shard_range *r;

		if (j == b->cnt || (i < a->cnt && a->r[i].lo < b->r[j].lo))
			r = &a->r[i++];
		else
			r = &b->r[j++];
		push(&u, r->lo, r->hi);
	}
	free(a->r);
	*a = u;
}

bool
ms_shard_set_complete(const struct ms_shard_set *set)
{
	return set->n > 0 && set->cnt == 1 && set->r[0].lo == 1 &&
	    set->r[0].hi == set->n;
}

bool
ms_shard_set_equal(const struct ms_shard_set *a, const struct ms_shard_set *b)
{
	if (a->n != b->n || a->cnt != b->cnt)
		return false;
	for (size_t i = 0; i < a->cnt; i++)
		if (a->r[i].lo != b->r[i].lo || a->r[i].hi != b->r[i].hi)
			return false;
	return true;
}

void
ms_shard_set_missing(const struct ms_shard_set *set, struct ms_shard_set *out)
{
	uint32_t next = 1;

	memset(out, 0, sizeof(*out));
	out->n = set->n;
	for (size_t i = 0; i < set->cnt; i++) {
		if (set->r[i].lo > next)
			push(out, next, set->r[i].lo - 1);
		next = set->r[i].hi + 1;
	}
	if (set->n > 0 && next <= set->n)
		push(out, next, set->n);
}

void
ms_shard_set_free(struct ms_shard_set *set)
{
	free(set->r);
	memset(set, 0, sizeof(*set));
}
