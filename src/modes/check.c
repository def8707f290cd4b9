/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check.c - verify mode: manifest entries through the engine, and what
 * is to be said about each line queued in manifest order.
 *
 * Owns the reading of manifests (line by line through the door,
 * io/text_input.h, so that lines may hold any byte up to its bound;
 * verified as they are read, in bounded memory; with a key, read whole
 * once, as signature.h hands them over, and only what the signature
 * covers), the report queue that keeps every line of output in
 * manifest order while the engine hashes files in parallel, and
 * --expect.  What --archive
 * reads is check_archive.c's, the registry of selections
 * check_select.c's, where a list's names are below check_root.c's.  Which lines are well formed is manifest.c's
 * business, hashing the engine's, and the words said for each record
 * check_report.c's.
 */
#include "modes/check_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modes/check_explain.h"
#include "io/output.h"
#include "io/text_input.h"
#include "base/exit_status.h"
#include "base/util.h"

/*
 * Records read while a PGP header further down could still make them
 * "outside" the signed part are held back (at most this many, or bytes),
 * then verified as an unsigned manifest's: a clear-signed message begins
 * with its header, and a header after that many lines fails the run
 * (REC_LATE_PGP).  A manifest is never read whole before it is verified.
 */
#define HOLD_MAX	1024

/*
 * The report queue's bytes beyond which reading waits for the engine: it
 * holds what is in flight (the engine's window) and the lines read since
 * the oldest entry still hashed, so that -c of a manifest of any length
 * runs in bounded memory.  An eighth of --memory, within these bounds;
 * the engine's buffers have the rest.  Held records are half of it.
 */
#define QUEUE_MIN	((size_t)256 << 10)
#define QUEUE_MAX	((size_t)8 << 20)

/* Report every record at the head of the queue that is ready. */
static void
flush(struct run *r)
{
	while (r->head != NULL && !r->head->held &&
	    (r->head->kind != REC_ENTRY || r->head->done)) {
		struct rec *rec = r->head;

		r->head = rec->next;
		if (r->head == NULL)
			r->tail = &r->head;
		r->queued_bytes -= rec->bytes;
		ms_check_report(r, rec);
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
	rec->bytes = sizeof(*rec) + want_len;
	r->queued_bytes += rec->bytes;
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

/* Put rec on the pending list, to be settled and submitted by submit(). */
static void
hold(struct run *r, struct rec *rec)
{
	rec->held = true;
	*r->pending_tail = rec;
	r->pending_tail = &rec->pending;
	r->npending++;
	r->pending_bytes += rec->bytes;
}

/* Queue an entry; submit() hands it to the engine. */
static struct rec *
add_entry(struct run *r, struct manifest *m, const struct ms_manifest_entry *e,
    unsigned long line)
{
	size_t want_len = 0;
	struct ms_digest_spec specs[MS_MANIFEST_DIGESTS];
	struct rec *rec;

	for (size_t i = 0; i < e->n; i++) {
		want_len += e->d[i].len;
		specs[i] = e->d[i].spec;
		/* the run's --part-size and key, unless the line said */
		if (!e->own_params)
			ms_spec_set_params(&specs[i], &r->o->param);
	}
	rec = rec_new(r, REC_ENTRY, m, want_len);
	rec->line = line;
	rec->how = e->how;
	rec->guessed = e->guessed;
	rec->outside = e->outside;
	rec->escaped = e->escaped;
	rec->optional = e->optional;
	rec->has_size = e->has_size;
	rec->size = e->size;
	if (e->note != NULL)	/* said with the first such entry */
		rec->why = ms_xstrdup(e->note);
	rec->n = e->n;
	for (size_t i = 0, at = 0; i < e->n; at += e->d[i++].len) {
		memcpy(rec->want + at, e->d[i].digest, e->d[i].len);
		rec->len[i] = e->d[i].len;
	}
	if (r->prefix != NULL || m->root != NULL) {
		char *path = ms_xasprintf("%s%s", m->root != NULL ? m->root :
		    r->prefix, e->name);

		rec->task = ms_task_new(path, ms_check_selection_for(&r->reg,
		    specs, e->n), rec);
		free(path);
	} else {
		rec->task = ms_task_new(e->name, ms_check_selection_for(&r->reg,
		    specs, e->n), rec);
	}
	/* A line naming the same algorithm twice, or a spec the selection
	 * merged: compare in selection order only when they line up. */
	if (rec->task->sel->cnt != e->n && rec->task->sel->cnt != 0)
		rec->n = 0;
	rec->bytes += sizeof(*rec->task) + rec->task->sel->out_len +
	    strlen(rec->task->path) + 1;
	r->queued_bytes += rec->bytes - sizeof(*rec) - want_len;
	hold(r, rec);
	return rec;
}

/*
 * Hand the manifest's entries to the engine, or mark them as refused.
 * The records are settled first: at -j1 the engine reports (and frees)
 * them during ms_engine_submit, so the second pass touches tasks only.
 * A list's probe (check_resolve.c) is the exception: what is settled up
 * to it is submitted, and the records after it, still held, wait until
 * it is reported.
 */
static void
submit(struct run *r, bool pgp)
{
	size_t ngo = 0;
	struct rec *next;

	if (r->go_cap < r->npending) {
		r->go_cap = r->npending < HOLD_MAX ? HOLD_MAX : r->npending;
		r->go = ms_xrealloc(r->go, r->go_cap * sizeof(*r->go));
	}
	for (struct rec *rec = r->pending; rec != NULL; rec = next) {
		next = rec->pending;
		rec->held = false;
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
			/* a guess takes what its list turned out to be */
			ms_check_settle(r, rec);
			r->go[ngo++] = rec->task;
			if (ms_check_probe(r, rec)) {
				/* its list waits for it, so that no file is
				 * read twice (rec may be freed meanwhile) */
				struct manifest *pm = rec->m;

				for (size_t i = 0; i < ngo; i++)
					ms_engine_submit(r->engine, r->go[i]);
				ngo = 0;
				while (pm->probing && ms_engine_wait(r->engine))
					;
			}
		}
	}
	r->pending = NULL;
	r->pending_tail = &r->pending;
	r->npending = r->pending_bytes = 0;
	for (size_t i = 0; i < ngo; i++)
		ms_engine_submit(r->engine, r->go[i]);
	flush(r);
}

/*
 * After each line: submit what is read once nothing further down can
 * change its verdict (no PGP header can come, or one came), or once the
 * hold is full; then, while the queue is over its bound, let the engine
 * hand back its oldest entries.
 */
static void
pace(struct run *r, struct manifest *m, const struct ms_manifest_state *st)
{
	const struct ms_manifest_rules *rules = &r->style->rules;
	bool open = rules->dialect == MS_DIALECT_NATIVE && !rules->zero &&
	    !st->pgp_seen;

	if (r->pending != NULL && (!open || r->npending >= HOLD_MAX ||
	    r->pending_bytes >= r->queue_max / 2)) {
		if (open)
			m->unsigned_read = true;
		submit(r, st->pgp_seen);
	}
	while (r->engine != NULL && r->queued_bytes > r->queue_max &&
	    ms_engine_wait(r->engine))
		;
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
	if (e->why != NULL && (rc == MS_LINE_UNSUPPORTED ||
	    r->style->bare_reasons || m->said == NULL ||
	    strcmp(m->said, e->why) != 0)) {
		rec->why = ms_xstrdup(e->why);
		if (rc == MS_LINE_BAD)
			m->said = e->why;
	}
	if (rc == MS_LINE_UNSUPPORTED)
		rec->name = ms_xstrdup(e->name != NULL ? e->name : "?");
	hold(r, rec);
}

/* One verdict of the parser, queued. */
static void
take(struct run *r, struct manifest *m, const struct ms_manifest_state *st,
    enum ms_line rc, const struct ms_manifest_entry *e)
{
	switch (rc) {
	case MS_LINE_ENTRY:
		if (r->hooks != NULL && r->hooks->entry != NULL &&
		    !r->hooks->entry(r->hooks->arg, e->name))
			break;
		if (st->pyrecord && m->root == NULL)
			m->root = ms_check_list_root(r, m->name, false);
		/* names the list's format puts below a root stay there */
		if (m->root != NULL && ms_path_leaves(e->name)) {
			struct ms_manifest_entry out = *e;

			out.why = "outside the root (absolute or with \"..\"): "
			    "not read";
			add_other(r, m, MS_LINE_UNSUPPORTED, st, &out, NULL);
			break;
		}
		/* --shard: a check keys on the name as listed */
		if (ms_shard_keeps(&r->o->shard, e->name))
			add_entry(r, m, e, st->line);
		break;
	case MS_LINE_BAD:
		if (st->refused && r->style->fatal_unreadable) {
			/* the parser reads no further: nor does the run */
			add_mark(r, m, REC_STOP, st->line, NULL)->why =
			    ms_xstrdup(e->why);
			break;
		}
		/* FALLTHROUGH */
	case MS_LINE_UNSUPPORTED:
		add_other(r, m, rc, st, e,
		    ms_manifest_type(&r->style->rules, st));
		break;
	case MS_LINE_SKIP:
		break;
	}
}

/* One line of a manifest: parsed, queued, paced. */
static void
one_line(struct run *r, struct manifest *m, struct ms_manifest_state *st,
    char *line, size_t n)
{
	struct ms_manifest_entry e;
	bool signed_before = st->pgp_seen;

	if (line[0] == '#' && r->hooks != NULL && r->hooks->comment != NULL)
		r->hooks->comment(r->hooks->arg, line, n);
	do
		take(r, m, st, ms_manifest_parse(&r->style->rules, st, line, n,
		    &e), &e);
	while (st->again);
	if (!signed_before && st->pgp_seen && m->unsigned_read)
		add_mark(r, m, REC_LATE_PGP, st->line, NULL);
	pace(r, m, st);
}

/* A note of signature.h's for the report (said: malloc, or NULL). */
static void
note(struct run *r, struct manifest *m, char *said)
{
	if (said != NULL)
		add_mark(r, m, REC_SIGNATURE, 0, NULL)->why = said;
	m->sig_noted |= said != NULL;
}

/*
 * Without a key, the first line (n bytes in *line) and maybe the second:
 * a signify signature at the top is noted and skipped, never parsed.
 */
static void
first_lines(struct run *r, struct manifest *m, struct ms_manifest_state *st,
    FILE *fp, const char *path, char **line, ssize_t n)
{
	char *second = NULL, *both;
	size_t cap = 0, used;
	ssize_t n2 = -1;
	char *said = NULL;

	if (ms_unchecked_top_begins(*line, (size_t)n) &&
	    (n2 = ms_text_getdelim(&second, &cap,
	    r->style->rules.zero ? '\0' : '\n', fp)) > 0) {
		both = ms_xmalloc((size_t)n + (size_t)n2);
		memcpy(both, *line, (size_t)n);
		memcpy(both + n, second, (size_t)n2);
		said = ms_unchecked_top(path, both, (size_t)(n + n2), &used);
		free(both);
		if (said != NULL && used != (size_t)(n + n2)) {
			free(said);
			said = NULL;
		}
	}
	if (said != NULL) {
		if (m->sig_noted)
			free(said);	/* the signature beside it was named */
		else
			note(r, m, said);
	} else {
		one_line(r, m, st, *line, (size_t)n);
		if (n2 > 0)
			one_line(r, m, st, second, (size_t)n2);
	}
	free(second);
}

/*
 * With a key: the list read whole, once (signature.h), and its signature
 * judged before any line is parsed; a stream of only what the signature
 * covers, or NULL (m says why).  *list keeps the bytes until it is freed.
 */
static FILE *
open_signed(struct run *r, struct manifest *m, const char *path,
    struct ms_signed_list *list)
{
	bool native = r->style->rules.dialect == MS_DIALECT_NATIVE;
	const char *encoding;
	FILE *fp;

	ms_signed_list_read(r->verifier, path, list);
	if (list->said != NULL && !(list->verified && r->o->status)) {
		note(r, m, list->said);
		list->said = NULL;
	}
	m->open_err = list->open_errno;
	m->refused = list->refused;
	/* the faces say "read error", multisum and b3sum name the cause */
	m->read_err = list->read_errno != 0;
	m->read_cause = list->read_errno;
	m->read_errno = native ? list->read_errno : 0;
	if (m->open_err != 0 || m->refused || m->read_err)
		return NULL;
	fp = fmemopen((void *)list->body, list->body_len, "r");
	/* multisum reads what Windows wrote (UTF-16) as UTF-8; the faces bytes */
	if (fp != NULL && native)
		fp = ms_text_stream(fp, &encoding);
	if (fp == NULL)
		m->open_err = errno;	/* no memory for the stream */
	return fp;
}

/*
 * The list at path opened for m as the run reads it: whole with its
 * signature (open_signed), natively through the door (UTF-16 decoded),
 * as bytes for the faces, as their tools do.  NULL: m says why.
 */
static FILE *
open_list(struct run *r, struct manifest *m, const char *path, bool whole,
    struct ms_signed_list *list)
{
	const char *encoding;
	FILE *fp;

	if (whole)
		return open_signed(r, m, path, list);
	fp = r->style->rules.dialect == MS_DIALECT_NATIVE ?
	    ms_text_open(path, &encoding) : strcmp(path, "-") == 0 ? stdin :
	    fopen(path, "r");
	if (fp == NULL)
		m->open_err = errno;
	return fp;
}

/* The list read to its end (or its bound): closed, and what went wrong
 * in reading or closing it noted in m. */
static void
close_list(struct run *r, struct manifest *m, FILE *fp, bool whole)
{
	bool native = r->style->rules.dialect == MS_DIALECT_NATIVE;

	if (m->read_cause == EFBIG) {	/* a line past the bound: no list */
		m->read_err = true;
		m->read_errno = EFBIG;
	} else if (ferror(fp)) {
		m->read_err = true;
		m->read_errno = native ? m->read_cause : 0;
	}
	if ((whole ? fclose(fp) : ms_text_close(fp)) != 0 && !m->read_err) {
		m->read_err = true;
		m->read_errno = m->read_cause = errno;
	}
}

/*
 * The lines of fp, read, verified and reported one by one, in bounded
 * memory (pace() says when what was read goes to the engine), to the end
 * or until a fatal refusal; top: the first may be a signature's.
 */
static void
read_lines(struct run *r, struct manifest *m, struct ms_manifest_state *st,
    FILE *fp, const char *path, bool top)
{
	bool fatal = r->style->fatal_unreadable;
	int eol = r->style->rules.zero ? '\0' : '\n';
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	/* the parser keeps a copy */
	st->top = r->o->root == NULL ? ms_check_repository_top(path) : NULL;
	ms_manifest_begin(&r->style->rules, st, path);
	free((char *)st->top);
	st->top = NULL;
	errno = 0;
	while (!(fatal && st->refused) &&
	    (n = ms_text_getdelim(&line, &cap, eol, fp)) > 0) {
		if (top)
			first_lines(r, m, st, fp, path, &line, n);
		else
			one_line(r, m, st, line, (size_t)n);
		top = false;
		errno = 0;
	}
	m->read_cause = errno;
	free(line);
}

/*
 * Read one manifest, queueing its lines; the report follows them.  It is
 * read, verified and reported line by line, in bounded memory; with a
 * key, read whole first and its signature judged (open_signed).  Returns
 * false if the run reads no further (style->fatal_unreadable).
 */
static bool
read_manifest(struct run *r, struct ms_manifest_state *st, const char *path)
{
	const struct ms_manifest_rules *rules = &r->style->rules;
	struct manifest *m = ms_xcalloc(1, sizeof(*m));
	bool is_stdin = strcmp(path, "-") == 0, fatal = r->style->fatal_unreadable;
	bool native = rules->dialect == MS_DIALECT_NATIVE;
	bool keyed = ms_verifier_keyed(r->verifier);
	/* read whole, keyed or not, as the lines of its subjects */
	bool attest = native && r->verifier != NULL && !is_stdin &&
	    ms_attest_named(path);
	/* notes, unchecked */
	bool top = r->verifier != NULL && !keyed && !attest;
	struct ms_signed_list list = { 0 };
	struct ms_manifest_entry e;
	FILE *fp;

	m->name = is_stdin ? "standard input" : path;
	m->summary = true;
	m->empty_ok = r->prefix != NULL;
	if (attest)
		m->root = ms_check_list_root(r, path, true);
	if ((fp = open_list(r, m, path, keyed || attest, &list)) == NULL) {
		ms_signed_list_free(&list);
		fatal = fatal && (m->open_err != 0 || m->read_err);
		add_mark(r, m, REC_END, 0, NULL);
		flush(r);
		return !fatal;
	}
	if (top)
		note(r, m, ms_unchecked_beside(path));
	read_lines(r, m, st, fp, path, top);
	do
		take(r, m, st, ms_manifest_finish(rules, st, &e), &e);
	while (st->again);
	submit(r, st->pgp_seen);
	if (r->verifier != NULL && !keyed && st->pgp_seen && !m->sig_noted)
		note(r, m, ms_unchecked_pgp(path));
	close_list(r, m, fp, keyed || attest);
	ms_signed_list_free(&list);
	fatal = fatal && (st->refused || m->read_err);
	add_mark(r, m, REC_END, 0, NULL);
	flush(r);	/* which may free m */
	return !fatal;
}

static void
finish(struct run *r)
{
	if (r->engine != NULL)
		ms_engine_finish(r->engine);
	else
		ms_check_archive(r);
	ms_progress_stop(r->cfg.progress);
	flush(r);
	ms_check_registry_free(&r->reg);
	free(r->go);
	if (ms_output_close(&r->out, true) == -1)
		r->failed = true;
}

static void
start(struct run *r, const struct ms_options *o,
    const struct ms_check_style *style)
{
	r->o = o;
	r->style = style;
	r->cfg = o->engine;
	if (r->cfg.memory == 0)
		r->cfg.memory = ms_memory_default();
	r->queue_max = r->cfg.memory / 8;
	r->queue_max = r->queue_max < QUEUE_MIN ? QUEUE_MIN :
	    r->queue_max > QUEUE_MAX ? QUEUE_MAX : r->queue_max;
	r->cfg.memory -= r->queue_max;
	r->tail = &r->head;
	r->pending_tail = &r->pending;
	r->cfg.progress = ms_progress_start(o->progress);
	if (ms_output_open(&r->out, NULL) == -1)
		exit(MS_EXIT_FAIL);	/* no memory for a memory stream */
	if (o->archive == NULL)
		r->engine = ms_engine_start(&r->cfg, emit, r);
}

int
ms_check_run(const struct ms_options *o, const struct ms_check_style *style)
{
	struct run r = { 0 };
	struct ms_manifest_state st = { .reversed = -1 };

	/* The faces read their lists plainly, as their tools do. */
	if (ms_verifier_new(style->rules.dialect == MS_DIALECT_NATIVE ?
	    &o->signing : NULL, &r.verifier) == -1) {
		ms_outcome_note(MS_OUTCOME_SIGNATURE);	/* no key to check with */
		return MS_EXIT_FAIL;
	}
	start(&r, o, style);
	r.stdin_manifest = o->nfiles == 0;
	for (size_t i = 0; i < o->nfiles; i++)
		if (strcmp(o->files[i], "-") == 0)
			r.stdin_manifest = true;
	for (size_t i = 0; i < o->nfiles; i++) {
		if (style->rules.dialect == MS_DIALECT_NATIVE &&
		    ms_check_is_torrent(o->files[i])) {
			submit(&r, false);
			ms_check_torrent(&r, o->files[i], ms_check_note);
		} else if (!read_manifest(&r, &st, o->files[i])) {
			break;
		}
	}
	if (o->nfiles == 0)
		read_manifest(&r, &st, "-");
	ms_manifest_end(&st);
	finish(&r);
	ms_verifier_free(r.verifier);
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
		    .length_given = o->length != 0,
		    .zero = o->fmt.zero, .root = o->root },
	};

	if (o->expect != NULL)
		return expect(o, &style);
	return ms_check_run(o, &style);
}

/* The style of ms_check_main, for a run driven from outside. */
static struct ms_check_style *
native_style(const struct ms_options *o)
{
	struct ms_check_style *style = ms_xcalloc(1, sizeof(*style));

	style->rules = (struct ms_manifest_rules){ .dialect = MS_DIALECT_NATIVE,
	    .given = o->sel_given ? &o->sel : NULL, .zero = o->fmt.zero };
	return style;
}

struct run *
ms_check_begin(const struct ms_options *o)
{
	struct run *r = ms_xcalloc(1, sizeof(*r));

	start(r, o, native_style(o));
	return r;
}

void
ms_check_read(struct run *r, const char *path, const char *prefix,
    const struct ms_check_hooks *hooks)
{
	struct ms_manifest_state st = { .reversed = -1 };

	/* its records name it until they are reported */
	r->paths = ms_xrealloc(r->paths, (r->npaths + 1) * sizeof(*r->paths));
	r->paths[r->npaths] = ms_xstrdup(path);
	r->prefix = prefix;
	r->hooks = hooks;
	read_manifest(r, &st, r->paths[r->npaths++]);
	ms_manifest_end(&st);
	r->prefix = NULL;
	r->hooks = NULL;
}

void
ms_check_note(struct run *r, const char *name, const char *why)
{
	struct rec *rec = rec_new(r, REC_NOTE, NULL, 0);

	rec->name = ms_xstrdup(name);
	rec->why = ms_xstrdup(why);
	flush(r);
}

int
ms_check_end(struct run *r, bool failed)
{
	int status;

	finish(r);
	status = r->failed || failed ? MS_EXIT_FAIL : MS_EXIT_OK;
	ms_free_strings(r->paths, r->npaths);
	free((void *)r->style);
	free(r);
	return status;
}

struct manifest *
ms_check_list_begin(struct run *r, const char *name)
{
	struct manifest *m = ms_xcalloc(1, sizeof(*m));

	(void)r;
	m->name = name;
	m->summary = true;
	m->empty_ok = true;
	return m;
}

void
ms_check_list_entry(struct run *r, struct manifest *m,
    const struct ms_manifest_entry *e, bool walked)
{
	add_entry(r, m, e, 0)->task->walked = walked;
	if (r->npending >= HOLD_MAX || r->pending_bytes >= r->queue_max / 2)
		submit(r, false);
	while (r->engine != NULL && r->queued_bytes > r->queue_max &&
	    ms_engine_wait(r->engine))
		;
}

void
ms_check_list_end(struct run *r, struct manifest *m)
{
	submit(r, false);
	add_mark(r, m, REC_END, 0, NULL);
	flush(r);	/* which may free m */
}
