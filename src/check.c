/*
 * check.c - verify mode: manifest entries through the engine, OK or
 * FAILED per line, and coreutils' warnings per manifest.
 *
 * Owns the reading of manifests (getline, so that lines may hold any
 * byte), the registry of one-algorithm selections the entries need, the
 * report queue that keeps every line of output in manifest order while
 * the engine hashes files in parallel, which archive members (and which
 * digests of them) --archive needs, and --expect.  The pass over the
 * archive is members.c's.  Which lines are well formed is
 * manifest.c's business; hashing is the engine's.
 */
#include "check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "members.h"
#include "format.h"
#include "quote.h"
#include "util.h"

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
};

enum rec_kind { REC_ENTRY, REC_BAD, REC_END };

/* One thing to report, in manifest order. */
struct rec {
	struct rec	*next;
	enum rec_kind	 kind;
	struct manifest	*m;
	bool		 done;		/* REC_ENTRY: the task is back */
	struct ms_task	*task;		/* REC_ENTRY */
	unsigned long	 line;		/* REC_BAD */
	const char	*type;		/* REC_BAD: "SHA256" or NULL */
	const struct ms_selection *alt;	/* REC_ENTRY: other candidates */
	size_t		 want_len;	/* REC_ENTRY: compared prefix */
	unsigned char	 want[];
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
	struct ms_digest_set alt_set;	/* second_chance's, for alt_sel */
	unsigned char	*buf;		/* second_chance's reads */
	bool		 failed;	/* exit status 1 */
	bool		 stdin_manifest;	/* a manifest is standard input */
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

/* Does the file match under one of the entry's candidate algorithms? */
static bool
matches(const struct ms_task *t, const struct rec *rec)
{
	for (size_t k = 0; k < t->sel->cnt; k++)
		if (memcmp(t->digest + t->sel->offset[k], rec->want,
		    rec->want_len) == 0)
			return true;
	return false;
}

/*
 * An untagged line that did not match its likeliest algorithm: hash the
 * file again with the others its length allows, on this thread, so that
 * the usual case pays nothing for the rare one.
 */
static bool
second_chance(struct run *r, const struct rec *rec)
{
	const struct ms_task *t = rec->task;
	const struct ms_selection *alt = rec->alt;
	struct ms_source src;
	unsigned char out[MS_SET_MAX * MS_DIGEST_MAX / 8];
	uint64_t size;
	bool ok = false;

	if (alt == NULL || alt->cnt == 0 || strcmp(t->path, "-") == 0 ||
	    alt->out_len > sizeof(out))
		return false;
	if (r->alt_set.sel != alt) {
		ms_digest_set_destroy(&r->alt_set);
		ms_digest_set_create(&r->alt_set, alt);
	}
	if (r->buf == NULL)
		r->buf = ms_xaligned(4096, r->cfg.buffer_size);
	if (ms_source_open(&src, t->path, r->cfg.io) == -1)
		return false;
	if (ms_hash_source(&src, &r->alt_set, r->buf, r->cfg.buffer_size,
	    NULL, out, &size) == 0)
		for (size_t k = 0; k < alt->cnt && !ok; k++)
			ok = memcmp(out + alt->offset[k], rec->want,
			    rec->want_len) == 0;
	ms_source_close(&src);
	return ok;
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
	if (t->err != 0) {
		say("%s: %s", ms_quotef(t->path), strerror(t->err));
		m->unreadable++;
		if (!o->status)
			verdict(r, t->path, "FAILED open or read");
		return;
	}
	if (matches(t, rec) || second_chance(r, rec)) {
		m->matched = true;
		if (!o->status && !o->quiet)
			verdict(r, t->path, "OK");
	} else {
		m->mismatched++;
		if (!o->status)
			verdict(r, t->path, "FAILED");
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
	if (!m->any_entry) {
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
		if (o->ignore_missing && !m->matched)
			say("%s: no file was verified", name);
	}
	if (!m->matched || m->mismatched != 0 || m->unreadable != 0 ||
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
		if (r->o->warn)
			say("%s: %lu: improperly formatted %s%schecksum line",
			    ms_quotef(rec->m->name), rec->line,
			    rec->type ? rec->type : "", rec->type ? " " : "");
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

/*
 * Queue an entry: hashed by the engine now, or by the archive pass.
 * Other candidate algorithms of an untagged line are tried only if the
 * first one does not match (see second_chance), except in an archive,
 * which cannot be read twice.
 */
static void
add_entry(struct run *r, struct manifest *m, const struct ms_manifest_entry *e)
{
	struct rec *rec = rec_new(r, REC_ENTRY, m, e->digest_len);
	struct ms_digest_spec all[1 + MS_MANIFEST_ALTS];
	const struct ms_selection *sel;
	size_t cnt = 1;

	all[0] = e->spec;
	for (size_t i = 0; i < e->nalt; i++)
		all[cnt++] = e->alt[i];
	if (r->engine == NULL) {
		sel = selection_for(r, all, cnt);
	} else {
		sel = selection_for(r, all, 1);
		if (e->nalt > 0)
			rec->alt = selection_for(r, e->alt, e->nalt);
	}
	memcpy(rec->want, e->digest, e->digest_len);
	rec->task = ms_task_new(e->name, sel, rec);
	if (r->stdin_manifest && strcmp(e->name, "-") == 0) {
		/* Two readers of standard input would split it (B13). */
		rec->task->err = EBUSY;
		rec->done = true;
		flush(r);
	} else if (sel->cnt == 0) {
		rec->task->err = ENOTSUP;
		rec->done = true;
		flush(r);
	} else if (r->engine != NULL) {
		ms_engine_submit(r->engine, rec->task);
	}
}

static void
add_mark(struct run *r, struct manifest *m, enum rec_kind kind,
    unsigned long line, const char *type)
{
	struct rec *rec = rec_new(r, kind, m, 0);

	rec->line = line;
	rec->type = type;
	flush(r);
}

/* Read one manifest, queueing its lines; the report follows them. */
static void
read_manifest(struct run *r, struct ms_manifest_state *st, const char *path)
{
	const struct ms_manifest_rules *rules = &r->style->rules;
	struct manifest *m = ms_xcalloc(1, sizeof(*m));
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *fp = is_stdin ? stdin : fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	m->name = is_stdin ? "standard input" : path;
	m->summary = true;
	if (fp == NULL) {
		m->open_err = errno;
		add_mark(r, m, REC_END, 0, NULL);
		return;
	}
	ms_manifest_begin(rules, st, path);
	while ((n = getline(&line, &cap, fp)) > 0) {
		struct ms_manifest_entry e;

		switch (ms_manifest_parse(rules, st, line, (size_t)n, &e)) {
		case MS_LINE_ENTRY:
			/* --shard: a check keys on the name as listed */
			if (ms_shard_keeps(&r->o->shard, e.name))
				add_entry(r, m, &e);
			break;
		case MS_LINE_BAD:
			add_mark(r, m, REC_BAD, st->line,
			    ms_manifest_type(rules, st));
			break;
		case MS_LINE_SKIP:
			break;
		}
	}
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
			ms_selection_add(&want, &r->idx[i]->task->sel->spec[k]);
	if (want.cnt == 0)
		return NULL;
	*user = &r->idx[first];
	return selection_for(r, want.spec, want.cnt);
}

/* A link whose target went unread: its entries stay missing. */
static void
unread_link(void *arg, const char *name, const char *link, void *user)
{
	(void)arg, (void)name, (void)link, (void)user;
}

/* A member read (or a link answered): the entries naming it take it. */
static void
member_emit(void *arg, struct ms_task *t)
{
	struct run *r = arg;

	for (struct rec **p = t->user; p < r->idx + r->nidx &&
	    strcmp((*p)->task->path, t->path) == 0; p++) {
		if ((*p)->done || !from_member((*p)->task, t->sel, t->digest))
			continue;
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
	ms_digest_set_destroy(&r->alt_set);
	free(r->buf);
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
	r->cfg.progress = ms_progress_start(o->progress);
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
		add_entry(&r, m, &e);
	}
	add_mark(&r, m, REC_END, 0, NULL);
	finish(&r);
	return r.failed ? MS_EXIT_FAIL : MS_EXIT_OK;
}

int
ms_check_main(const struct ms_options *o)
{
	struct ms_check_style style = {
		.rules = { .dialect = MS_DIALECT_NATIVE,
		    .given = o->sel_given ? &o->sel : NULL },
	};

	if (o->expect != NULL)
		return expect(o, &style);
	return ms_check_run(o, &style);
}
