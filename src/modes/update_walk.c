/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * update_walk.c - walk a tree against a ledger, for --update and --audit.
 *
 * Owns the order of results (walk order, whatever the engine's jobs
 * count, carried-over entries interleaved with hashed files and misses),
 * the stat taken before a file is read (so that a write during the read
 * leaves times newer than those recorded; from the file's directory,
 * kept open, as find does), the --shard filter on walked paths, and
 * what a path that could not be handed over was: gone (a live tree), or
 * failed, with the entries below a failed directory.  What a file's
 * fate is, and what is written, is the modes'.
 */
#include "modes/update_walk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/exit_status.h"
#include "io/source.h"
#include "base/quote.h"
#include "base/util.h"

/* Records waiting behind a file being hashed, at most. */
#define MAX_QUEUED	4096

/* One file (or miss) waiting for the paths before it to be handed on. */
struct rec {
	struct rec	*next;
	struct ms_ledger_entry *e;
	struct ms_file_stat fs;
	struct ms_task	*task;		/* NULL: carried over, or a miss */
	bool		 done;
	bool		 walked;	/* found by the walk */
	bool		 miss;		/* how, err: ops->missed */
	enum ms_update_walk_miss how;
	int		 err;
	char		 path[];
};

struct survey {
	const struct ms_options *o;
	struct ms_engine_config cfg;	/* o->engine, with the progress line */
	struct ms_walk_opts walk;	/* o->walk, with our event hook */
	struct ms_ledger *l;
	const struct ms_update_walk_ops *ops;
	void		*arg;
	const char	*operand;
	struct ms_engine *engine;
	struct rec	*head, **tail;
	size_t		 queued;	/* records between head and tail */
	/* The directory of the last file stat'ed, open: files are looked
	 * up from it, as find does, not from the root each time. */
	char		*dir;
	size_t		 dirlen, dircap;
	int		 dirfd;		/* -1: none */
};

/*
 * stat(path), from the open directory of the path before it when it is
 * the same: the walk hands over a directory's files one after another.
 */
static int
stat_path(struct survey *s, const char *path, struct stat *st)
{
	const char *slash = strrchr(path, '/');
	size_t dl;

	if (slash == NULL || slash[1] == '\0')
		return stat(path, st);
	dl = (size_t)(slash - path);
	if (s->dirfd == -1 || dl != s->dirlen || memcmp(s->dir, path, dl) != 0) {
		if (s->dirfd != -1)
			close(s->dirfd);
		if (dl + 2 > s->dircap) {
			s->dircap = 2 * (dl + 2);
			s->dir = ms_xrealloc(s->dir, s->dircap);
		}
		memcpy(s->dir, path, dl);
		s->dir[dl] = '\0';
		s->dirlen = dl;
		/* a folder deeper than PATH_MAX too, as -r's walk */
		s->dirfd = ms_source_open_deep(dl > 0 ? s->dir : "/",
		    O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
	}
	if (s->dirfd == -1)
		return stat(path, st);
	return fstatat(s->dirfd, slash + 1, st, 0);
}

static void
hand_over(struct survey *s, struct rec *r)
{
	const struct ms_update_walk_ops *ops = s->ops;
	struct ms_task *t = r->task;

	if (r->miss) {
		if (r->how == MS_MISS_FAILED)
			ms_outcome_note(MS_OUTCOME_RETRY);
		if (r->how == MS_MISS_GONE && r->e != NULL)
			r->e->flags &= ~(uint32_t)MS_LEDGER_SEEN;
		ops->missed(s->arg, r->path, r->e, r->how, r->err, !r->walked);
	} else if (t != NULL && t->err == ENOENT && (r->walked || r->e != NULL)) {
		/* found, gone when it was opened: the tree changed */
		if (r->e != NULL)
			r->e->flags &= ~(uint32_t)MS_LEDGER_SEEN;
		ops->missed(s->arg, r->path, r->e, MS_MISS_GONE, t->err, !r->walked);
	} else if (t != NULL && t->err != 0) {
		ms_outcome_note(MS_OUTCOME_RETRY);
		ops->missed(s->arg, r->path, r->e, MS_MISS_FAILED, t->err,
		    !r->walked);
	} else {
		ops->result(s->arg, r->path, r->e, &r->fs, t);
	}
}

/* Hand over every finished record at the head of the queue. */
static void
drain(struct survey *s)
{
	while (s->head != NULL && s->head->done) {
		struct rec *r = s->head;

		s->head = r->next;
		s->queued--;
		if (s->head == NULL)
			s->tail = &s->head;
		hand_over(s, r);
		if (r->task != NULL)
			ms_task_free(r->task);
		free(r);
	}
}

static void
emit(void *arg, struct ms_task *t)
{
	struct rec *r = t->user;

	r->task = t;
	r->done = true;
	drain(arg);
}

static struct rec *
queue(struct survey *s, const char *path, struct ms_ledger_entry *e,
    bool walked)
{
	struct rec *r = ms_xmalloc(sizeof(*r) + strlen(path) + 1);

	memset(r, 0, sizeof(*r));
	r->e = e;
	r->walked = walked;
	strcpy(r->path, path);
	*s->tail = r;
	s->tail = &r->next;
	s->queued++;
	return r;
}

static void
queue_miss(struct survey *s, const char *path, struct ms_ledger_entry *e,
    enum ms_update_walk_miss how, int err, bool walked)
{
	struct rec *r = queue(s, path, e, walked);

	r->miss = true;
	r->how = how;
	r->err = err;
	r->done = true;
	drain(s);
}

/* Does the entry's name lie below the directory path? */
static bool
below(const char *name, const char *path, size_t pl)
{
	return strncmp(name, path, pl) == 0 &&
	    (name[pl] == '/' || (pl > 0 && path[pl - 1] == '/' && name[pl]));
}

/*
 * path could not be looked at: a miss, then (a directory's) every entry
 * below it, which nothing can be known of.  Any?
 */
static bool
failed(struct survey *s, const char *path, int err, bool walked)
{
	size_t pl = strlen(path);
	bool any = false;

	queue_miss(s, path, NULL, MS_MISS_FAILED, err, walked);
	for (size_t i = 0; i < s->l->cnt; i++) {
		struct ms_ledger_entry *e = &s->l->e[i];

		if ((e->flags & (MS_LEDGER_SEEN | MS_LEDGER_DUP)) ||
		    !below(e->name, path, pl))
			continue;
		e->flags |= MS_LEDGER_SEEN;
		queue_miss(s, e->name, e, MS_MISS_BELOW, err, true);
		any = true;
	}
	return any;
}

/* Is a path below the operand the operand itself? */
static bool
is_operand(const struct survey *s, const char *path)
{
	return s->operand != NULL && strcmp(path, s->operand) == 0;
}

static void
walk_event(void *arg, const char *path, enum ms_walk_event ev, int err)
{
	struct survey *s = arg;

	switch (ev) {
	case MS_WALK_VANISHED:
		queue_miss(s, path, ms_ledger_find(s->l, path), MS_MISS_GONE,
		    err, true);
		break;
	case MS_WALK_LOOP:
		ms_warn("%s: symbolic link loop, not followed", ms_quotef(path));
		break;
	case MS_WALK_FAILED:
		failed(s, path, err, !is_operand(s, path));
		break;
	}
}

/* A path that could not be stat'ed. */
static void
not_found(struct survey *s, const char *path, int err, bool walked)
{
	struct ms_ledger_entry *e;

	if (err != ENOENT) {
		e = ms_ledger_find(s->l, path);
		if (e != NULL)
			e->flags |= MS_LEDGER_SEEN;
		queue_miss(s, path, e, MS_MISS_FAILED, err, walked);
		return;
	}
	/* Gone: a file the walk found, or a listed one the ledger has.  A
	 * listed directory is never taken for gone (an unmounted tree). */
	e = ms_ledger_find(s->l, path);
	if (walked || e != NULL)
		queue_miss(s, path, e, MS_MISS_GONE, err, walked);
	else
		failed(s, path, err, walked);
}

static void
visit(void *arg, const char *path, const struct ms_walked *found)
{
	struct survey *s = arg;
	const struct ms_options *o = s->o;
	struct ms_ledger_entry *e;
	struct ms_file_stat fs;
	struct stat st;
	struct rec *r;
	bool hash, walked = found != NULL;

	if (!ms_shard_keeps_path(&o->shard, s->operand, path)) {
		int err = walked ? 0 : ms_walk_probe(path);

		/* another shard's operand: missing or unreadable fails here too */
		if (err != 0)
			queue_miss(s, path, NULL, MS_MISS_FAILED, err, false);
		return;
	}
	if (stat_path(s, path, &st) == -1) {
		not_found(s, path, errno, walked);
		return;
	}
	if (s->ops->is_self(s->arg, &st))
		return;
	if (S_ISDIR(st.st_mode)) {
		queue_miss(s, path, NULL, MS_MISS_FAILED, EISDIR, walked);
		return;
	}
	ms_file_stat_from(&fs, &st);
	e = ms_ledger_find(s->l, path);
	if (e != NULL)
		e->flags |= MS_LEDGER_SEEN;
	hash = s->ops->need_hash(s->arg, e, &fs);
	if (!hash && s->head == NULL) {
		/* Nothing is pending: no need to queue. */
		s->ops->result(s->arg, path, e, &fs, NULL);
		return;
	}
	r = queue(s, path, e, walked);
	r->fs = fs;
	r->done = !hash;
	if (hash) {
		if (s->cfg.progress != NULL && S_ISREG(st.st_mode))
			ms_progress_expect(s->cfg.progress, fs.size);
		struct ms_task *t = ms_task_new(path, &o->sel, r);

		t->walked = walked;	/* no FIFO swapped in blocks the run */
		t->dev = st.st_dev;	/* placed with no stat of the engine's */
		t->ino = st.st_ino;
		ms_engine_submit(s->engine, t);
	} else {
		drain(s);
	}
	/*
	 * The engine hands a task back only when it is given another or
	 * finishes: after one changed file among a million unchanged ones,
	 * all of those would wait in memory.  Past a bound, finish the
	 * engine (emitting everything) and start afresh.
	 */
	if (s->queued > MAX_QUEUED) {
		ms_engine_finish(s->engine);
		drain(s);
		s->engine = ms_engine_start(&s->cfg, emit, s);
	}
}

static void
list_operand(void *arg, const char *path, const struct ms_walked *found)
{
	struct survey *s = arg;

	(void)found;
	s->operand = path;
	ms_walk(&s->walk, path, visit, s);
	s->operand = NULL;
}

int
ms_update_walk_run(const struct ms_options *o, struct ms_ledger *l,
    const struct ms_update_walk_ops *ops, void *arg)
{
	struct survey s = { .o = o, .cfg = o->engine, .walk = o->walk, .l = l,
	    .ops = ops, .arg = arg, .dirfd = -1 };
	int rc = 0;

	s.walk.event = walk_event;
	s.tail = &s.head;
	s.cfg.progress = ms_progress_start(o->progress);
	s.engine = ms_engine_start(&s.cfg, emit, &s);
	if (o->files_from != NULL &&
	    ms_walk_list(o->files_from, o->files_from_nul, list_operand, &s) == -1)
		rc = -1;
	for (size_t i = 0; i < o->nfiles; i++)
		list_operand(&s, o->files[i], false);
	if (o->nfiles == 0 && o->files_from == NULL)
		list_operand(&s, ".", false);
	ms_engine_finish(s.engine);
	drain(&s);
	if (s.dirfd != -1)
		close(s.dirfd);
	free(s.dir);
	ms_progress_stop(s.cfg.progress);
	return rc;
}

size_t
ms_update_walk_probe(const struct ms_options *o)
{
	size_t bad = 0;

	for (size_t i = 0; i < o->nfiles; i++) {
		int err = ms_walk_probe(o->files[i]);

		if (err != 0) {
			ms_warn("%s: %s", ms_quotef(o->files[i]), strerror(err));
			ms_outcome_note(MS_OUTCOME_RETRY);	/* unmounted? */
			bad++;
		}
	}
	return bad;
}

bool
ms_update_walk_in_shard(const struct ms_options *o, const char *name)
{
	if (o->shard.n == 0)
		return true;
	for (size_t i = 0; i < o->nfiles; i++) {
		const char *key = ms_shard_key(o->files[i], name);

		if (key != name || strcmp(name, o->files[i]) == 0)
			return ms_shard_keeps(&o->shard, key);
	}
	return ms_shard_keeps(&o->shard, name);
}

int
ms_update_walk_flush(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		ms_warn("write error: %s", strerror(errno ? errno : EIO));
		ms_outcome_note(MS_OUTCOME_RETRY);
		return -1;
	}
	return 0;
}
