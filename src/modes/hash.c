/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hash.c - hash mode: operands through the engine to result lines, for
 * multisum and its faces (the coreutils tools, b3sum) alike.
 *
 * Owns the choice of line format for a run, the order of operands
 * (command line, --files-from lists, directory walks) and the reporting
 * of inputs that could not be read.  Digesting is the engine's, the
 * lines are format.c's.
 */
#include "modes/hash.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "digest/backend_s3.h"
#include "engine/engine_members.h"
#include "io/output.h"
#include "io/rename.h"
#include "modes/embedded.h"
#include "modes/scope.h"
#include "base/exit_status.h"
#include "base/quote.h"
#include "base/rust_text.h"
#include "base/util.h"

struct run {
	const struct ms_options *o;
	const struct ms_hash_style *style;
	struct ms_engine_config cfg;	/* o->engine, with the progress line */
	struct ms_output out;
	struct ms_walk_opts walk;	/* o->walk, told of the -o output */
	struct ms_engine *engine;
	size_t		 failed;
	bool		*found;		/* --archive: operand i was a member */
	bool		 debug_said;	/* style->crc_debug was written */
	const char	*operand;	/* the one being walked, for --shard */
	struct ms_task	**held;		/* -j 1 with a progress line: */
	size_t		 nheld;		/* tasks not yet submitted */
};

/* Tasks -j 1 holds back at most, so that the progress total is known. */
#define HELD_MAX	4096

/* t->err of an operand the style refuses unread (stdin_refusal). */
#define REFUSED		(-1)
/* t->err of a file in more parts than S3 takes, refused unread. */
#define TOO_MANY_PARTS	(-2)

/* "FILE: CAUSE" (err, or why if err is 0), after what standard output
 * holds, as check mode does; the input counts as failed. */
static void
failed(struct run *r, const char *path, int err, const char *why)
{
	ms_output_flush(&r->out);
	if (r->style->rust_words) {
		char *name = ms_rust_lossy(path, false, NULL);

		ms_warn("%s: %s", name, err != 0 ? ms_rust_os_error(err) : why);
		free(name);
	} else {
		ms_warn("%s: %s", ms_quotef(path), err != 0 ? ms_strerror(err) :
		    why);
	}
	/* a cause from the system may pass; a refusal will not */
	ms_outcome_note(err != 0 ? MS_OUTCOME_RETRY : MS_OUTCOME_FAIL);
	r->failed++;
}

/* --match: is one of t's digests in the known sets? */
static bool
known(const struct ms_options *o, const struct ms_task *t)
{
	for (size_t i = 0; i < t->sel->cnt; i++)
		if (ms_match_set_has(o->match, &t->sel->spec[i],
		    t->digest + t->sel->offset[i]))
			return true;
	return false;
}

/* Does sel hold an S3 digest (a row with a part size)? */
static bool
has_parts(const struct ms_selection *sel)
{
	for (size_t i = 0; i < sel->cnt; i++)
		if (sel->spec[i].algo->params & MS_PARAM_PART_SIZE)
			return true;
	return false;
}

/* An S3 digest of t (of t->size bytes) in more parts than S3 takes: why
 * (malloc), or NULL.  The AWS CLI raises its part size then: the ETag of
 * this part size is no object's. */
static const char *
too_many_parts(const struct ms_task *t)
{
	for (size_t i = 0; i < t->sel->cnt; i++) {
		const struct ms_digest_spec *s = &t->sel->spec[i];
		uint64_t n;

		if (!(s->algo->params & MS_PARAM_PART_SIZE) ||
		    (n = ms_s3_parts(s, t->size)) <= MS_S3_PARTS_MAX)
			continue;
		return ms_xasprintf("%s: %" PRIu64 " parts, more than S3's %d "
		    "(give a larger --part-size)", s->algo->name, n,
		    MS_S3_PARTS_MAX);
	}
	return NULL;
}

/* -k: "NAME: OK" if the CRC32 the name carries is the file's. */
static void
check_embedded(struct run *r, const struct ms_task *t, const char *name)
{
	unsigned char crc[4];

	if (!ms_embedded_crc(name, crc)) {
		failed(r, name, 0, "the name carries no CRC32 ([XXXXXXXX] or "
		    "(XXXXXXXX))");
		return;
	}
	if (memcmp(crc, ms_embedded_digest(t->sel, t->digest), 4) == 0) {
		fprintf(r->out.fp, "%s: OK\n", name);
		return;
	}
	fprintf(r->out.fp, "%s: FAILED\n", name);
	ms_outcome_note(MS_OUTCOME_FAIL);
	r->failed++;
}

/* --embed-crc: t's file renamed to carry its CRC32 (one that carries
 * one is left as it is, as RHash leaves it); the name now, or NULL. */
static char *
embed_crc(struct run *r, const struct ms_task *t, const char *name)
{
	unsigned char crc[4];
	char *to;

	if (strcmp(t->path, "-") == 0) {
		failed(r, name, 0, "standard input has no name to carry a CRC32");
		return NULL;
	}
	if (ms_embedded_crc(t->path, crc))
		return ms_xstrdup(t->path);
	to = ms_embedded_name(t->path, ms_embedded_digest(t->sel, t->digest),
	    r->o->embed_delim);
	if (ms_rename_noreplace(t->path, to) == -1) {
		int err = errno;

		ms_output_flush(&r->out);
		ms_warn("%s: not renamed to %s: %s", ms_quotef(t->path),
		    ms_quotef(to), err == EEXIST ? "a file has that name" :
		    ms_strerror(err));
		ms_outcome_note(MS_OUTCOME_RETRY);
		r->failed++;
		free(to);
		return NULL;
	}
	return to;
}

/* The line(s) for t: RHash's template or magnet link, or --format's. */
static void
result(struct run *r, const struct ms_task *t, const char *name)
{
	struct stat st;
	char *renamed = NULL;

	if (r->o->check_embedded) {
		check_embedded(r, t, name);
		return;
	}
	if (r->o->embed_crc && (name = renamed = embed_crc(r, t, name)) == NULL)
		return;
	if (r->o->printf != NULL)
		ms_printf_write(r->out.fp, r->o->printf, name, t->sel, t->digest,
		    t->size, strcmp(t->path, "-") != 0 && stat(name, &st) == 0 ?
		    (int64_t)st.st_mtime : 0);
	else if (r->o->magnet)
		ms_magnet_write(r->out.fp, name, t->sel, t->digest, t->size);
	else if (!ms_format_result_bytes(&r->out.lines, &r->o->fmt, name,
	    t->sel, t->digest))
		ms_format_result(r->out.fp, &r->o->fmt, name, t->sel,
		    t->digest, t->size);
	free(renamed);
}

static void
emit(void *arg, struct ms_task *t)
{
	struct run *r = arg;
	/* --stdin-name: standard input's name, in its line and its error */
	const char *name = r->o->stdin_name != NULL &&
	    strcmp(t->path, "-") == 0 ? r->o->stdin_name : t->path;
	const char *why;

	if (t->err == REFUSED) {
		failed(r, name, 0, r->style->stdin_refusal);
	} else if ((t->err == TOO_MANY_PARTS || t->err == 0) &&
	    (why = too_many_parts(t)) != NULL) {
		/* by its size before it was read, or by what was read */
		failed(r, name, 0, why);
		free((char *)why);
	} else if (t->err == ENOENT && t->walked) {
		/* found by the walk, gone since: the tree changed, no error */
		ms_output_flush(&r->out);
		ms_walk_vanished(t->path, "not listed");
	} else if (t->err != 0) {
		failed(r, name, t->err, NULL);
	} else if ((why = ms_format_refuses(&r->o->fmt, name)) != NULL) {
		failed(r, name, 0, why);
	} else if ((why = r->style->late_refusal) != NULL) {
		/* as b3sum 1.2, which has begun the line by then */
		ms_format_lead(r->out.fp, &r->o->fmt, name);
		failed(r, name, 0, why);
	} else if (r->o->match != NULL && known(r->o, t) == r->o->unmatched) {
		/* --match, --unmatched: not one of the files asked for */
	} else {
		if (r->style->crc_debug != NULL && (!r->debug_said ||
		    r->style->crc_debug_each)) {
			const char *p = r->style->crc_debug, *nl;

			r->debug_said = true;
			for (; (nl = strchr(p, '\n')) != NULL; p = nl + 1)
				ms_warn("%.*s", (int)(nl - p), p);
			ms_warn("%s", p);
		}
		result(r, t, name);
		ms_output_lines(&r->out);
	}
	ms_task_free(t);
}

static void
release(struct run *r)
{
	for (size_t i = 0; i < r->nheld; i++)
		ms_engine_submit(r->engine, r->held[i]);
	r->nheld = 0;
}

static void
submit(void *arg, const char *path, const struct ms_walked *found)
{
	struct run *r = arg;
	struct ms_task *t;
	struct stat st;

	if (!ms_shard_keeps_path(&r->o->shard, r->operand, path)) {
		int err = found != NULL ? 0 : ms_walk_probe(path);

		/* another shard's operand: missing or unreadable fails here too */
		if (err != 0)
			failed(r, path, err, NULL);
		return;
	}
	/* Sizes in advance only for the progress line's time left. */
	if (r->cfg.progress != NULL && stat(path, &st) == 0 &&
	    S_ISREG(st.st_mode))
		ms_progress_expect(r->cfg.progress, (uint64_t)st.st_size);
	t = ms_task_new(path, &r->o->sel, NULL);
	ms_task_found(t, found);
	if (r->style->stdin_refusal != NULL && strcmp(path, "-") == 0) {
		/* in its place among the results, never read */
		release(r);
		t->err = REFUSED;
		ms_engine_submit_done(r->engine, t);
		return;
	}
	if (has_parts(t->sel) && strcmp(path, "-") != 0 &&
	    stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		const char *why;

		t->size = (uint64_t)st.st_size;
		if ((why = too_many_parts(t)) != NULL) {
			/* in its place among the results, never read */
			free((char *)why);
			release(r);
			t->err = TOO_MANY_PARTS;
			ms_engine_submit_done(r->engine, t);
			return;
		}
		t->size = 0;
	}
	if (r->cfg.jobs <= 1 && r->cfg.progress != NULL) {
		/* -j 1 hashes a task as it is submitted: hold them back, so
		 * that the total counts every queued file, not the opened. */
		if (r->held == NULL)
			r->held = ms_xmalloc(HELD_MAX * sizeof(*r->held));
		r->held[r->nheld++] = t;
		if (r->nheld == HELD_MAX)
			release(r);
		return;
	}
	ms_engine_submit(r->engine, t);
}

static void
operand(struct run *r, const char *path)
{
	r->operand = path;
	r->failed += ms_walk(&r->walk, path, submit, r);
}

static void
list_operand(void *arg, const char *path, const struct ms_walked *found)
{
	(void)found;
	operand(arg, path);
}

/* --archive: a member is read if no operand was given, or one names it. */
static const struct ms_selection *
choose_member(void *arg, const char *name, void **user)
{
	struct run *r = arg;
	bool wanted = r->o->nfiles == 0;

	(void)user;
	for (size_t i = 0; i < r->o->nfiles; i++)
		if (strcmp(r->o->files[i], name) == 0)
			wanted = r->found[i] = true;
	if (wanted && name[0] == '\0') {
		/* its line would not read back */
		ms_warn("%s: a member with an empty name: not hashed",
		    r->o->archive);
		ms_outcome_note(MS_OUTCOME_FAIL);
		r->failed++;
		return NULL;
	}
	return wanted ? &r->o->sel : NULL;
}

static void
unread_link(void *arg, const char *name, const char *link, void *user)
{
	struct run *r = arg;

	(void)user;
	ms_warn("%s: hard link to %s, which was not hashed (name it too)",
	    name, link);
	ms_outcome_note(MS_OUTCOME_FAIL);
	r->failed++;
}

/* --archive: members in archive order, all or those named by operands. */
static void
hash_archive(struct run *r)
{
	const struct ms_options *o = r->o;
	int rc;

	r->found = ms_xcalloc(o->nfiles ? o->nfiles : 1, sizeof(*r->found));
	r->engine = ms_engine_start(&r->cfg, emit, r);
	rc = ms_members_submit(o->archive, r->engine, choose_member,
	    unread_link, r);
	ms_engine_finish(r->engine);
	if (rc != 0)
		r->failed++;
	for (size_t i = 0; rc != -1 && i < o->nfiles; i++)
		if (!r->found[i]) {
			ms_warn("%s: not found in %s", o->files[i], o->archive);
			ms_outcome_note(MS_OUTCOME_FAIL);
			r->failed++;
		}
	free(r->found);
}

int
ms_hash_run(const struct ms_options *o, const struct ms_hash_style *style)
{
	struct run r = { .o = o, .style = style, .cfg = o->engine };
	int status = MS_EXIT_OK;

	if (ms_output_open(&r.out, o->output) == -1)
		return MS_EXIT_FAIL;
	/* --sign: the key is unlocked before anything is hashed */
	if (o->signing.sign != NULL && ms_sign_prepare(&o->signing, &r.out) == -1) {
		ms_output_close(&r.out, false);
		return MS_EXIT_FAIL;
	}
	if (o->fmt.format == MS_FORMAT_HASHDEEP && !o->fmt.raw) {
		char *cwd = getcwd(NULL, 0);

		ms_format_hashdeep_header(r.out.fp, &o->sel, cwd != NULL ? cwd :
		    ".", o->argc, o->argv, geteuid() == 0);
		free(cwd);
		ms_output_lines(&r.out);
	}
	r.walk = o->walk;
	r.walk.output = o->output != NULL ? &r.out : NULL;
	if (o->shard.n > 0) {
		struct ms_ledger_head h;

		/* a shard's manifest says so (validate() let only gnu and
		 * bsd lines by, which can hold it) */
		ms_scope_head(o, &h);
		ms_ledger_head_write(r.out.fp, &h);
		ms_ledger_head_free(&h);
		ms_output_lines(&r.out);
	}
	r.cfg.progress = ms_progress_start(o->progress);
	if (o->archive != NULL) {
		hash_archive(&r);
	} else {
		r.engine = ms_engine_start(&r.cfg, emit, &r);
		if (o->files_from != NULL &&
		    ms_walk_list(o->files_from, o->files_from_nul, list_operand, &r) == -1)
			r.failed++;
		for (size_t i = 0; i < o->nfiles; i++)
			operand(&r, o->files[i]);
		if (o->nfiles == 0 && o->files_from == NULL)
			operand(&r, "-");
		release(&r);
		free(r.held);
		ms_engine_finish(r.engine);
	}
	ms_progress_stop(r.cfg.progress);
	if (r.failed > 0)
		status = MS_EXIT_FAIL;
	if (r.failed > 0 && o->output != NULL)
		ms_warn("%s: not written: %zu input%s could not be read",
		    o->output, r.failed, r.failed == 1 ? "" : "s");
	if (ms_output_close(&r.out, r.failed == 0) == -1 && status == MS_EXIT_OK)
		status = MS_EXIT_FAIL;
	return status;
}

int
ms_hash_main(const struct ms_options *o)
{
	static const struct ms_hash_style native = { 0 };

	if (ms_selection_load(&o->sel) == -1)
		return MS_EXIT_USAGE;
	return ms_hash_run(o, &native);
}
