/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * update_walk.c - walk a tree against a ledger, for --update and --audit.
 *
 * Owns the order of results (walk order, whatever the engine's jobs
 * count, carried-over entries interleaved with hashed files), the stat
 * taken before a file is read (so that a write during the read leaves
 * times newer than those recorded; from the file's directory, kept
 * open, as find does) and the --shard filter on walked paths.  What a
 * file's fate is, and what is written, is the modes'.
 */
#include "modes/update_walk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

/* Records waiting behind a file being hashed, at most. */
#define MAX_QUEUED	4096

/* One file waiting for the files before it to be hashed. */
struct rec {
	struct rec	*next;
	struct ms_ledger_entry *e;
	struct ms_file_stat fs;
	struct ms_task	*task;		/* NULL: carried over */
	bool		 done;
	char		 path[];
};

struct survey {
	const struct ms_options *o;
	struct ms_engine_config cfg;	/* o->engine, with the progress line */
	struct ms_ledger *l;
	const struct ms_survey_ops *ops;
	void		*arg;
	const char	*operand;
	struct ms_engine *engine;
	struct rec	*head, **tail;
	size_t		 queued;	/* records between head and tail */
	size_t		 errors;
	struct stat	 self[2];	/* the manifest and its replacement */
	size_t		 nself;
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
		s->dirfd = open(dl > 0 ? s->dir : "/",
		    O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
	}
	if (s->dirfd == -1)
		return stat(path, st);
	return fstatat(s->dirfd, slash + 1, st, 0);
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
		s->ops->result(s->arg, r->path, r->e, &r->fs, r->task);
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

static void
visit(void *arg, const char *path, bool walked)
{
	struct survey *s = arg;
	const struct ms_options *o = s->o;
	struct ms_ledger_entry *e;
	struct ms_file_stat fs;
	struct stat st;
	struct rec *r;
	bool hash;

	if (!ms_shard_keeps(&o->shard, ms_shard_key(s->operand, path)))
		return;
	if (stat_path(s, path, &st) == -1) {
		ms_warn("%s: %s", path, strerror(errno));
		s->errors++;
		return;
	}
	for (size_t i = 0; i < s->nself; i++)
		if (st.st_dev == s->self[i].st_dev && st.st_ino == s->self[i].st_ino)
			return;
	if (S_ISDIR(st.st_mode)) {
		ms_warn("%s: Is a directory", path);
		s->errors++;
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
	r = ms_xmalloc(sizeof(*r) + strlen(path) + 1);
	r->next = NULL;
	r->e = e;
	r->fs = fs;
	r->task = NULL;
	r->done = !hash;
	strcpy(r->path, path);
	*s->tail = r;
	s->tail = &r->next;
	s->queued++;
	if (hash) {
		if (s->cfg.progress != NULL && S_ISREG(st.st_mode))
			ms_progress_expect(s->cfg.progress, fs.size);
		struct ms_task *t = ms_task_new(path, &o->sel, r);

		t->walked = walked;	/* no FIFO swapped in blocks the run */
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
list_operand(void *arg, const char *path, bool walked)
{
	struct survey *s = arg;

	(void)walked;
	s->operand = path;
	s->errors += ms_walk(&s->o->walk, path, visit, s);
}

size_t
ms_survey_run(const struct ms_options *o, struct ms_ledger *l,
    const char *manifest, int out_fd, const struct ms_survey_ops *ops, void *arg)
{
	struct survey s = { .o = o, .cfg = o->engine, .l = l, .ops = ops,
	    .arg = arg, .dirfd = -1 };

	s.tail = &s.head;
	if (stat(manifest, &s.self[s.nself]) == 0)
		s.nself++;
	if (out_fd != -1 && fstat(out_fd, &s.self[s.nself]) == 0)
		s.nself++;
	s.cfg.progress = ms_progress_start(o->progress);
	s.engine = ms_engine_start(&s.cfg, emit, &s);
	if (o->files_from != NULL &&
	    ms_walk_list(o->files_from, o->files_from_nul, list_operand, &s) == -1)
		s.errors++;
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
	return s.errors;
}

bool
ms_survey_in_shard(const struct ms_options *o, const char *name)
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
ms_survey_flush(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		ms_warn("write error: %s", strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}
