/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * part.c - one huge file across nodes: --part=K/N FILE hashes the K-th of
 * N aligned parts of FILE into a partial record, and --merge of the N
 * records writes what one run over FILE would have written.
 *
 * Owns the two runs and the checks between them: a part is hashed
 * through the engine (its range only, on one worker) and is an error if
 * the file changed meanwhile (identity, size, modification or change
 * time) or ended early; a merge refuses records of different files
 * (name, size, modification time), of different digests or formats, of
 * another N, a part missing or given twice, and a part whose range is not
 * the one its K has (an overlap, or another multisum's split), then joins
 * the states in order.  Records are opened through the door every list
 * is (io/text_input.h).  The parts' arithmetic is compose.c's, the
 * record's text part_record.c's, the lines format.c's.
 */
#include "modes/part.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "digest/compose.h"
#include "manifest/format.h"
#include "manifest/part_record.h"
#include "io/output.h"
#include "io/text_input.h"
#include "base/exit_status.h"
#include "base/portable.h"
#include "base/quote.h"
#include "base/util.h"

/* What must not change while a part is read. */
static bool
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	    a->st_size == b->st_size &&
	    MS_ST_MTIM(a).tv_sec == MS_ST_MTIM(b).tv_sec &&
	    MS_ST_MTIM(a).tv_nsec == MS_ST_MTIM(b).tv_nsec &&
	    MS_ST_CTIM(a).tv_sec == MS_ST_CTIM(b).tv_sec &&
	    MS_ST_CTIM(a).tv_nsec == MS_ST_CTIM(b).tv_nsec;
}

static void
emit(void *arg, struct ms_task *t)
{
	*(struct ms_task **)arg = t;
}

/* Hash r's range of path through the engine; -1 after a message. */
static int
hash_part(const struct ms_options *o, const char *path,
    struct ms_part_record *r, const struct stat *before)
{
	struct ms_engine_config cfg = o->engine;
	struct ms_task *t = ms_task_new(path, &r->sel, NULL), *done = NULL;
	struct ms_engine *e;
	struct stat after;
	int rc = 0;

	t->part = &r->part;
	cfg.jobs = 1;			/* one task, no big-file split */
	e = ms_engine_start(&cfg, emit, &done);
	ms_engine_submit(e, t);
	ms_engine_finish(e);
	if (done == NULL)
		ms_bug("part: no task back");
	if (done->err != 0) {
		ms_warn("%s: %s", ms_quotef(path), strerror(done->err));
		rc = -1;
	} else if (stat(path, &after) == -1 || !same_file(before, &after) ||
	    done->size != r->part.off + r->part.len) {
		ms_warn("%s: file changed as we read it", ms_quotef(path));
		rc = -1;
	}
	if (rc == -1)
		ms_outcome_note(MS_OUTCOME_RETRY);
	ms_task_free(done);
	return rc;
}

int
ms_part_main(const struct ms_options *o)
{
	const char *path = o->files[0], *why;
	struct ms_part_record r = { 0 };
	struct ms_output out;
	struct stat st;
	uint64_t unit;
	size_t bad;
	bool pow2;
	int status = MS_EXIT_FAIL;

	if (ms_selection_load(&o->sel) == -1)
		return MS_EXIT_USAGE;
	if (ms_compose_unit(&o->sel, &unit, &pow2, &why, &bad) == -1)
		ms_bug("part: validate() let a selection through");
	if (stat(path, &st) == -1) {
		ms_warn("%s: %s", ms_quotef(path), strerror(errno));
		ms_outcome_note(MS_OUTCOME_RETRY);
		return MS_EXIT_FAIL;
	}
	if (!S_ISREG(st.st_mode)) {
		ms_warn("%s: %s", ms_quotef(path), S_ISDIR(st.st_mode) ?
		    strerror(EISDIR) : "--part reads regular files only");
		return MS_EXIT_FAIL;
	}
	r.name = (char *)path;
	r.k = o->part.k;
	r.n = o->part.n;
	r.size = (uint64_t)st.st_size;
	r.mtime_ns = (int64_t)MS_ST_MTIM(&st).tv_sec * 1000000000 +
	    MS_ST_MTIM(&st).tv_nsec;
	r.fmt = o->fmt;
	r.sel = o->sel;
	ms_compose_range(unit, pow2, r.size, r.k, r.n, &r.part.off,
	    &r.part.len);
	if (hash_part(o, path, &r, &st) == 0 &&
	    ms_output_open(&out, o->output) == 0) {
		bool written = ms_part_record_write(out.fp, &r) == 0;

		if (!written)
			ms_warn("%s: the record's checksum cannot be computed",
			    ms_quotef(path));
		if (ms_output_close(&out, written) == 0 && written)
			status = MS_EXIT_OK;
	}
	if (status != MS_EXIT_OK && o->output != NULL)
		ms_warn("%s: not written", o->output);
	for (size_t i = 0; i < MS_SET_MAX; i++)
		ms_bytes_free(&r.part.saved[i]);
	return status;
}

/* ------------------------------------------------------------- merge */

bool
ms_part_is_record(const char *path)
{
	struct ms_manifest_input in;
	char head[sizeof(MS_PART_MAGIC)];
	ssize_t n;

	/* standard input is read once, as shards (merge.c) */
	if (strcmp(path, "-") == 0 || ms_text_input(&in, path) == -1)
		return false;
	n = in.pull(in.src, head, sizeof(head) - 1);
	ms_manifest_input_close(&in);
	return n > 0 && ms_part_record_begins(head, (size_t)n);
}

static bool
same_format(const struct ms_format_opts *a, const struct ms_format_opts *b)
{
	return a->format == b->format && a->binary == b->binary &&
	    a->zero == b->zero && a->base64 == b->base64;
}

/*
 * What makes record b no part of the file record a is of, or NULL: the
 * file's name, size or modification time, the digests, the format, N.
 */
static const char *
foreign(const struct ms_part_record *a, const struct ms_part_record *b)
{
	if (strcmp(a->name, b->name) != 0)
		return "another file";
	if (a->size != b->size || a->mtime_ns != b->mtime_ns)
		return "the file as it was at another time (its size or "
		    "modification time differs)";
	if (!ms_selection_equal(&a->sel, &b->sel))
		return "other algorithms or parameters";
	if (!same_format(&a->fmt, &b->fmt))
		return "another output format";
	if (a->n != b->n)
		return "a split into another number of parts";
	return NULL;
}

struct got {
	struct ms_part_record r;
	const char	*path;
};

static int
by_k(const void *p, const void *q)
{
	const struct got *a = p, *b = q;

	return (a->r.k > b->r.k) - (a->r.k < b->r.k);
}

/* Read every operand as a record; false after a message for each bad
 * one. */
static bool
read_all(const struct ms_options *o, struct got *g)
{
	bool ok = true;

	for (size_t i = 0; i < o->nfiles; i++) {
		struct ms_manifest_input in;
		const char *why;

		g[i].path = o->files[i];
		if (ms_text_input(&in, o->files[i]) == -1) {
			int err = errno;

			ms_warn("%s: %s", o->files[i], ms_text_strerror(err));
			/* a part not there is missing, as a failed job leaves
			 * it (1); one that cannot be read, a retry */
			ms_outcome_note(err == ENOENT ? MS_OUTCOME_FAIL :
			    MS_OUTCOME_RETRY);
			ok = false;
			continue;
		}
		if (ms_part_record_read(&in, &g[i].r, &why) == -1) {
			ms_warn("%s: %s", o->files[i], why);
			ms_outcome_note(MS_OUTCOME_FAIL);
			ok = false;
		}
		ms_manifest_input_close(&in);
	}
	return ok;
}

/* Parts from up to (not with) to, appended to the list m (size bytes) of those
 * missing, "2, 5, ..." once it is full. */
static void
add_missing(char *m, size_t size, uint64_t from, uint64_t to)
{
	for (uint64_t k = from; k < to; k++)
		if (strlen(m) + 24 < size)
			snprintf(m + strlen(m), size - strlen(m), "%s%" PRIu64,
			    m[0] ? ", " : "", k);
		else if (strstr(m, "...") == NULL)
			strcat(m, ", ...");
}

/*
 * The records g[0..n), sorted by K, are N parts of one file, each once,
 * each where its K puts it?  false after a message for each fault.
 */
static bool
complete(struct got *g, size_t n)
{
	const struct ms_part_record *first = &g[0].r;
	uint32_t next = 1, parts = first->n;
	uint64_t unit;
	size_t bad;
	const char *why;
	bool pow2, ok = true;
	char missing[160] = "";

	for (size_t i = 1; i < n; i++)
		if ((why = foreign(first, &g[i].r)) != NULL) {
			ms_warn("%s: not a part of the file of %s: %s",
			    g[i].path, g[0].path, why);
			ok = false;
		}
	if (!ok)
		return false;
	if (ms_compose_unit(&first->sel, &unit, &pow2, &why, &bad) == -1) {
		ms_warn("%s: %s %s", g[0].path, first->sel.spec[bad].algo->name,
		    why);
		return false;
	}
	qsort(g, n, sizeof(*g), by_k);
	for (size_t i = 0; i < n; i++) {
		const struct ms_part_record *r = &g[i].r;
		uint64_t off, len;

		if (i > 0 && r->k == g[i - 1].r.k) {
			ms_warn("%s: part %" PRIu32 "/%" PRIu32 " given twice "
			    "(also %s)", g[i].path, r->k, r->n, g[i - 1].path);
			ok = false;
			continue;
		}
		add_missing(missing, sizeof(missing), next, r->k);
		next = r->k + 1;
		ms_compose_range(unit, pow2, r->size, r->k, r->n, &off, &len);
		if (off != r->part.off || len != r->part.len) {
			ms_warn("%s: part %" PRIu32 "/%" PRIu32 " holds bytes %"
			    PRIu64 " to %" PRIu64 ", not %" PRIu64 " to %" PRIu64
			    " (overlapping parts, or another multisum's split)",
			    g[i].path, r->k, r->n, r->part.off,
			    r->part.off + r->part.len, off, off + len);
			ok = false;
		}
	}
	add_missing(missing, sizeof(missing), next, (uint64_t)parts + 1);
	if (missing[0] != '\0') {
		ms_warn("%s: part%s %s of %" PRIu32 " missing: the merge needs "
		    "every part", first->name, strchr(missing, ',') ? "s" : "",
		    missing, parts);
		ok = false;
	}
	return ok;
}

/* Join the parts' states in order into the file's digests, into d. */
static bool
join(struct got *g, size_t n, unsigned char *d)
{
	const struct ms_selection *sel = &g[0].r.sel;
	struct ms_digest_set set;
	bool ok = true;

	ms_digest_set_create(&set, sel);
	ms_digest_set_init(&set);
	for (size_t k = 0; k < n && ok; k++)
		for (size_t i = 0; i < sel->cnt && ok; i++) {
			const struct ms_part *p = &g[k].r.part;

			if (ms_digest_set_join(&set, i, p->saved[i].p,
			    p->saved[i].len, p->off, p->len) == -1) {
				ms_warn("%s: the saved state of %s is damaged",
				    g[k].path, sel->spec[i].algo->name);
				ms_outcome_note(MS_OUTCOME_FAIL);
				ok = false;
			}
		}
	if (ok)
		ms_digest_set_final(&set, d);
	ms_digest_set_destroy(&set);
	return ok;
}

int
ms_part_merge(const struct ms_options *o)
{
	struct got *g = ms_xcalloc(o->nfiles, sizeof(*g));
	unsigned char *d = NULL;
	struct ms_output out;
	int status = MS_EXIT_FAIL;

	if (read_all(o, g) && complete(g, o->nfiles) &&
	    ms_selection_load(&g[0].r.sel) == 0) {
		d = ms_xmalloc(g[0].r.sel.out_len);
		if (join(g, o->nfiles, d) && ms_output_open(&out, o->output) == 0) {
			/* --sign: the merged record's line, signed with it */
			bool ok = o->signing.sign == NULL ||
			    ms_sign_prepare(&o->signing, &out) == 0;

			if (ok)
				ms_format_result(out.fp, &g[0].r.fmt, g[0].r.name,
				    &g[0].r.sel, d, g[0].r.size);
			if (ms_output_close(&out, ok) == 0 && ok)
				status = MS_EXIT_OK;
		}
	}
	if (status != MS_EXIT_OK && o->output != NULL)
		ms_warn("%s: not written", o->output);
	for (size_t i = 0; i < o->nfiles; i++)
		ms_part_record_free(&g[i].r);
	free(g);
	free(d);
	return status;
}
