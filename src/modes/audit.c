/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * audit.c - --audit=MANIFEST: read every file and say how the tree
 * differs from the manifest.
 *
 * Owns the classes (unchanged, modified, corrupt, moved, new, missing),
 * the pairing of moved files with the entries they left, and the report.
 * Moves are paired one to one: an entry that is gone can be the source
 * of one new path only, and entries whose content is still at their own
 * path are never sources, so duplicated content cannot turn a missing
 * file into a move twice over.
 */
#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifest/format.h"
#include "manifest/ledger.h"
#include "modes/update.h"
#include "engine/engine_pieces.h"
#include "base/exit_status.h"
#include "base/quote.h"
#include "modes/update_walk.h"
#include "io/text_input.h"
#include "base/util.h"

enum class {
	CLASS_UNCHANGED, CLASS_MODIFIED, CLASS_CORRUPT, CLASS_MOVED,
	CLASS_NEW, CLASS_MISSING, CLASS_CNT
};

static const char *const class_name[CLASS_CNT] = {
	"unchanged", "modified", "corrupt", "moved", "new", "missing",
};

/* A path that is not in the manifest, kept until the walk is over. */
struct newcomer {
	char		*path;
	uint64_t	 size;
	unsigned char	*digest;
};

struct audit {
	const struct ms_options *o;
	struct ms_ledger l;
	bool		 ndjson;
	size_t		 cnt[CLASS_CNT];
	size_t		 failed;
	struct newcomer	*nc;
	size_t		 ncnt, ncap;
	struct stat	 self;		/* the manifest, never audited */
	bool		 self_known;
};

/* The changed byte ranges of a corrupt file: pairs, first and last byte. */
struct ranges {
	uint64_t	*r;
	size_t		 n;
};

static void
report_ranges(struct audit *a, const struct ranges *g, enum class c,
    const char *path, const char *from)
{
	a->cnt[c]++;
	if (c == CLASS_UNCHANGED)
		return;
	if (a->ndjson) {
		fputs("{\"path\":", stdout);
		ms_json_string(stdout, path);
		printf(",\"class\":\"%s\"", class_name[c]);
		if (from != NULL) {
			fputs(",\"from\":", stdout);
			ms_json_string(stdout, from);
		}
		for (size_t i = 0; g != NULL && i < g->n; i++)
			printf("%s[%ju,%ju]%s", i == 0 ? ",\"bytes\":[" : ",",
			    (uintmax_t)g->r[2 * i], (uintmax_t)g->r[2 * i + 1],
			    i + 1 == g->n ? "]" : "");
		puts("}");
		return;
	}
	if (from != NULL) {
		printf("%s %s", class_name[c], ms_quotef(from));
		printf(" -> %s", ms_quotef(path));
	} else {
		printf("%s %s", class_name[c], ms_quotef(path));
	}
	for (size_t i = 0; g != NULL && i < g->n; i++)
		printf("%s%ju-%ju", i == 0 ? " bytes=" : ",",
		    (uintmax_t)g->r[2 * i], (uintmax_t)g->r[2 * i + 1]);
	putchar('\n');
}

static void
report(struct audit *a, enum class c, const char *path, const char *from)
{
	report_ranges(a, NULL, c, path, from);
}

/*
 * A corrupt file with pieces in its entry: read it piece by piece and
 * gather the ranges of the pieces that differ, adjacent ones joined.
 */
static void
changed_ranges(const char *path, const struct ms_file_stat *stored,
    const struct ms_file_stat *fs, struct ranges *g)
{
	uint64_t piece = stored->piece;
	size_t count = strlen(stored->pieces) / MS_PIECE_HEX;
	char *now;

	if (ms_pieces_of(path, piece, fs, &now) == -1) {
		ms_warn("%s: its pieces: %s", ms_quotef(path), errno == EAGAIN ?
		    "changed while it was read" : strerror(errno));
		ms_outcome_note(MS_OUTCOME_RETRY);
		return;
	}
	g->r = ms_xmalloc(2 * (count + 1) * sizeof(*g->r));
	for (size_t i = 0; i < count; i++) {
		uint64_t first = (uint64_t)i * piece;
		uint64_t last = first + piece - 1 < fs->size - 1 ?
		    first + piece - 1 : fs->size - 1;

		if (memcmp(now + i * MS_PIECE_HEX, stored->pieces + i * MS_PIECE_HEX,
		    MS_PIECE_HEX) == 0)
			continue;
		if (g->n > 0 && g->r[2 * g->n - 1] + 1 == first) {
			g->r[2 * g->n - 1] = last;
		} else {
			g->r[2 * g->n] = first;
			g->r[2 * g->n + 1] = last;
			g->n++;
		}
	}
	free(now);
}

static bool
need_hash(void *arg, const struct ms_ledger_entry *e,
    const struct ms_file_stat *fs)
{
	(void)arg;
	(void)e;
	(void)fs;
	return true;	/* an audit checks content */
}

/* Do the digests e lists equal those just computed? */
static bool
same_digests(const struct ms_selection *sel, const struct ms_ledger_entry *e,
    const unsigned char *d)
{
	for (size_t i = 0; i < sel->cnt; i++)
		if ((e->have >> i & 1) && memcmp(e->digest + sel->offset[i],
		    d + sel->offset[i], ms_spec_len(&sel->spec[i])) != 0)
			return false;
	return e->have != 0;
}

static void
result(void *arg, const char *path, struct ms_ledger_entry *e,
    const struct ms_file_stat *fs, struct ms_task *t)
{
	struct audit *a = arg;
	const struct ms_selection *sel = &a->o->sel;
	struct newcomer *n;

	if (e != NULL) {
		if (same_digests(sel, e, t->digest))
			report(a, CLASS_UNCHANGED, path, NULL);
		else if (ms_ledger_unmodified(&a->l, e, fs)) {
			struct ranges g = { NULL, 0 };

			/* --piece-size's pieces: where it changed */
			if (e->st.pieces != NULL && fs->size > 0)
				changed_ranges(path, &e->st, fs, &g);
			report_ranges(a, &g, CLASS_CORRUPT, path, NULL);
			free(g.r);
		} else
			report(a, CLASS_MODIFIED, path, NULL);
		return;
	}
	if (a->ncnt == a->ncap) {
		a->ncap = a->ncap ? a->ncap * 2 : 64;
		a->nc = ms_xrealloc(a->nc, a->ncap * sizeof(*a->nc));
	}
	n = &a->nc[a->ncnt++];
	n->path = ms_xstrdup(path);
	n->size = fs->size;
	n->digest = ms_xmalloc(sel->out_len);
	memcpy(n->digest, t->digest, sel->out_len);
}

static void
missed(void *arg, const char *path, struct ms_ledger_entry *e,
    enum ms_update_walk_miss how, int err, bool operand)
{
	struct audit *a = arg;

	(void)e;
	(void)operand;
	/* gone: its entry is reported missing; below a failed directory:
	 * neither missing nor unchanged, the directory's error said it */
	if (how == MS_MISS_GONE) {
		ms_walk_vanished(path, "not audited");
	} else if (how == MS_MISS_FAILED) {
		ms_warn("%s: %s", ms_quotef(path), ms_strerror(err));
		a->failed++;
	}
}

static bool
is_self(void *arg, const struct stat *st)
{
	const struct audit *a = arg;

	return a->self_known && st->st_dev == a->self.st_dev &&
	    st->st_ino == a->self.st_ino;
}

static const struct audit *sorting;

static int
by_digest(const void *x, const void *y)
{
	const struct ms_ledger_entry *e = &sorting->l.e[*(const uint32_t *)x];
	const struct ms_ledger_entry *f = &sorting->l.e[*(const uint32_t *)y];
	int c = memcmp(e->digest, f->digest, sorting->o->sel.out_len);

	return c != 0 ? c : (e > f) - (e < f);
}

/* The first unclaimed gone entry with n's content, or NULL. */
static struct ms_ledger_entry *
source_of(struct audit *a, const uint32_t *gone, size_t gcnt,
    const struct newcomer *n)
{
	size_t lo = 0, hi = gcnt, len = a->o->sel.out_len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (memcmp(a->l.e[gone[mid]].digest, n->digest, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < gcnt; lo++) {
		struct ms_ledger_entry *e = &a->l.e[gone[lo]];

		if (memcmp(e->digest, n->digest, len) != 0)
			break;
		if (e->flags & MS_LEDGER_CLAIMED)
			continue;
		if ((e->flags & MS_LEDGER_HAS_STAT) && a->l.versioned &&
		    e->st.size != n->size)
			continue;
		return e;
	}
	return NULL;
}

/* After the walk: moves, new paths, then missing entries. */
static void
pair_moves(struct audit *a)
{
	uint32_t *gone = ms_xmalloc((a->l.cnt ? a->l.cnt : 1) * sizeof(*gone));
	size_t gcnt = 0;

	for (size_t i = 0; i < a->l.cnt; i++) {
		const struct ms_ledger_entry *e = &a->l.e[i];

		if (!(e->flags & (MS_LEDGER_SEEN | MS_LEDGER_DUP)) &&
		    ms_ledger_complete(&a->l, e) &&
		    ms_update_walk_in_shard(a->o, e->name))
			gone[gcnt++] = (uint32_t)i;
	}
	sorting = a;
	if (gcnt > 1)
		qsort(gone, gcnt, sizeof(*gone), by_digest);
	for (size_t i = 0; i < a->ncnt; i++) {
		struct newcomer *n = &a->nc[i];
		struct ms_ledger_entry *e = source_of(a, gone, gcnt, n);

		if (e != NULL) {
			e->flags |= MS_LEDGER_CLAIMED;
			report(a, CLASS_MOVED, n->path, e->name);
		} else {
			report(a, CLASS_NEW, n->path, NULL);
		}
		free(n->path);
		free(n->digest);
	}
	for (size_t i = 0; i < a->l.cnt; i++) {
		const struct ms_ledger_entry *e = &a->l.e[i];

		if (!(e->flags & (MS_LEDGER_SEEN | MS_LEDGER_DUP |
		    MS_LEDGER_CLAIMED)) && ms_update_walk_in_shard(a->o, e->name))
			report(a, CLASS_MISSING, e->name, NULL);
	}
	free(gone);
	free(a->nc);
}

/* o's selection was settled by main (without -a, the manifest's). */
int
ms_audit_main(const struct ms_options *o)
{
	struct audit a = { .o = o };
	const char *path = o->audit;
	struct ms_manifest_input in;

	a.ndjson = o->format_name != NULL;	/* main let only ndjson by */
	if (ms_selection_load(&o->sel) == -1)
		return MS_EXIT_USAGE;
	if (ms_text_input(&in, path) == -1 ||
	    ms_ledger_load(&a.l, &in, &o->sel) == -1) {
		ms_warn("%s: %s", path, ms_text_strerror(errno));
		ms_outcome_note(ms_text_outcome(errno));
		return MS_EXIT_FAIL;
	}
	if (a.l.cnt > 0 && !a.l.versioned && !o->quiet)
		ms_warn("%s: no multisum bookkeeping: corrupt files are "
		    "reported as modified", path);
	a.self_known = stat(path, &a.self) == 0;
	if (ms_update_walk_run(o, &a.l, &(struct ms_update_walk_ops){
	    need_hash, result, missed, is_self }, &a) == -1)
		a.failed++;
	pair_moves(&a);
	if (ms_update_walk_flush() == -1)
		a.failed++;
	if (!o->quiet)
		fprintf(stderr, "%zu unchanged, %zu modified, %zu corrupt, "
		    "%zu moved, %zu new, %zu missing\n", a.cnt[CLASS_UNCHANGED],
		    a.cnt[CLASS_MODIFIED], a.cnt[CLASS_CORRUPT],
		    a.cnt[CLASS_MOVED], a.cnt[CLASS_NEW], a.cnt[CLASS_MISSING]);
	ms_ledger_free(&a.l);
	for (size_t c = CLASS_MODIFIED; c < CLASS_CNT; c++)
		if (a.cnt[c] > 0) {
			ms_outcome_note(MS_OUTCOME_FAIL);
			return MS_EXIT_FAIL;
		}
	return a.failed > 0 ? MS_EXIT_FAIL : MS_EXIT_OK;
}
