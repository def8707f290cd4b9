/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * ledger.c - a manifest as a table of entries plus their bookkeeping.
 *
 * Owns the bookkeeping format (ledger.h), the table of entries (names
 * and digests in a bump arena, one hash index sized once, so that a
 * million entries stay well under the memory budget), the racily-clean
 * rule and the writing of the bookkeeping lines.  Reading a manifest
 * into the table is ledger_read.c's; nothing here hashes a file or
 * writes a result line.
 */
#include "manifest/ledger_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "manifest/format.h"
#include "base/portable.h"
#include "base/util.h"

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

/* The index's hash of a name: eight bytes a step. */
static uint32_t
name_hash(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15u ^ n, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
	h ^= h >> 29;
	h *= 0xff51afd7ed558ccdu;
	return (uint32_t)(h >> 32);
}

void
ms_ledger_add(struct ms_ledger *l, const char *name, size_t nl, size_t i,
    const unsigned char *digest, const struct ms_file_stat *fs,
    const struct ms_ledger_line *ln)
{
	const struct ms_selection *sel = l->sel;
	struct ms_ledger_entry *e;

	if (i == SIZE_MAX) {
		l->foreign++;
		return;
	}
	/* The BSD lines of one file follow each other. */
	e = l->cnt > 0 ? &l->e[l->cnt - 1] : NULL;
	if (e == NULL || (e->have >> i & 1) || memcmp(e->name, name, nl) != 0 ||
	    e->name[nl] != '\0') {
		char *n;

		if (l->cnt == l->cap) {
			l->cap = l->cap ? l->cap * 2 : 1024;
			l->e = ms_xrealloc(l->e, l->cap * sizeof(*l->e));
		}
		e = &l->e[l->cnt++];
		memset(e, 0, sizeof(*e));
		e->digest = arena_alloc(l, sel->out_len + nl + 1);
		n = (char *)e->digest + sel->out_len;
		memcpy(n, name, nl);
		n[nl] = '\0';
		e->name = n;
		e->hash = name_hash(name, nl);
		/* Plain: its lines in the run's shape and order, right after a
		 * "#@" line, the name written as it is. */
		if (ln != NULL && ln->plain && fs != NULL && i == 0 &&
		    ln->len <= UINT32_MAX && !ms_name_needs_escape(n)) {
			e->flags |= MS_LEDGER_PLAIN;
			e->off = ln->off;
			e->span = (uint32_t)ln->len;
		}
	} else if (e->flags & MS_LEDGER_PLAIN) {
		if (ln != NULL && ln->plain && fs == NULL &&
		    ln->off == e->off + e->span && ln->len <= UINT32_MAX - e->span &&
		    e->have == ((uint64_t)1 << i) - 1)
			e->span += (uint32_t)ln->len;
		else
			e->flags &= ~(uint32_t)MS_LEDGER_PLAIN;
	}
	if (fs != NULL && e->have == 0) {
		e->st = *fs;
		e->flags |= MS_LEDGER_HAS_STAT;
		l->nstat++;
		if (fs->pieces != NULL) {
			size_t n = strlen(fs->pieces) + 1;

			e->st.pieces = memcpy(arena_alloc(l, n), fs->pieces, n);
		}
	}
	memcpy(e->digest + sel->offset[i], digest, ms_spec_len(&sel->spec[i]));
	e->have |= (uint64_t)1 << i;
}

void
ms_ledger_index(struct ms_ledger *l, const char *path)
{
	size_t n = 16;

	if (l->cnt > UINT32_MAX / 2)
		ms_die("%s: too many entries", path);
	/* At most three quarters full: probes stay short. */
	while (n - n / 4 <= l->cnt)
		n *= 2;
	l->slot = ms_xcalloc(n, sizeof(*l->slot));
	l->mask = n - 1;
	for (size_t i = 0; i < l->cnt; i++) {
		struct ms_ledger_entry *e = &l->e[i];
		size_t k = e->hash & l->mask;

		if (!ms_ledger_complete(l, e))
			e->flags &= ~(uint32_t)MS_LEDGER_PLAIN;

		for (; l->slot[k] != 0; k = (k + 1) & l->mask) {
			const struct ms_ledger_entry *f = &l->e[l->slot[k] - 1];

			/* A name listed twice: the first listing counts. */
			if (f->hash == e->hash && strcmp(f->name, e->name) == 0) {
				e->flags |= MS_LEDGER_DUP;
				break;
			}
		}
		if (l->slot[k] == 0)
			l->slot[k] = (uint32_t)(i + 1);
	}
	if (!l->versioned)
		l->nstat = 0;
}

void
ms_ledger_empty(struct ms_ledger *l, const struct ms_selection *sel)
{
	memset(l, 0, sizeof(*l));
	l->sel = sel;
	ms_ledger_index(l, "");
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
	free(l->slot);
	ms_ledger_head_free(&l->head);
	(void)ms_manifest_input_close(&l->in);
	memset(l, 0, sizeof(*l));
}

struct ms_ledger_entry *
ms_ledger_find(struct ms_ledger *l, const char *name)
{
	struct ms_ledger_entry *e;
	uint32_t h;

	/* The walk's order is usually the manifest's: try the next one. */
	if (l->hint < l->cnt) {
		e = &l->e[l->hint];
		if (!(e->flags & MS_LEDGER_DUP) && strcmp(e->name, name) == 0) {
			l->hint++;
			return e;
		}
	}
	h = name_hash(name, strlen(name));
	for (size_t k = h & l->mask; l->slot[k] != 0; k = (k + 1) & l->mask) {
		e = &l->e[l->slot[k] - 1];
		if (e->hash == h && strcmp(e->name, name) == 0) {
			l->hint = l->slot[k];
			return e;
		}
	}
	return NULL;
}

bool
ms_ledger_complete(const struct ms_ledger *l, const struct ms_ledger_entry *e)
{
	uint64_t all = l->sel->cnt >= 64 ? UINT64_MAX :
	    ((uint64_t)1 << l->sel->cnt) - 1;

	return (e->have & all) == all;
}

/* Recorded times safely older than the stamp they were written under. */
static bool
times_trusted(const struct ms_ledger *l, const struct ms_file_stat *st)
{
	int64_t trusted_before;

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
	return st->mtime_ns < trusted_before && st->ctime_ns < trusted_before;
}

bool
ms_ledger_trusted(const struct ms_ledger *l, const struct ms_ledger_entry *e)
{
	return l->versioned && (e->flags & MS_LEDGER_HAS_STAT) &&
	    ms_ledger_complete(l, e) && times_trusted(l, &e->st);
}

bool
ms_ledger_unmodified(const struct ms_ledger *l, const struct ms_ledger_entry *e,
    const struct ms_file_stat *st)
{
	return l->versioned && (e->flags & MS_LEDGER_HAS_STAT) &&
	    e->st.size == st->size && e->st.mtime_ns == st->mtime_ns &&
	    times_trusted(l, &e->st);
}

bool
ms_ledger_vouches(const struct ms_ledger *l, const struct ms_ledger_entry *e,
    const struct ms_file_stat *st)
{
	if (!l->versioned || !(e->flags & MS_LEDGER_HAS_STAT) ||
	    !ms_ledger_complete(l, e))
		return false;
	if (e->st.size != st->size || e->st.mtime_ns != st->mtime_ns ||
	    e->st.ctime_ns != st->ctime_ns || e->st.ino != st->ino)
		return false;
	return times_trusted(l, &e->st);
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
	fs->mtime_ns = ts_ns(&MS_ST_MTIM(st));
	fs->ctime_ns = ts_ns(&MS_ST_CTIM(st));
	fs->ino = (uint64_t)st->st_ino;
	fs->piece = 0;
	fs->pieces = NULL;
}

int64_t
ms_ledger_stamp(int fd)
{
	struct stat st;
	/* The clock the kernel stamps files with, which lags the fine one. */
	int64_t stamp = ms_realtime_coarse_ns();

	if (fd != -1 && fstat(fd, &st) == 0 && ts_ns(&MS_ST_MTIM(&st)) < stamp)
		stamp = ts_ns(&MS_ST_MTIM(&st));
	return stamp;
}

/* v in decimal, ending at end; returns where it starts. */
static char *
put_u64(char *end, uint64_t v)
{
	static const char pairs[] =
	    "0001020304050607080910111213141516171819"
	    "2021222324252627282930313233343536373839"
	    "4041424344454647484950515253545556575859"
	    "6061626364656667686970717273747576777879"
	    "8081828384858687888990919293949596979899";

	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		*--end = pairs[2 * r + 1];
		*--end = pairs[2 * r];
	}
	if (v >= 10) {
		*--end = pairs[2 * v + 1];
		*--end = pairs[2 * v];
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

static char *
put_i64(char *end, int64_t v)
{
	if (v >= 0)
		return put_u64(end, (uint64_t)v);
	end = put_u64(end, -(uint64_t)v);
	*--end = '-';
	return end;
}

void
ms_ledger_write_stat(FILE *out, const struct ms_file_stat *st)
{
	/* "#@ " and four numbers of at most 20 digits and a sign */
	char buf[4 * 22 + 8], *p = buf + sizeof(buf);

	*--p = '\n';
	p = put_u64(p, st->ino);
	*--p = ' ';
	p = put_i64(p, st->ctime_ns);
	*--p = ' ';
	p = put_i64(p, st->mtime_ns);
	*--p = ' ';
	p = put_u64(p, st->size);
	p -= strlen(MS_LEDGER_ENTRY);
	memcpy(p, MS_LEDGER_ENTRY, strlen(MS_LEDGER_ENTRY));
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), out);
}

void
ms_ledger_write_pieces(FILE *out, const struct ms_file_stat *st)
{
	if (st->piece == 0 || st->pieces == NULL)
		return;
	fputs(MS_LEDGER_PIECES, out);
	fprintf(out, "%" PRIu64 " " MS_LEDGER_PIECE_ALGO "%s%s\n", st->piece,
	    *st->pieces != '\0' ? " " : "", st->pieces);
}

bool
ms_ledger_parse_pieces(const char *s, size_t n, uint64_t size, uint64_t *piece,
    const char **hex, size_t *hexlen)
{
	const char *end = s + n, *p = s;
	uint64_t v = 0, count;
	size_t al = strlen(MS_LEDGER_PIECE_ALGO);

	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (p == s || v == 0 || p == end || *p++ != ' ' ||
	    (size_t)(end - p) < al || memcmp(p, MS_LEDGER_PIECE_ALGO, al) != 0)
		return false;
	p += al;
	if (p < end && *p == ' ')
		p++;
	count = size / v + (size % v != 0);
	if ((uint64_t)(end - p) != count * MS_LEDGER_PIECE_HEX)
		return false;
	for (const char *q = p; q < end; q++)
		if (!((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f')))
			return false;
	*piece = v;
	*hex = p;
	*hexlen = (size_t)(end - p);
	return true;
}

const char *
ms_ledger_differs(const struct ms_ledger *a, const struct ms_ledger *b)
{
	const uint32_t mask = ~(uint32_t)MS_LEDGER_PLAIN;

	if (a->cnt != b->cnt)
		return "entry count";
	if (a->versioned != b->versioned || a->stamp_ns != b->stamp_ns)
		return "header";
	if (a->nstat != b->nstat || a->foreign != b->foreign)
		return "counts";
	for (size_t i = 0; i < a->cnt; i++) {
		const struct ms_ledger_entry *x = &a->e[i], *y = &b->e[i];

		if (strcmp(x->name, y->name) != 0)
			return "name";
		if (x->have != y->have || (x->flags & mask) != (y->flags & mask))
			return "digests listed or flags";
		if ((x->flags & MS_LEDGER_HAS_STAT) && (x->st.size != y->st.size ||
		    x->st.mtime_ns != y->st.mtime_ns ||
		    x->st.ctime_ns != y->st.ctime_ns || x->st.ino != y->st.ino ||
		    x->st.piece != y->st.piece || (x->st.pieces == NULL) !=
		    (y->st.pieces == NULL) || (x->st.pieces != NULL &&
		    strcmp(x->st.pieces, y->st.pieces) != 0)))
			return "bookkeeping";
		for (size_t k = 0; k < a->sel->cnt; k++)
			if ((x->have >> k & 1) && memcmp(x->digest +
			    a->sel->offset[k], y->digest + a->sel->offset[k],
			    ms_spec_len(&a->sel->spec[k])) != 0)
				return "digest";
	}
	return NULL;
}

const char *
ms_ledger_plain_differs(const struct ms_ledger *l, const struct ms_format_opts *fmt,
    const char *text, size_t n, size_t *plain)
{
	*plain = 0;
	for (size_t i = 0; i < l->cnt; i++) {
		const struct ms_ledger_entry *e = &l->e[i];
		char *buf = NULL;
		size_t size = 0;
		FILE *fp;
		bool same;

		if (!(e->flags & MS_LEDGER_PLAIN))
			continue;
		(*plain)++;
		if (!ms_ledger_complete(l, e) || !(e->flags & MS_LEDGER_HAS_STAT))
			return "plain but incomplete";
		fp = open_memstream(&buf, &size);
		ms_ledger_write_stat(fp, &e->st);
		ms_ledger_write_pieces(fp, &e->st);
		ms_format_result(fp, fmt, e->name, l->sel, e->digest, e->st.size);
		fclose(fp);
		same = e->off + e->span <= n && size == e->span &&
		    memcmp(text + e->off, buf, size) == 0;
		free(buf);
		if (!same)
			return "plain bytes are not the run's";
	}
	return NULL;
}
