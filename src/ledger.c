/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * ledger.c - a manifest as a table of entries plus their bookkeeping.
 *
 * Owns the bookkeeping format (ledger.h), reading a manifest of GNU or
 * BSD lines back into compact entries (names and digests in a bump
 * arena, one sorted index for lookups, so that a million entries stay
 * well under the memory budget), and the racily-clean rule.  Lines are
 * parsed by manifest.c; nothing here hashes a file or writes a result.
 */
#include "ledger.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "manifest.h"
#include "util.h"

#define CHUNK_SIZE	(1u << 20)

struct ms_ledger_chunk {
	struct ms_ledger_chunk *next;
	size_t		 used, cap;
	unsigned char	 mem[];
};

/* n bytes that live as long as the ledger. */
static void *
arena_alloc(struct ms_ledger *l, size_t n)
{
	struct ms_ledger_chunk *c = l->arena;

	n = (n + 7) & ~(size_t)7;
	if (c == NULL || c->cap - c->used < n) {
		size_t cap = n > CHUNK_SIZE / 4 ? n : CHUNK_SIZE;

		c = ms_xmalloc(sizeof(*c) + cap);
		c->used = 0;
		c->cap = cap;
		c->next = l->arena;
		l->arena = c;
	}
	c->used += n;
	return c->mem + c->used - n;
}

size_t
ms_selection_index(const struct ms_selection *sel,
    const struct ms_digest_spec *spec)
{
	for (size_t i = 0; i < sel->cnt; i++)
		if (sel->spec[i].algo == spec->algo &&
		    sel->spec[i].bits == spec->bits)
			return i;
	return SIZE_MAX;
}

/* Parse "N" (an optional '-' if sign) up to a space or the end. */
static int
parse_num(const char **p, bool sign, int64_t *out)
{
	const char *s = *p;
	bool neg = sign && *s == '-';
	uint64_t v = 0;

	s += neg;
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (*s != ' ' && *s != '\n' && *s != '\0')
		return -1;
	if (sign && v > INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	*p = *s == ' ' ? s + 1 : s;
	return 0;
}

static bool
parse_stat(const char *s, struct ms_file_stat *fs)
{
	int64_t v[4];

	if (parse_num(&s, false, &v[0]) == -1 || parse_num(&s, true, &v[1]) == -1 ||
	    parse_num(&s, true, &v[2]) == -1 || parse_num(&s, false, &v[3]) == -1)
		return false;
	if (*s != '\0' && strcmp(s, "\n") != 0 && strcmp(s, "\r\n") != 0)
		return false;
	fs->size = (uint64_t)v[0];
	fs->mtime_ns = v[1];
	fs->ctime_ns = v[2];
	fs->ino = (uint64_t)v[3];
	return true;
}

static bool
parse_header(const char *s, int64_t *stamp)
{
	const char *p = strstr(s, "stamp=");

	if (p == NULL)
		return false;
	p += 6;
	return parse_num(&p, true, stamp) == 0;
}

/* The lines of one manifest, each entry line handed to fn until it
 * returns false. */
typedef bool line_fn(void *arg, const struct ms_manifest_entry *e,
    const struct ms_file_stat *fs, bool has_stat);

static int
read_manifest(const char *path, const struct ms_selection *given,
    struct ms_ledger *l, line_fn *fn, void *arg)
{
	struct ms_manifest_rules rules = { .dialect = MS_DIALECT_NATIVE,
	    .given = given };
	struct ms_manifest_state st = { 0 };
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	struct ms_file_stat fs = { 0 };
	bool pending = false;
	int rc = 0;

	if (fp == NULL)
		return -1;
	ms_manifest_begin(&rules, &st, path);
	while ((n = getline(&line, &cap, fp)) > 0) {
		struct ms_manifest_entry e;

		if (l != NULL && st.line == 0 &&
		    strncmp(line, MS_LEDGER_MAGIC, strlen(MS_LEDGER_MAGIC)) == 0)
			l->versioned = parse_header(line, &l->stamp_ns);
		if (strncmp(line, MS_LEDGER_ENTRY, strlen(MS_LEDGER_ENTRY)) == 0) {
			pending = parse_stat(line + strlen(MS_LEDGER_ENTRY), &fs);
			st.line++;
			continue;
		}
		if (ms_manifest_parse(&rules, &st, line, (size_t)n, &e) ==
		    MS_LINE_ENTRY && !fn(arg, &e, &fs, pending))
			break;
		pending = false;
	}
	if (ferror(fp))
		rc = -1;
	ms_manifest_end(&st);
	free(line);
	if (fclose(fp) != 0)
		rc = -1;
	return rc;
}

struct scan {
	struct ms_selection *sel;
	char		*first;		/* the first entry's name */
};

/* The algorithms of the first entry (its lines follow each other). */
static bool
scan_line(void *arg, const struct ms_manifest_entry *e,
    const struct ms_file_stat *fs, bool has_stat)
{
	struct scan *s = arg;

	(void)fs;
	(void)has_stat;
	if (s->first == NULL)
		s->first = ms_xstrdup(e->name);
	else if (strcmp(s->first, e->name) != 0)
		return false;
	for (size_t k = 0; k < e->n; k++)
		if (e->d[k].len == ms_spec_len(&e->d[k].spec))
			ms_selection_add(s->sel, &e->d[k].spec);
	return true;
}

int
ms_ledger_scan(const char *path, struct ms_selection *sel)
{
	struct scan s = { sel, NULL };
	int rc = read_manifest(path, NULL, NULL, scan_line, &s);

	free(s.first);
	return rc;
}

/* Which digest of the selection a line gives, or SIZE_MAX. */
static size_t
line_index(const struct ms_selection *sel, const struct ms_manifest_entry *e)
{
	size_t i = SIZE_MAX;

	/* An untagged digest has one algorithm (manifest.h). */
	if (e->n > 0 && e->d[0].len == ms_spec_len(&e->d[0].spec))
		i = ms_selection_index(sel, &e->d[0].spec);
	return i;
}

static bool
load_line(void *arg, const struct ms_manifest_entry *me,
    const struct ms_file_stat *fs, bool has_stat)
{
	struct ms_ledger *l = arg;
	const struct ms_selection *sel = l->sel;
	size_t i = line_index(sel, me);
	struct ms_ledger_entry *e;

	if (i == SIZE_MAX) {
		l->foreign++;
		return true;
	}
	/* The BSD lines of one file follow each other. */
	e = l->cnt > 0 ? &l->e[l->cnt - 1] : NULL;
	if (e == NULL || strcmp(e->name, me->name) != 0 || (e->have >> i & 1)) {
		size_t nl = strlen(me->name) + 1;

		if (l->cnt == l->cap) {
			l->cap = l->cap ? l->cap * 2 : 1024;
			l->e = ms_xrealloc(l->e, l->cap * sizeof(*l->e));
		}
		e = &l->e[l->cnt++];
		memset(e, 0, sizeof(*e));
		e->digest = arena_alloc(l, sel->out_len + nl);
		e->name = memcpy(e->digest + sel->out_len, me->name, nl);
	}
	if (has_stat && e->have == 0) {
		e->st = *fs;
		e->flags |= MS_LEDGER_HAS_STAT;
		l->nstat++;
	}
	memcpy(e->digest + sel->offset[i], me->d[0].digest,
	    ms_spec_len(&sel->spec[i]));
	e->have |= (uint64_t)1 << i;
	return true;
}

static const struct ms_ledger *sorting;

static int
by_name(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(sorting->e[x].name, sorting->e[y].name);

	return c != 0 ? c : (x > y) - (x < y);
}

int
ms_ledger_load(struct ms_ledger *l, const char *path,
    const struct ms_selection *sel)
{
	memset(l, 0, sizeof(*l));
	l->sel = sel;
	if (read_manifest(path, sel, l, load_line, l) == -1) {
		int err = errno;

		ms_ledger_free(l);
		errno = err;
		return -1;
	}
	if (l->cnt > UINT32_MAX)
		ms_die("%s: too many entries", path);
	l->order = ms_xmalloc((l->cnt ? l->cnt : 1) * sizeof(*l->order));
	for (size_t i = 0; i < l->cnt; i++)
		l->order[i] = (uint32_t)i;
	sorting = l;
	if (l->cnt > 1)
		qsort(l->order, l->cnt, sizeof(*l->order), by_name);
	/* A name listed twice: the first listing counts. */
	for (size_t i = 1; i < l->cnt; i++)
		if (strcmp(l->e[l->order[i - 1]].name, l->e[l->order[i]].name) == 0)
			l->e[l->order[i]].flags |= MS_LEDGER_DUP;
	if (!l->versioned)
		l->nstat = 0;
	return 0;
}

void
ms_ledger_free(struct ms_ledger *l)
{
	while (l->arena != NULL) {
		struct ms_ledger_chunk *c = l->arena;

		l->arena = c->next;
		free(c);
	}
	free(l->e);
	free(l->order);
	memset(l, 0, sizeof(*l));
}

struct ms_ledger_entry *
ms_ledger_find(const struct ms_ledger *l, const char *name)
{
	size_t lo = 0, hi = l->cnt;

	/* The first of equal names: the lowest index sorts first. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(l->e[l->order[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < l->cnt && strcmp(l->e[l->order[lo]].name, name) == 0)
		return &l->e[l->order[lo]];
	return NULL;
}

bool
ms_ledger_complete(const struct ms_ledger *l, const struct ms_ledger_entry *e)
{
	uint64_t all = l->sel->cnt >= 64 ? UINT64_MAX :
	    ((uint64_t)1 << l->sel->cnt) - 1;

	return (e->have & all) == all;
}

bool
ms_ledger_vouches(const struct ms_ledger *l, const struct ms_ledger_entry *e,
    const struct ms_file_stat *st)
{
	int64_t trusted_before;

	if (!l->versioned || !(e->flags & MS_LEDGER_HAS_STAT) ||
	    !ms_ledger_complete(l, e))
		return false;
	if (e->st.size != st->size || e->st.mtime_ns != st->mtime_ns ||
	    e->st.ctime_ns != st->ctime_ns || e->st.ino != st->ino)
		return false;
	/*
	 * Racily clean: a write after the file was read, landing in the
	 * same timestamp tick, leaves size and times as recorded.  Such a
	 * write happens after the stamp, so its times are at least the
	 * stamp rounded down to the granularity: recorded times safely
	 * older than that would have changed.
	 */
	if (l->stamp_ns < INT64_MIN + MS_LEDGER_RACY_NS)
		return false;
	trusted_before = l->stamp_ns - MS_LEDGER_RACY_NS;
	return e->st.mtime_ns < trusted_before && e->st.ctime_ns < trusted_before;
}

static int64_t
ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

void
ms_file_stat_from(struct ms_file_stat *fs, const struct stat *st)
{
	fs->size = (uint64_t)st->st_size;
	fs->mtime_ns = ts_ns(&st->st_mtim);
	fs->ctime_ns = ts_ns(&st->st_ctim);
	fs->ino = (uint64_t)st->st_ino;
}

int64_t
ms_ledger_stamp(int fd)
{
	struct timespec now;
	struct stat st;
	int64_t stamp;

#ifdef CLOCK_REALTIME_COARSE
	/* The clock the kernel stamps files with, which lags the fine one. */
	if (clock_gettime(CLOCK_REALTIME_COARSE, &now) == -1)
#endif
		clock_gettime(CLOCK_REALTIME, &now);
	stamp = ts_ns(&now);
	if (fd != -1 && fstat(fd, &st) == 0 && ts_ns(&st.st_mtim) < stamp)
		stamp = ts_ns(&st.st_mtim);
	return stamp;
}

void
ms_ledger_write_header(FILE *out, int64_t stamp_ns)
{
	fprintf(out, MS_LEDGER_MAGIC "stamp=%" PRId64
	    " fields=size,mtime_ns,ctime_ns,ino\n", stamp_ns);
}

void
ms_ledger_write_stat(FILE *out, const struct ms_file_stat *st)
{
	fprintf(out, MS_LEDGER_ENTRY "%" PRIu64 " %" PRId64 " %" PRId64 " %"
	    PRIu64 "\n", st->size, st->mtime_ns, st->ctime_ns, st->ino);
}
