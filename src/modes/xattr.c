/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xattr.c - --xattr=update|audit: each file's digest kept in its own
 * extended attributes, as cshatag keeps it, so that it travels with the
 * file through cp -a, rsync -X and mv.
 *
 * Owns the run: which digests a file is read for (-a's and those its
 * tags hold, else SHA-256), the check that it did not change while it was
 * read, its class against its stored tag (manifest/shatag.c), what
 * --xattr=update then writes and in which order, and the report.  The
 * rules that matter:
 *   - a corrupt file's stored digest is never overwritten;
 *   - the time is removed before the digests are written and set after
 *     them, so that a run stopped half way, or a write refused for want
 *     of room, never leaves a new time vouching for an old digest (the
 *     way cshatag's issue 41 turned a full attribute space into
 *     "corrupt");
 *   - a file modified within MS_LEDGER_RACY_NS of being read gets its
 *     digest but no time (the ledger's racily-clean rule): a write in
 *     the same timestamp tick could otherwise pass for corruption later;
 *   - a file that changed while it was read is an error, never a tag;
 *   - a failure of the attribute calls is said as what it is
 *     (io/xattr_calls.c's words), never as corruption.
 * Reading and hashing are the engine's; the attribute calls io/xattr_calls.c's.
 */
#include "modes/xattr.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/output.h"
#include "io/xattr_calls.h"
#include "manifest/ledger.h"
#include "manifest/shatag.h"
#include "base/exit_status.h"
#include "base/quote.h"
#include "base/portable.h"
#include "base/util.h"

/* One file between its visit and its result. */
struct rec {
	struct stat	 st;		/* before it was read */
	int64_t		 stamp;		/* the clock then */
	int		 list_err;	/* its attributes could not be listed */
};

struct tagrun {
	const struct ms_options *o;
	bool		 update;	/* --xattr=update writes */
	bool		 ndjson;
	struct ms_engine_config cfg;
	struct ms_engine *engine;
	struct ms_selection **sels;	/* the selections files needed */
	size_t		 nsels;
	struct ms_selection fallback;	/* sha256, for an untagged file */
	size_t		 cnt[MS_SHATAG_CLASSES];
	size_t		 failed, tagged, racy;
	size_t		 untimed;	/* ok, no time stored: timed now or later */
};

static int64_t
ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

/* "FILE: WHY", after what standard output holds; the file failed, as
 * a file not read or a tag not stored does: a retry may pass (a refusal
 * notes MS_OUTCOME_FAIL too, which wins). */
static void
failed(struct tagrun *r, const char *path, const char *fmt, const char *what)
{
	char *why = ms_xasprintf(fmt, what);

	fflush(stdout);
	ms_warn("%s: %s", ms_quotef(path), why);
	free(why);
	ms_outcome_note(MS_OUTCOME_RETRY);
	r->failed++;
}

/* The loaded selection equal to want, shared by the files that need it. */
static const struct ms_selection *
selection_for(struct tagrun *r, const struct ms_selection *want)
{
	for (size_t i = 0; i < r->nsels; i++)
		if (ms_selection_equal(r->sels[i], want))
			return r->sels[i];
	if (ms_selection_load(want) == -1)
		return NULL;
	r->sels = ms_xrealloc(r->sels, (r->nsels + 1) * sizeof(*r->sels));
	r->sels[r->nsels] = ms_xmalloc(sizeof(*want));
	*r->sels[r->nsels] = *want;
	return r->sels[r->nsels++];
}

/*
 * The digests a file is read for: -a's, and every one its tags hold
 * (in the table's order), so that no tag goes unjudged: a digest left
 * out would let a corrupt file pass as "new" under another -a, and a
 * stale one kept beside a new time would later pass for corruption.
 * SHA-256 (cshatag's) for a file without tags and no -a.
 */
static const struct ms_selection *
tagged_selection(struct tagrun *r, const char *path, int *err)
{
	struct ms_selection want = r->o->sel_given ? r->o->sel :
	    (struct ms_selection){ 0 };
	const struct ms_selection *none = r->o->sel_given ? &r->o->sel :
	    &r->fallback;
	size_t len;
	char *names = ms_xattr_list(path, &len);

	if (names == NULL) {
		*err = errno;
		return none;
	}
	for (size_t k = 0; k < ms_algo_count; k++)
		for (char *p = names; p < names + len; p += strlen(p) + 1) {
			struct ms_digest_spec spec;

			if (ms_shatag_spec(p, &spec) && spec.algo == &ms_algos[k])
				ms_selection_add(&want, &spec);
		}
	free(names);
	if (want.cnt == 0)
		return &r->fallback;
	if (r->o->sel_given && ms_selection_equal(&want, &r->o->sel))
		return &r->o->sel;
	return selection_for(r, &want);
}

static void
submit(void *arg, const char *path, const struct ms_walked *found)
{
	struct tagrun *r = arg;
	const struct ms_selection *sel = &r->o->sel;
	struct ms_task *t;
	struct rec *rec;

	if (strcmp(path, "-") == 0) {
		failed(r, path, "%s", "standard input has no extended attributes");
		ms_outcome_note(MS_OUTCOME_FAIL);
		return;
	}
	rec = ms_xcalloc(1, sizeof(*rec));
	if (stat(path, &rec->st) == -1) {
		failed(r, path, "%s", strerror(errno));
		free(rec);
		return;
	}
	if (!S_ISREG(rec->st.st_mode) && !S_ISDIR(rec->st.st_mode)) {
		failed(r, path, "%s", "not a regular file: no tag");
		ms_outcome_note(MS_OUTCOME_FAIL);
		free(rec);
		return;
	}
	if (S_ISREG(rec->st.st_mode))
		sel = tagged_selection(r, path, &rec->list_err);
	if (sel == NULL) {	/* its backend did not load: said */
		r->failed++;
		free(rec);
		return;
	}
	rec->stamp = ms_realtime_coarse_ns();	/* the files' clock */
	t = ms_task_new(path, sel, rec);
	t->walked = found != NULL;
	t->dev = rec->st.st_dev;	/* placed with no stat of the engine's */
	t->ino = rec->st.st_ino;
	if (r->cfg.progress != NULL && S_ISREG(rec->st.st_mode))
		ms_progress_expect(r->cfg.progress, (uint64_t)rec->st.st_size);
	ms_engine_submit(r->engine, t);
}

/* Did the file change between the stat before its read and fd's now? */
static bool
changed(const struct stat *a, const struct stat *b)
{
	return a->st_dev != b->st_dev || a->st_ino != b->st_ino ||
	    a->st_size != b->st_size ||
	    ts_ns(&MS_ST_MTIM(a)) != ts_ns(&MS_ST_MTIM(b)) ||
	    ts_ns(&MS_ST_CTIM(a)) != ts_ns(&MS_ST_CTIM(b));
}

/* What a file's tag says against its reading t. */
struct verdict {
	enum ms_shatag_status digest[MS_SET_MAX];
	enum ms_shatag_status ts, all;
	bool		 untimed;	/* no time stored at all */
	size_t		 first_diff;	/* a digest that differs */
	unsigned char	 stored[MS_DIGEST_MAX];	/* its stored value */
};

/* A stored value of name, or -1 with the cause said (absent: 0). */
static ssize_t
stored(struct tagrun *r, int fd, const char *path, const char *name,
    char *buf, size_t cap)
{
	ssize_t n = ms_xattr_get(fd, name, buf, cap);

	if (n >= 0)
		return n;
	if (ms_xattr_absent(errno))
		return 0;
	if (errno == ERANGE)	/* longer than any value we write */
		return (ssize_t)cap;
	failed(r, path, "cannot read its tag: %s", ms_xattr_cause(errno));
	return -1;
}

/* Read fd's tag and compare it with t; -1 if it could not be read. */
static int
judge(struct tagrun *r, int fd, const struct ms_task *t, int64_t mtime,
    struct verdict *v)
{
	const struct ms_selection *sel = t->sel;
	char buf[2 * MS_DIGEST_MAX + 8], name[64];
	ssize_t n;
	int64_t ts;
	bool same = false, diff = false;

	n = stored(r, fd, t->path, MS_SHATAG_TS, buf, MS_SHATAG_TS_MAX);
	if (n == -1)
		return -1;
	v->ts = MS_SHATAG_MISS;
	v->untimed = n == 0;
	if (n > 0 && !ms_shatag_ts_parse(buf, (size_t)n, &ts)) {
		fflush(stdout);
		ms_warn("%s: %s is no time: taken as missing",
		    ms_quotef(t->path), MS_SHATAG_TS);
	} else if (n > 0) {
		v->ts = ms_shatag_ts_same(ts, mtime) ? MS_SHATAG_SAME :
		    MS_SHATAG_DIFF;
	}
	for (size_t i = 0; i < sel->cnt; i++) {
		size_t len = ms_spec_len(&sel->spec[i]);
		unsigned char d[MS_DIGEST_MAX];

		ms_shatag_name(&sel->spec[i], name, sizeof(name));
		n = stored(r, fd, t->path, name, buf, sizeof(buf));
		if (n == -1)
			return -1;
		v->digest[i] = MS_SHATAG_MISS;
		if (n > 0 && !ms_shatag_digest_parse(buf, (size_t)n, d, len)) {
			fflush(stdout);
			ms_warn("%s: %s is no %s digest: taken as missing",
			    ms_quotef(t->path), name, name + strlen(MS_SHATAG_PREFIX));
		} else if (n > 0 && memcmp(d, t->digest + sel->offset[i], len) == 0) {
			v->digest[i] = MS_SHATAG_SAME;
			same = true;
		} else if (n > 0) {
			v->digest[i] = MS_SHATAG_DIFF;
			if (!diff)
				memcpy(v->stored, d, len);
			if (!diff)
				v->first_diff = i;
			diff = true;
		}
	}
	v->all = diff ? MS_SHATAG_DIFF : same ? MS_SHATAG_SAME : MS_SHATAG_MISS;
	return 0;
}

/*
 * Was the file modified within MS_LEDGER_RACY_NS of being read (or at a
 * time cshatag cannot write)?  Then it gets no time: a write in the
 * same tick could pass for corruption later.  ts: the time to store.
 */
static bool
racy(const struct rec *rec, char ts[MS_SHATAG_TS_MAX])
{
	int64_t mtime = ts_ns(&MS_ST_MTIM(&rec->st));

	return mtime >= rec->stamp - MS_LEDGER_RACY_NS ||
	    !ms_shatag_ts_format(mtime, ts);
}

/*
 * Write what the tag lacks: the time removed first, the digests that
 * differ or are missing, then the time, unless the file is racy.  A
 * refusal at any step leaves no time vouching for digests only partly
 * written.
 */
static void
store(struct tagrun *r, int fd, const struct ms_task *t, const struct rec *rec,
    enum ms_shatag_class c, const struct verdict *v)
{
	const struct ms_selection *sel = t->sel;
	char name[64], hex[2 * MS_DIGEST_MAX + 1], ts[MS_SHATAG_TS_MAX];
	bool retime = c != MS_SHATAG_OK || v->untimed;
	bool is_racy = racy(rec, ts);
	const char *what = MS_SHATAG_TS;

	if (retime && ms_xattr_remove(fd, MS_SHATAG_TS) == -1)
		goto refused;
	for (size_t i = 0; i < sel->cnt; i++) {
		if (v->digest[i] == MS_SHATAG_SAME)
			continue;
		ms_shatag_name(&sel->spec[i], name, sizeof(name));
		ms_hex(hex, t->digest + sel->offset[i], ms_spec_len(&sel->spec[i]));
		what = name;
		if (ms_xattr_set(fd, name, hex, strlen(hex)) == -1)
			goto refused;
	}
	what = MS_SHATAG_TS;
	if (retime && !is_racy && ms_xattr_set(fd, MS_SHATAG_TS, ts, strlen(ts)) == -1)
		goto refused;
	r->tagged++;
	if (retime && is_racy)
		r->racy++;
	return;
refused:
	{
		int err = errno;
		char *why = ms_xasprintf("not tagged: cannot store %s: %s",
		    what, ms_xattr_cause(err));

		failed(r, t->path, "%s", why);
		free(why);
	}
}

static void
report(struct tagrun *r, const char *path, enum ms_shatag_class c)
{
	r->cnt[c]++;
	if (c == MS_SHATAG_OK)
		return;
	ms_before_terminal_output();
	if (r->ndjson) {
		fputs("{\"path\":", stdout);
		ms_json_string(stdout, path);
		printf(",\"class\":\"%s\"}\n", ms_shatag_class_name[c]);
	} else {
		printf("%s %s\n", ms_shatag_class_name[c], ms_quotef(path));
	}
}

/* A corrupt file, on standard error: what was stored, what is read. */
static void
say_corrupt(const struct ms_task *t, const struct verdict *v)
{
	const struct ms_digest_spec *s = &t->sel->spec[v->first_diff];
	char was[2 * MS_DIGEST_MAX + 1], now[2 * MS_DIGEST_MAX + 1], name[32];

	ms_hex(was, v->stored, ms_spec_len(s));
	ms_hex(now, t->digest + t->sel->offset[v->first_diff], ms_spec_len(s));
	fflush(stdout);
	ms_warn("%s: corrupt: other content, same modification time; %s "
	    "stored %s, read %s; its tag is kept", ms_quotef(t->path),
	    ms_spec_name(s, name, sizeof(name)), was, now);
}

static void
emit(void *arg, struct ms_task *t)
{
	struct tagrun *r = arg;
	struct rec *rec = t->user;
	struct verdict v;
	struct stat after;
	enum ms_shatag_class c;
	int fd = -1;
	bool missing = false, untimed_now = false;

	if (t->err != 0) {
		failed(r, t->path, "%s", strerror(t->err));
		goto done;
	}
	if (rec->list_err != 0) {
		failed(r, t->path, "cannot read its tag: %s",
		    ms_xattr_cause(rec->list_err));
		goto done;
	}
	fd = open(t->path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd == -1 || fstat(fd, &after) == -1) {
		failed(r, t->path, "%s", strerror(errno));
		goto done;
	}
	if (changed(&rec->st, &after)) {
		failed(r, t->path, "%s", "changed while it was read: not judged, "
		    "not tagged");
		goto done;
	}
	if (judge(r, fd, t, ts_ns(&MS_ST_MTIM(&after)), &v) == -1)
		goto done;
	c = ms_shatag_classify(v.ts, v.all);
	/*
	 * No time stored and every digest the same: a file tagged within a
	 * tick of its write (store() left the time out), or one whose time
	 * an interrupted update removed.  Its content is as stored: ok, not
	 * "timechange" (no time moved); an update times it once it is no
	 * longer racy.
	 */
	if (c == MS_SHATAG_TIMECHANGE && v.untimed) {
		char ts[MS_SHATAG_TS_MAX];

		c = MS_SHATAG_OK;
		if (!r->update || racy(rec, ts))
			r->untimed++;
		else
			untimed_now = true;
	}
	report(r, t->path, c);
	if (c == MS_SHATAG_CORRUPT) {
		say_corrupt(t, &v);
		goto done;
	}
	for (size_t i = 0; i < t->sel->cnt; i++)
		missing |= v.digest[i] == MS_SHATAG_MISS;
	if (r->update && (c != MS_SHATAG_OK || missing || untimed_now))
		store(r, fd, t, rec, c, &v);
done:
	if (fd != -1)
		close(fd);
	free(rec);
	ms_task_free(t);
}

static void
list_operand(void *arg, const char *path, const struct ms_walked *found)
{
	struct tagrun *r = arg;

	(void)found;
	r->failed += ms_walk(&r->o->walk, path, submit, r);
}

int
ms_xattr_main(const struct ms_options *o)
{
	struct tagrun r = { .o = o, .update = o->xattr == MS_XATTR_UPDATE,
	    .cfg = o->engine };
	struct ms_digest_spec def;
	const char *why;
	int status = MS_EXIT_OK;

	r.ndjson = o->format_name != NULL;	/* main let only ndjson by */
	if (ms_algo_resolve("sha256", 0, &def, &why) == -1)
		ms_bug("no sha256");
	ms_selection_add(&r.fallback, &def);
	if ((o->sel_given ? ms_selection_load(&o->sel) :
	    ms_selection_load(&r.fallback)) == -1)
		return MS_EXIT_USAGE;
	ms_output_stdio_lines();
	r.cfg.progress = ms_progress_start(o->progress);
	r.engine = ms_engine_start(&r.cfg, emit, &r);
	if (o->files_from != NULL &&
	    ms_walk_list(o->files_from, o->files_from_nul, list_operand, &r) == -1)
		r.failed++;
	for (size_t i = 0; i < o->nfiles; i++)
		list_operand(&r, o->files[i], false);
	if (o->nfiles == 0 && o->files_from == NULL)
		list_operand(&r, ".", false);
	ms_engine_finish(r.engine);
	ms_progress_stop(r.cfg.progress);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		ms_write_error();
		status = MS_EXIT_FAIL;
	}
	if (!o->quiet) {
		fprintf(stderr, "%zu ok, %zu timechange, %zu outdated, %zu corrupt, "
		    "%zu new", r.cnt[MS_SHATAG_OK], r.cnt[MS_SHATAG_TIMECHANGE],
		    r.cnt[MS_SHATAG_OUTDATED], r.cnt[MS_SHATAG_CORRUPT],
		    r.cnt[MS_SHATAG_NEW]);
		if (r.update)
			fprintf(stderr, "; %zu tagged", r.tagged);
		if (r.racy > 0)
			fprintf(stderr, " (%zu without a time: modified within "
			    "2 s of being read, timed by the next update)", r.racy);
		if (r.untimed > 0)
			fprintf(stderr, " (%zu ok without a stored time: tagged "
			    "within 2 s of a write, timed by the next update)",
			    r.untimed);
		fputc('\n', stderr);
	}
	for (size_t i = 0; i < r.nsels; i++)
		free(r.sels[i]);
	free(r.sels);
	if (r.cnt[MS_SHATAG_CORRUPT] > 0)
		ms_outcome_note(MS_OUTCOME_FAIL);
	if (r.failed > 0 || r.cnt[MS_SHATAG_CORRUPT] > 0)
		status = MS_EXIT_FAIL;
	return status;
}
