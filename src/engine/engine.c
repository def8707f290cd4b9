/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * engine.c - the scheduler: the worker threads (the only others are
 * progress.c's ticker and whatever a backend library starts), the queue
 * of tasks, the task step, and the ordered emit.  Files are hashed in
 * parallel; archive members, read in order on the caller's thread, join
 * the same ordered emit.  One large file's digests run in parallel over
 * a ring of shared read-only chunks: that machinery is engine_big.c,
 * which this file calls and which never calls back (engine_impl.h is
 * what the two share).
 *
 * Workers run "steps" picked under one mutex:
 *   task  open a queued file and read its first buffer.  A file that ends
 *         within it is hashed there and then (the small-file path: one
 *         read into the worker's reused buffer, reused digest states).  A
 *         longer one has that buffer hashed too; it is then promoted to a
 *         "big" file if it is large enough and its digests slow enough to
 *         gain (ms_big_candidate, ms_big_gains) and there is room, else
 *         hashed to its end by this worker.
 *   read, lane, part  the steps of a big file: engine_big.c.
 * Results go back to the submitting thread in submission order.  The
 * engine never prints: the caller's emit does.  Its steps are picked,
 * run and applied here; a big file's are delegated to engine_big.c.
 */
#include "engine/engine_impl.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

struct ms_task *
ms_task_new(const char *path, const struct ms_selection *sel, void *user)
{
	size_t plen = strlen(path) + 1;
	struct ms_task *t = ms_xcalloc(1, sizeof(*t) + sel->out_len + plen);

	/* One allocation: the digests, then a copy of the path. */
	t->path = memcpy((char *)t->digest + sel->out_len, path, plen);
	t->sel = sel;
	t->user = user;
	return t;
}

void
ms_task_free(struct ms_task *t)
{
	free(t);
}

static struct ms_digest_set *
worker_set(struct worker *w, const struct ms_selection *sel)
{
	struct cached_set *cs;

	for (cs = w->sets; cs != NULL; cs = cs->next)
		if (cs->set.sel == sel)
			return &cs->set;
	cs = ms_xcalloc(1, sizeof(*cs));
	ms_digest_set_create(&cs->set, sel);
	cs->next = w->sets;
	w->sets = cs;
	return &cs->set;
}

static void start_workers(struct ms_engine *e);

/*
 * --io=auto reads (see source.c), except for a selection of tree digests
 * only (-a blake3, the CRCs): those are cheap enough per byte that the
 * read copy is a fifth of the work (most of it for a CRC), and a mapped
 * file hands its windows to the part steps without it (1 GiB cached,
 * CPU seconds, -j1: 0.40 read, 0.36 mapped; default jobs: 0.21 vs 0.18
 * wall; -a crc32c, default jobs: 0.17 read, 0.083 mapped and split).
 */
static enum ms_io
task_io(const struct ms_engine *e, const struct ms_task *t)
{
	if (e->cfg.io != MS_IO_AUTO)
		return e->cfg.io;
	for (size_t i = 0; i < t->sel->cnt; i++)
		if (t->sel->spec[i].algo->tree == NULL)
			return MS_IO_AUTO;
	return t->sel->cnt > 0 ? MS_IO_MMAP : MS_IO_AUTO;
}

/*
 * The task step, without the lock: hash a whole small file, or hash the
 * first chunk of a large one and promote it.  Returns true if the task
 * is finished (hashed or failed), false if it went on as a big file.
 */
static bool
run_task(struct ms_engine *e, struct worker *w, struct ms_task *t)
{
	struct ms_source src;
	struct ms_digest_set *set;
	struct ms_chunk c;
	size_t cap = e->cfg.buffer_size;
	uint64_t t0;
	size_t window;
	int r;

	/* A buffer that could not be had before may be had now; if not,
	 * this file fails (ENOMEM), and the next one tries again. */
	if (w->buf == NULL)
		w->buf = ms_try_aligned(4096, cap);
	if (ms_source_open_as(&src, t->path, task_io(e, t), t->walked) == -1) {
		t->err = errno;
		return true;
	}
	window = ms_memory_window(e, &src);
	if (t->part != NULL &&
	    ms_source_range(&src, t->part->off, t->part->len) == -1)
		r = -1;
	else
		r = ms_source_next(&src, &c, w->buf, cap);
	if (r == -1) {
		t->err = ms_source_error(&src, errno);
		ms_source_close(&src);
		ms_memory_window_done(e, window);
		return true;
	}
	set = worker_set(w, t->sel);
	ms_digest_set_init(set);
	if (t->part != NULL)
		ms_digest_set_begin(set, t->part->off);
	else if (r == 1 && !src.eof && e->nworkers > 1 &&
	    ms_big_candidate(&src, t->sel, cap)) {
		uint64_t t_hash;
		int fed;

		t0 = ms_now_ns();
		fed = ms_chunk_feed(&c, ms_update_set, set);
		t->err = fed == -1 ? errno : 0;
		t_hash = ms_now_ns() - t0;
		ms_progress_add(e->cfg.progress, c.len);
		ms_chunk_release(&c);
		r = fed == -1 ? -1 : 1;
		if (r == 1 && ms_big_gains(t->sel, t_hash, c.len)) {
			bool promoted;

			start_workers(e);
			pthread_mutex_lock(&e->lock);
			/* a big file's ring has windows of its own */
			ms_memory_give(e, window);
			promoted = ms_big_promote(e, t, &src, set);
			if (!promoted)
				ms_memory_take(e, window);
			pthread_mutex_unlock(&e->lock);
			if (promoted)
				return false;
		}
		if (r == 1 && (r = ms_source_next(&src, &c, w->buf, cap)) == -1)
			t->err = errno;
	}
	if (r == 1 && (r = ms_hash_rest(&src, set, &c, w->buf, cap,
	    e->cfg.progress)) == -1)
		t->err = errno;
	if (r != -1 && t->part != NULL)
		ms_digest_set_save(set, t->part->saved);
	else if (r != -1)
		ms_digest_set_final(set, t->digest);
	else
		t->err = ms_source_error(&src, t->err);
	t->size = (uint64_t)src.pos;
	ms_source_close(&src);
	ms_memory_window_done(e, window);
	return true;
}

/*
 * Under the lock: the most useful step for this worker, if any; prev is
 * the step it ran last.  A big file's steps come first (ms_big_pick says
 * which), then the next queued task.
 */
static bool
pick(struct ms_engine *e, struct step *st, const struct step *prev)
{
	if (ms_big_pick(e, st, prev))
		return true;
	if (e->q_head != NULL) {
		st->kind = STEP_TASK;
		st->task = e->q_head;
		e->q_head = st->task->next;
		if (e->q_head == NULL)
			e->q_tail = NULL;
		return true;
	}
	return false;
}

/* Without the lock: do the step.  Returns -1 with errno on failure. */
static int
run_step(struct ms_engine *e, struct worker *w, struct step *st)
{
	if (st->kind == STEP_TASK)
		return run_task(e, w, st->task) ? 1 : 0;
	return ms_big_run(e, st);
}

/* Under the lock: record what the step did and wake whoever can go on. */
static void
apply_step(struct ms_engine *e, struct step *st, int rc, int err)
{
	if (st->kind != STEP_TASK)
		ms_big_apply(e, st, rc, err);
	else if (rc == 1)
		ms_engine_complete(e, st->task);
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct ms_engine *e = w->e;
	struct step st;

	struct step prev = { .kind = STEP_NONE };

	pthread_mutex_lock(&e->lock);
	for (;;) {
		int rc, err;

		memset(&st, 0, sizeof(st));
		if (prev.nspent > 0) {		/* munmap, not under the lock */
			pthread_mutex_unlock(&e->lock);
			ms_big_drop(&prev);
			pthread_mutex_lock(&e->lock);
		}
		if (!pick(e, &st, &prev)) {
			if (e->closing && e->q_head == NULL && e->active == NULL)
				break;
			e->idle++;
			pthread_cond_wait(&e->work_cv, &e->lock);
			e->idle--;
			continue;
		}
		pthread_mutex_unlock(&e->lock);
		rc = run_step(e, w, &st);
		err = errno;
		pthread_mutex_lock(&e->lock);
		apply_step(e, &st, rc, err);
		prev = st;
	}
	pthread_mutex_unlock(&e->lock);
	return NULL;
}

static void
worker_init(struct worker *w, struct ms_engine *e)
{
	w->e = e;
	/* Without it, this worker's tasks fail (ENOMEM), not the run. */
	w->buf = ms_try_aligned(4096, e->cfg.buffer_size);
	w->sets = NULL;
}

static void
worker_free(struct worker *w)
{
	while (w->sets != NULL) {
		struct cached_set *cs = w->sets;
		w->sets = cs->next;
		ms_digest_set_destroy(&cs->set);
		free(cs);
	}
	free(w->buf);
}

/*
 * Create the worker threads, once.  They are started on demand: a run
 * that hashes one small file never pays for threads.
 */
static void
start_workers(struct ms_engine *e)
{
	unsigned have = 0;

	if (e->started)
		return;
	e->started = true;
	e->workers = ms_xcalloc(e->nworkers, sizeof(*e->workers));
	/*
	 * A worker whose buffer cannot be allocated (a ulimit below the
	 * bound) is not started, before any thread reads nworkers: a worker
	 * without one would fail each file it takes, and take them fast.
	 * If none has one, one is started all the same: its files fail
	 * (ENOMEM), each trying again.
	 */
	for (unsigned i = 0; i < e->nworkers; i++) {
		worker_init(&e->workers[have], e);
		if (e->workers[have].buf != NULL)
			have++;
	}
	if (have == 0)
		have = 1;
	for (unsigned i = have; i < e->nworkers; i++)
		worker_free(&e->workers[i]);
	e->nworkers = have;
	for (unsigned i = 0; i < e->nworkers; i++) {
		int rc;

		rc = pthread_create(&e->workers[i].tid, NULL, worker_main,
		    &e->workers[i]);
		e->workers[i].running = rc == 0;
		/* Fewer threads do the same steps; none can do nothing. */
		if (rc != 0 && i == 0)
			ms_die("cannot start a thread: %s", strerror(rc));
	}
}

struct ms_engine *
ms_engine_start(const struct ms_engine_config *cfg, ms_emit_fn *emit, void *arg)
{
	struct ms_engine *e = ms_xcalloc(1, sizeof(*e));

	e->cfg = *cfg;
	if (e->cfg.jobs == 0)
		e->cfg.jobs = 1;
	e->emit = emit;
	e->arg = arg;
	e->nworkers = ms_memory_plan(&e->cfg, &e->mem_spare);
	worker_init(&e->self, e);
	if (e->nworkers == 0)
		return e;
	pthread_mutex_init(&e->lock, NULL);
	pthread_cond_init(&e->work_cv, NULL);
	pthread_cond_init(&e->main_cv, NULL);
	return e;
}

/* Emit finished tasks in order; with wait, until fewer than limit remain. */
static void
drain(struct ms_engine *e, size_t limit)
{
	for (;;) {
		struct ms_task *batch = NULL, **tail = &batch;

		pthread_mutex_lock(&e->lock);
		for (;;) {
			while (e->emitted < e->submitted) {
				struct ms_task *t = e->window[e->emitted % WINDOW];
				if (!t->done)
					break;
				e->emitted++;
				t->next = NULL;
				*tail = t;
				tail = &t->next;
			}
			if (batch != NULL || e->submitted - e->emitted <= limit)
				break;
			e->main_waiting = true;
			pthread_cond_wait(&e->main_cv, &e->lock);
			e->main_waiting = false;
		}
		pthread_mutex_unlock(&e->lock);
		if (batch == NULL)
			return;
		while (batch != NULL) {
			struct ms_task *t = batch;
			batch = t->next;
			e->emit(e->arg, t);
		}
	}
}

/* Under the lock: put t at the end of the queue of unstarted tasks. */
static void
enqueue(struct ms_engine *e, struct ms_task *t)
{
	t->next = NULL;
	if (e->q_tail != NULL)
		e->q_tail->next = t;
	else
		e->q_head = t;
	e->q_tail = t;
	if (e->idle > 0)
		pthread_cond_signal(&e->work_cv);
}

void
ms_engine_submit(struct ms_engine *e, struct ms_task *t)
{
	if (e->nworkers == 0) {
		run_task(e, &e->self, t);
		e->emit(e->arg, t);
		return;
	}
	bool stream = !t->walked && ms_source_is_stream(t->path);
	pthread_mutex_lock(&e->lock);
	t->seq = e->submitted++;
	size_t after = stream ? e->stream_end : 0;
	e->stream_end = stream ? t->seq + 1 : e->stream_end;
	t->done = false;
	e->window[t->seq % WINDOW] = t;
	if (!e->started && e->held == NULL) {
		/* Perhaps the only task: wait and see before making threads. */
		e->held = t;
		pthread_mutex_unlock(&e->lock);
		return;
	}
	if (e->held != NULL) {
		enqueue(e, e->held);
		e->held = NULL;
	}
	start_workers(e);	/* they wait for the lock */
	if (e->emitted < after) {	/* one reader per stream, in order */
		pthread_mutex_unlock(&e->lock);
		drain(e, e->submitted - after);
		pthread_mutex_lock(&e->lock);
	}
	enqueue(e, t);
	pthread_mutex_unlock(&e->lock);
	drain(e, WINDOW - 1);
}

void
ms_engine_read_source(struct ms_engine *e, struct ms_task *t,
    struct ms_source *src)
{
	if (e->self.buf == NULL)	/* as in run_task */
		e->self.buf = ms_try_aligned(4096, e->cfg.buffer_size);
	if (ms_hash_source(src, worker_set(&e->self, t->sel), e->self.buf,
	    e->cfg.buffer_size, e->cfg.progress, t->digest, &t->size) == -1)
		t->err = errno;
}

void
ms_engine_submit_done(struct ms_engine *e, struct ms_task *t)
{
	bool released = false;

	if (e->nworkers == 0) {
		e->emit(e->arg, t);
		return;
	}
	pthread_mutex_lock(&e->lock);
	t->seq = e->submitted++;
	e->window[t->seq % WINDOW] = t;
	if (e->held != NULL) {
		/* an earlier path task: the workers take it now */
		enqueue(e, e->held);
		e->held = NULL;
		released = true;
	}
	ms_engine_complete(e, t);
	pthread_mutex_unlock(&e->lock);
	if (released)
		start_workers(e);
	drain(e, WINDOW - 1);
}

bool
ms_engine_wait(struct ms_engine *e)
{
	/* submitted and emitted change on this thread only */
	if (e->nworkers == 0 || e->emitted == e->submitted)
		return false;
	if (e->held != NULL) {
		pthread_mutex_lock(&e->lock);
		enqueue(e, e->held);
		e->held = NULL;
		pthread_mutex_unlock(&e->lock);
		start_workers(e);
	}
	drain(e, e->submitted - e->emitted - 1);
	return true;
}

void
ms_engine_finish(struct ms_engine *e)
{
	if (e->held != NULL) {
		/* A single task: the caller's thread opens it, and starts the
		 * workers only if the file turns out large. */
		struct ms_task *t = e->held;

		e->held = NULL;
		if (run_task(e, &e->self, t)) {
			pthread_mutex_lock(&e->lock);
			ms_engine_complete(e, t);
			pthread_mutex_unlock(&e->lock);
		}
	}
	if (e->nworkers > 0) {
		drain(e, 0);
		pthread_mutex_lock(&e->lock);
		e->closing = true;
		pthread_cond_broadcast(&e->work_cv);
		pthread_mutex_unlock(&e->lock);
		for (unsigned i = 0; e->started && i < e->nworkers; i++) {
			if (e->workers[i].running)
				pthread_join(e->workers[i].tid, NULL);
			worker_free(&e->workers[i]);
		}
		ms_big_free_spares(e);
		free(e->workers);
		pthread_mutex_destroy(&e->lock);
		pthread_cond_destroy(&e->work_cv);
		pthread_cond_destroy(&e->main_cv);
	}
	worker_free(&e->self);
	free(e);
}

void
ms_engine_defaults(struct ms_engine_config *cfg)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	cfg->jobs = cpus > 0 ? (unsigned)(cpus > MS_JOBS_DEFAULT_MAX ?
	    MS_JOBS_DEFAULT_MAX : cpus) : 1;
	cfg->io = MS_IO_AUTO;
	cfg->buffer_size = 256 * 1024;
	cfg->memory = 0;
	cfg->progress = NULL;
}
