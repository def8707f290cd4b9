/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check.c - verify mode: manifest entries through the engine, OK or
 * FAILED per line, and coreutils' warnings per manifest.
 *
 * Owns the reading of manifests (getline, so that lines may hold any
 * byte), the registry of one-algorithm selections the entries need, the
 * report queue that keeps every line of output in manifest order while
 * the engine hashes files in parallel, which archive members (and which
 * digests of them) --archive needs, and --expect.  The pass over the
 * archive is engine_members.c's.  Which lines are well formed is
 * manifest.c's business; hashing is the engine's.
 */
#include "modes/check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modes/check_explain.h"
#include "engine/engine_members.h"
#include "io/output.h"
#include "manifest/format.h"
#include "base/quote.h"
#include "base/util.h"

/* One MANIFEST operand and its counters (coreutils' digest_check). */
struct manifest {
	const char	*name;		/* for messages, "standard input" for - */
	size_t		 bad, unreadable, mismatched;
	bool		 any_entry;	/* a properly formatted line */
	bool		 matched;	/* a file verified OK */
	int		 open_err;	/* errno: could not be opened */
	bool		 read_err;	/* failed while reading */
	int		 read_errno;
	bool		 summary;	/* the WARNING lines (not for --expect) */
	size_t		 unsupported;	/* lines neither OK nor FAILED */
	size_t		 outside;	/* lines outside the signed part */
	bool		 hinted;	/* the hint after a guessed FAILED */
	bool		 noted;		/* the note on a non-cryptographic default */
	const char	*said;		/* the last reason given for a bad line */
};

enum rec_kind { REC_ENTRY, REC_BAD, REC_UNSUPPORTED, REC_OUTSIDE, REC_END };

/* One thing to report, in manifest order. */
struct rec {
	struct rec	*next;
	enum rec_kind	 kind;
	struct manifest	*m;
	bool		 done;		/* REC_ENTRY: the task is back */
	struct ms_task	*task;		/* REC_ENTRY */
	struct rec	*pending;	/* the manifest's entries not yet submitted */
	unsigned long	 line;
	const char	*type;		/* REC_BAD: "SHA256" or NULL */
	char		*why;		/* REC_BAD, REC_UNSUPPORTED: more to say */
	char		*name;		/* REC_UNSUPPORTED, REC_OUTSIDE */
	bool		 outside;	/* not in a PGP message's signed part */
	enum ms_resolved how;		/* REC_ENTRY: how its algorithm was chosen */
	size_t		 n;		/* REC_ENTRY: digests on the line */
	size_t		 len[MS_MANIFEST_DIGESTS];	/* compared prefix of each */
	size_t		 want_len;	/* all of them */
	unsigned char	 want[];	/* the expected digests, end to end */
};

struct run {
	const struct ms_options *o;
	const struct ms_check_style *style;
	struct ms_engine_config cfg;	/* o->engine, with the progress line */
	struct ms_engine *engine;	/* NULL with --archive */
	struct rec	*head, **tail;
	struct reg	**sels;		/* one per set of candidates met */
	size_t		 nsels;
	struct rec	**idx;		/* --archive: pending entries by name */
	size_t		 nidx;
	bool		 failed;	/* exit status 1 */
	bool		 stdin_manifest;	/* a manifest is standard input */
	struct rec	*pending, **pending_tail;	/* read, not submitted */
};

/* Is sel the same list of digests as the cached one? */
static bool
same_selection(const struct ms_selection *a, const struct ms_selection *b)
{
	if (a->cnt != b->cnt)
		return false;
	for (size_t i = 0; i < a->cnt; i++)
		if (a->spec[i].algo != b->spec[i].algo ||
		    a->spec[i].bits != b->spec[i].bits)
			return false;
	return true;
}

/* A selection of the registry, and what it was asked for. */
struct reg {
	struct ms_selection wanted;
	struct ms_selection sel;	/* == wanted, or empty if unusable */
};

static struct reg *
sel_new(const struct ms_selection *want)
{
	struct reg *g = ms_xcalloc(1, sizeof(*g));

	g->wanted = *want;
	if (ms_selection_load(want) == 0)
		g->sel = *want;
	return g;
}

/* A message on standard error, after what standard output holds. */
static void
say(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	ms_vwarn(fmt, ap);
	va_end(ap);
}

static void
print_name(const struct run *r, const char *name)
{
	bool esc = r->style->escape_newline_only ?
	    strchr(name, '\n') != NULL : ms_name_needs_escape(name);

	if (esc) {
		putchar('\\');
		ms_write_escaped(stdout, name);
	} else {
		fputs(name, stdout);
	}
}

static void
verdict(const struct run *r, const char *name, const char *what)
{
	ms_before_terminal_output();	/* not over the progress line */
	print_name(r, name);
	printf(": %s\n", what);
}

/* Does the file match every digest of the line? */
static bool
matches(const struct ms_task *t, const struct rec *rec)
{
	const unsigned char *want = rec->want;

	for (size_t i = 0; i < rec->n; i++) {
		const struct ms_digest_spec *s = &t->sel->spec[i];

		if (rec->len[i] > ms_spec_len(s) ||
		    memcmp(t->digest + t->sel->offset[i], want, rec->len[i]) != 0)
			return false;
		want += rec->len[i];
	}
	return rec->n > 0;
}

/* Once per manifest: the hint after a guessed FAILED, the note on a
 * non-cryptographic default (check_explain.c). */
static void
explain(struct manifest *m, const struct rec *rec, bool ok)
{
	const struct ms_task *t = rec->task;
	const char *mname = m->summary ? m->name : NULL;

	if (rec->n != 1)
		return;
	if (!ok && !m->hinted && ms_explain_hint(mname, &t->sel->spec[0], rec->how))
		m->hinted = true;
	if (ok && !m->noted && ms_explain_note(mname, &t->sel->spec[0], rec->how))
		m->noted = true;
}

static void
report_entry(struct run *r, struct rec *rec)
{
	struct manifest *m = rec->m;
	struct ms_task *t = rec->task;
	const struct ms_options *o = r->o;

	m->any_entry = true;
	if (t->err == ENOENT && o->ignore_missing)
		return;
	if (t->err == EBUSY && strcmp(t->path, "-") == 0) {
		say("-: standard input is read as a manifest: not hashed");
		m->unreadable++;
		if (!o->status)
			verdict(r, t->path, "FAILED open or read");
		return;
	}
	if (t->err == ENOTSUP) {
		/* The backend did not load: said once, by sel_new. */
		m->unsupported++;
		say("%s: %s: unsupported algorithm %s", ms_quotef(m->name),
		    ms_quotef(t->path), rec->task->sel->cnt ?
		    rec->task->sel->spec[0].algo->name : "of this build");
		return;
	}
	if (t->err < 0) {
		m->unreadable++;
		say("%s: %s", ms_quotef(t->path), ms_explain_err(t->err));
		if (!o->status)
			verdict(r, t->path, "FAILED open or read");
		return;
	}
	if (o->debug)
		ms_explain_debug(rec->m->name, rec->line, t->path, t->sel,
		    rec->how);
	if (t->err != 0) {
		say("%s: %s", ms_quotef(t->path), strerror(t->err));
		m->unreadable++;
		if (!o->status)
			verdict(r, t->path, "FAILED open or read");
		return;
	}
	if (matches(t, rec)) {
		m->matched = true;
		explain(m, rec, true);
		if (!o->status && !o->quiet)
			verdict(r, t->path, "OK");
	} else {
		m->mismatched++;
		if (!o->status)
			verdict(r, t->path, "FAILED");
		if (!o->status)
			explain(m, rec, false);
	}
}

static const char *
plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The end of a manifest: coreutils' closing warnings and verdict. */
static void
report_end(struct run *r, struct manifest *m)
{
	const struct ms_options *o = r->o;
	const char *name = ms_quotef(m->name);

	if (m->open_err != 0 || m->read_err) {
		if (m->open_err != 0)
			say("%s: %s", name, strerror(m->open_err));
		else if (m->read_errno != 0)
			say("%s: %s", name, strerror(m->read_errno));
		else
			say("%s: read error", name);
		r->failed = true;
		return;
	}
	if (!m->any_entry && m->unsupported == 0 && m->outside == 0) {
		if (m->summary)
			say("%s: no properly formatted checksum lines found", name);
		r->failed = true;
		return;
	}
	if (!o->status && m->summary) {
		if (m->bad != 0)
			say("WARNING: %zu %s improperly formatted", m->bad,
			    plural(m->bad, "line is", "lines are"));
		if (m->unreadable != 0)
			say("WARNING: %zu listed %s could not be read",
			    m->unreadable, plural(m->unreadable, "file", "files"));
		if (m->mismatched != 0)
			say("WARNING: %zu computed %s did NOT match",
			    m->mismatched,
			    plural(m->mismatched, "checksum", "checksums"));
		if (m->unsupported != 0)
			say("WARNING: %zu %s not verified",
			    m->unsupported, plural(m->unsupported, "line was",
			    "lines were"));
		if (m->outside != 0)
			say("WARNING: %zu %s outside the signed part, not verified",
			    m->outside, plural(m->outside, "line is", "lines are"));
		if (o->ignore_missing && !m->matched)
			say("%s: no file was verified", name);
	}
	/* A line not verified (unsupported, unsigned) fails the run. */
	if (!m->matched || m->mismatched != 0 || m->unreadable != 0 ||
	    m->unsupported != 0 || m->outside != 0 ||
	    (o->strict && m->bad != 0))
		r->failed = true;
}

static void
report(struct run *r, struct rec *rec)
{
	switch (rec->kind) {
	case REC_ENTRY:
		report_entry(r, rec);
		ms_task_free(rec->task);
		break;
	case REC_BAD:
		rec->m->bad++;
		if (rec->why != NULL)
			say("%s: %lu: %s", ms_quotef(rec->m->name), rec->line,
			    rec->why);
		else if (r->o->warn)
			say("%s: %lu: improperly formatted %s%schecksum line",
			    ms_quotef(rec->m->name), rec->line,
			    rec->type ? rec->type : "", rec->type ? " " : "");
		break;
	case REC_UNSUPPORTED:
		rec->m->unsupported++;
		rec->m->any_entry = true;
		say("%s: %lu: %s: not verified: %s", ms_quotef(rec->m->name),
		    rec->line, ms_quotef(rec->name), rec->why);
		break;
	case REC_OUTSIDE:
		rec->m->outside++;
		say("%s: %lu: outside the signed part of the PGP message: "
		    "not verified", ms_quotef(rec->m->name), rec->line);
		break;
	case REC_END:
		report_end(r, rec->m);
		free(rec->m);
		break;
	}
}

/* Report every record at the head of the queue that is ready. */
static void
flush(struct run *r)
{
	while (r->head != NULL &&
	    (r->head->kind != REC_ENTRY || r->head->done)) {
		struct rec *rec = r->head;

		r->head = rec->next;
		if (r->head == NULL)
			r->tail = &r->head;
		report(r, rec);
		free(rec->why);
		free(rec->name);
		free(rec);
	}
}

static struct rec *
rec_new(struct run *r, enum rec_kind kind, struct manifest *m, size_t want_len)
{
	struct rec *rec = ms_xcalloc(1, sizeof(*rec) + want_len);

	rec->kind = kind;
	rec->m = m;
	rec->want_len = want_len;
	*r->tail = rec;
	r->tail = &rec->next;
	return rec;
}

/* The engine hands back tasks in submission order. */
static void
emit(void *arg, struct ms_task *t)
{
	struct run *r = arg;
	struct rec *rec = t->user;

	rec->done = true;
	flush(r);
}

/*
 * The loaded selection of cnt specs, shared by every entry that needs the
 * same ones.  A selection whose backend cannot load is kept empty, so
 * that its message comes once.
 */
static const struct ms_selection *
selection_for(struct run *r, const struct ms_digest_spec *spec, size_t cnt)
{
	struct ms_selection want = { 0 };

	for (size_t i = 0; i < cnt; i++)
		ms_selection_add(&want, &spec[i]);
	for (size_t i = 0; i < r->nsels; i++)
		if (same_selection(&r->sels[i]->wanted, &want))
			return &r->sels[i]->sel;
	r->sels = ms_xrealloc(r->sels, (r->nsels + 1) * sizeof(*r->sels));
	r->sels[r->nsels] = sel_new(&want);
	return &r->sels[r->nsels++]->sel;
}

/* Queue an entry; it is submitted by submit() when the manifest is read. */
static void
add_entry(struct run *r, struct manifest *m, const struct ms_manifest_entry *e,
    unsigned long line)
{
	size_t want_len = 0;
	struct ms_digest_spec specs[MS_MANIFEST_DIGESTS];
	struct rec *rec;

	for (size_t i = 0; i < e->n; i++) {
		want_len += e->d[i].len;
		specs[i] = e->d[i].spec;
	}
	rec = rec_new(r, REC_ENTRY, m, want_len);
	rec->line = line;
	rec->how = e->how;
	rec->outside = e->outside;
	rec->n = e->n;
	for (size_t i = 0, at = 0; i < e->n; at += e->d[i++].len) {
		memcpy(rec->want + at, e->d[i].digest, e->d[i].len);
		rec->len[i] = e->d[i].len;
	}
	rec->task = ms_task_new(e->name, selection_for(r, specs, e->n), rec);
	/* A line naming the same algorithm twice, or a spec the selection
	 * merged: compare in selection order only when they line up. */
	if (rec->task->sel->cnt != e->n && rec->task->sel->cnt != 0)
		rec->n = 0;
	*r->pending_tail = rec;
	r->pending_tail = &rec->pending;
}

/*
 * Hand the manifest's entries to the engine, or mark them as refused.
 * The records are settled first: at -j1 the engine reports (and frees)
 * them during ms_engine_submit, so the second pass touches tasks only.
 */
static void
submit(struct run *r, bool pgp)
{
	struct ms_task **go = NULL;
	size_t ngo = 0;
	struct rec *next;

	for (struct rec *rec = r->pending; rec != NULL; rec = next) {
		next = rec->pending;
		if (pgp && rec->outside) {
			if (rec->kind == REC_ENTRY)
				ms_task_free(rec->task);
			rec->kind = REC_OUTSIDE;
			rec->task = NULL;
			continue;
		}
		if (rec->kind != REC_ENTRY)
			continue;
		if (rec->task->sel->cnt == 0) {
			rec->task->err = ENOTSUP;
			rec->done = true;
		} else if (r->stdin_manifest &&
		    strcmp(rec->task->path, "-") == 0) {
			/* Two readers of standard input would split it (B13). */
			rec->task->err = EBUSY;
			rec->done = true;
		} else if (r->engine != NULL) {
			go = ms_xrealloc(go, (ngo + 1) * sizeof(*go));
			go[ngo++] = rec->task;
		}
	}
	r->pending = NULL;
	r->pending_tail = &r->pending;
	for (size_t i = 0; i < ngo; i++)
		ms_engine_submit(r->engine, go[i]);
	free(go);
	flush(r);
}

static struct rec *
add_mark(struct run *r, struct manifest *m, enum rec_kind kind,
    unsigned long line, const char *type)
{
	struct rec *rec = rec_new(r, kind, m, 0);

	rec->line = line;
	rec->type = type;
	return rec;
}

/* A line that is not an entry; it waits for the entries before it. */
static void
add_other(struct run *r, struct manifest *m, enum ms_line rc,
    const struct ms_manifest_state *st, const struct ms_manifest_entry *e,
    const char *type)
{
	struct rec *rec = add_mark(r, m, rc == MS_LINE_BAD ? REC_BAD :
	    REC_UNSUPPORTED, st->line, type);

	rec->outside = e->outside;
	if (e->why != NULL && (rc == MS_LINE_UNSUPPORTED || m->said == NULL ||
	    strcmp(m->said, e->why) != 0)) {
		rec->why = ms_xstrdup(e->why);
		if (rc == MS_LINE_BAD)
			m->said = e->why;
	}
	if (rc == MS_LINE_UNSUPPORTED)
		rec->name = ms_xstrdup(e->name != NULL ? e->name : "?");
	*r->pending_tail = rec;
	r->pending_tail = &rec->pending;
}

/* One verdict of the parser, queued. */
static void
take(struct run *r, struct manifest *m, const struct ms_manifest_state *st,
    enum ms_line rc, const struct ms_manifest_entry *e)
{
	switch (rc) {
	case MS_LINE_ENTRY:
		/* --shard: a check keys on the name as listed */
		if (ms_shard_keeps(&r->o->shard, e->name))
			add_entry(r, m, e, st->line);
		break;
	case MS_LINE_BAD:
	case MS_LINE_UNSUPPORTED:
		add_other(r, m, rc, st, e,
		    ms_manifest_type(&r->style->rules, st));
		break;
	case MS_LINE_SKIP:
		break;
	}
}

/* Read one manifest, queueing its lines; the report follows them. */
static void
read_manifest(struct run *r, struct ms_manifest_state *st, const char *path)
{
	const struct ms_manifest_rules *rules = &r->style->rules;
	struct manifest *m = ms_xcalloc(1, sizeof(*m));
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *fp = is_stdin ? stdin : fopen(path, "r");
	int eol = rules->zero ? '\0' : '\n';
	struct ms_manifest_entry e;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	m->name = is_stdin ? "standard input" : path;
	m->summary = true;
	if (fp == NULL) {
		m->open_err = errno;
		add_mark(r, m, REC_END, 0, NULL);
		flush(r);
		return;
	}
	ms_manifest_begin(rules, st, path);
	/*
	 * The whole manifest is read before any of it is verified: a PGP
	 * header further down makes every line before it "outside".
	 */
	while ((n = getdelim(&line, &cap, eol, fp)) > 0)
		do
			take(r, m, st, ms_manifest_parse(rules, st, line,
			    (size_t)n, &e), &e);
		while (st->again);
	take(r, m, st, ms_manifest_finish(rules, st, &e), &e);
	submit(r, st->pgp_seen);
	if (ferror(fp)) {
		m->read_err = true;
		m->read_errno = 0;
	}
	if (is_stdin)
		clearerr(fp);
	else if (fclose(fp) != 0 && !m->read_err) {
		m->read_err = true;
		m->read_errno = errno;
	}
	free(line);
	add_mark(r, m, REC_END, 0, NULL);
	flush(r);
}

static int
by_name(const void *a, const void *b)
{
	const struct rec *x = *(struct rec *const *)a;
	const struct rec *y = *(struct rec *const *)b;
	int c = strcmp(x->task->path, y->task->path);

	/* Stable: equal names keep manifest order. */
	return c != 0 ? c : (x < y ? -1 : x > y);
}

/* Copy t's digests from what sel computed; false if sel lacks one of them. */
static bool
from_member(struct ms_task *t, const struct ms_selection *sel,
    const unsigned char *digest)
{
	for (size_t j = 0; j < t->sel->cnt; j++) {
		size_t k;

		for (k = 0; k < sel->cnt; k++)
			if (sel->spec[k].algo == t->sel->spec[j].algo &&
			    sel->spec[k].bits == t->sel->spec[j].bits)
				break;
		if (k == sel->cnt)
			return false;
		memcpy(t->digest + t->sel->offset[j], digest + sel->offset[k],
		    ms_spec_len(&t->sel->spec[j]));
	}
	return true;
}

/* The queued entries of name: idx[*first] on, while the name holds. */
static bool
entries_of(const struct run *r, const char *name, size_t *first)
{
	size_t lo = 0, hi = r->nidx;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(r->idx[mid]->task->path, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	return lo < r->nidx && strcmp(r->idx[lo]->task->path, name) == 0;
}

/* A member is read through every digest its pending entries need. */
static const struct ms_selection *
choose_member(void *arg, const char *name, void **user)
{
	struct run *r = arg;
	struct ms_selection want = { 0 };
	size_t first;

	if (!entries_of(r, name, &first))
		return NULL;
	for (size_t i = first; i < r->nidx &&
	    strcmp(r->idx[i]->task->path, name) == 0; i++)
		for (size_t k = 0; !r->idx[i]->done &&
		    k < r->idx[i]->task->sel->cnt; k++)
			if (ms_selection_add(&want,
			    &r->idx[i]->task->sel->spec[k]) == -1) {
				/* Never compared with a digest not computed
				 * (B5): refused, with a reason. */
				r->idx[i]->task->err = MS_ERR_TOO_MANY;
				r->idx[i]->done = true;
			}
	if (want.cnt == 0)
		return NULL;
	*user = &r->idx[first];
	return selection_for(r, want.spec, want.cnt);
}

/* A link whose target went unread (B17): its entries say so. */
static void
unread_link(void *arg, const char *name, const char *link, void *user)
{
	struct run *r = arg;

	(void)link;
	for (struct rec **p = user; p != NULL && p < r->idx + r->nidx &&
	    strcmp((*p)->task->path, name) == 0; p++)
		if (!(*p)->done) {
			(*p)->task->err = MS_ERR_LINK_UNLISTED;
			(*p)->done = true;
		}
}

/* A member read (or a link answered): the entries naming it take it. */
static void
member_emit(void *arg, struct ms_task *t)
{
	struct run *r = arg;

	for (struct rec **p = t->user; p < r->idx + r->nidx &&
	    strcmp((*p)->task->path, t->path) == 0; p++) {
		if ((*p)->done)
			continue;
		if (!from_member((*p)->task, t->sel, t->digest)) {
			/* a hard link, its target read for other entries */
			(*p)->task->err = MS_ERR_LINK_DIGESTS;
			(*p)->done = true;
			continue;
		}
		(*p)->task->err = t->err;
		(*p)->task->size = t->size;
		(*p)->done = true;
	}
	ms_task_free(t);
}

/*
 * --archive: look every queued entry up among the members, in one pass.
 * A member named by several entries is read once, through every digest
 * they need.  Entries not in the archive are missing (ENOENT).
 */
static void
check_archive(struct run *r)
{
	struct ms_engine *e;

	for (struct rec *rec = r->head; rec != NULL; rec = rec->next)
		if (rec->kind == REC_ENTRY && !rec->done) {
			r->idx = ms_xrealloc(r->idx, (r->nidx + 1) * sizeof(*r->idx));
			r->idx[r->nidx++] = rec;
			rec->task->err = ENOENT;
		}
	qsort(r->idx, r->nidx, sizeof(*r->idx), by_name);
	e = ms_engine_start(&r->cfg, member_emit, r);
	if (ms_members_submit(r->o->archive, e, choose_member, unread_link,
	    r) != 0)
		r->failed = true;
	ms_engine_finish(e);
	for (size_t i = 0; i < r->nidx; i++)
		r->idx[i]->done = true;
	free(r->idx);
	flush(r);
}

static void
finish(struct run *r)
{
	if (r->engine != NULL)
		ms_engine_finish(r->engine);
	else
		check_archive(r);
	ms_progress_stop(r->cfg.progress);
	flush(r);
	for (size_t i = 0; i < r->nsels; i++)
		free(r->sels[i]);
	free(r->sels);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		ms_write_error();
		r->failed = true;
	}
}

static void
start(struct run *r, const struct ms_options *o,
    const struct ms_check_style *style)
{
	r->o = o;
	r->style = style;
	r->cfg = o->engine;
	r->tail = &r->head;
	r->pending_tail = &r->pending;
	r->cfg.progress = ms_progress_start(o->progress);
	ms_output_stdio_lines();	/* whole lines into a shared pipe */
	if (o->archive == NULL)
		r->engine = ms_engine_start(&r->cfg, emit, r);
}

int
ms_check_run(const struct ms_options *o, const struct ms_check_style *style)
{
	struct run r = { 0 };
	struct ms_manifest_state st = { .reversed = -1 };

	start(&r, o, style);
	r.stdin_manifest = o->nfiles == 0;
	for (size_t i = 0; i < o->nfiles; i++)
		if (strcmp(o->files[i], "-") == 0)
			r.stdin_manifest = true;
	for (size_t i = 0; i < o->nfiles; i++)
		read_manifest(&r, &st, o->files[i]);
	if (o->nfiles == 0)
		read_manifest(&r, &st, "-");
	ms_manifest_end(&st);
	finish(&r);
	return r.failed ? MS_EXIT_FAIL : MS_EXIT_OK;
}

/* --expect=DIGEST [FILE]...: each FILE against the one digest. */
static int
expect(const struct ms_options *o, const struct ms_check_style *style)
{
	struct ms_manifest_entry e = o->expect_entry;
	struct run r = { 0 };
	struct manifest *m;

	start(&r, o, style);
	m = ms_xcalloc(1, sizeof(*m));
	m->name = "--expect";
	for (size_t i = 0; i < o->nfiles || (i == 0 && o->nfiles == 0); i++) {
		e.name = o->nfiles ? o->files[i] : "-";
		add_entry(&r, m, &e, 0);
	}
	submit(&r, false);
	add_mark(&r, m, REC_END, 0, NULL);
	finish(&r);
	return r.failed ? MS_EXIT_FAIL : MS_EXIT_OK;
}

int
ms_check_main(const struct ms_options *o)
{
	struct ms_check_style style = {
		.rules = { .dialect = MS_DIALECT_NATIVE,
		    .given = o->sel_given ? &o->sel : NULL,
		    .zero = o->fmt.zero },
	};

	if (o->expect != NULL)
		return expect(o, &style);
	return ms_check_run(o, &style);
}
