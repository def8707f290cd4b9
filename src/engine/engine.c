/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * engine.c - the workers: the worker threads (the only others are
 * progress.c's ticker, output_stdout.c's writer and whatever a backend
 * library starts), the queue of tasks, and the task step.  Files are
 * hashed in parallel.  The caller's side (start, submit, the ordered
 * emit, end; -j 1's batches) is engine_submit.c, which calls this file.
 * One large file's digests run in parallel over a ring of shared
 * read-only chunks: that machinery is engine_big.c, which this file
 * calls and which never calls back (engine_impl.h is what they share).
 *
 * Workers run "steps" picked under one mutex:
 *   task  a batch of queued files (BATCH at most: one lock a batch),
 *         each opened in turn and its first buffer read.  A file that ends
 *         within it is hashed there and then (the small-file path: one
 *         read into the worker's reused buffer, reused digest states).  A
 *         longer one hands the batch's later files back to the queue and
 *         has that buffer hashed too; it is then promoted to a
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
#include "io/source_ahead.h"

struct ms_digest_set *
ms_worker_set(struct worker *w, const struct ms_selection *sel)
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

static void outlasted(struct ms_engine *e, struct step *st, size_t i);

/*
 * The task step, without the lock: hash a whole small file, or hash the
 * first chunk of a large one and promote it.  Returns true if the task
 * is finished (hashed or failed), false if it went on as a big file.
 * st (NULL for the held task of ms_engine_finish) is the batch t is
 * task i of: a file that outlasts its first buffer calls outlasted first.
 */
static bool task_rest(struct ms_engine *e, struct worker *w,
    struct ms_task *t, struct step *st, size_t i, struct ms_source *src,
    size_t window, struct ms_chunk *c, int r);

/*
 * Open t's file; false (t->err set) if it cannot be.  *window is the
 * mapped window it holds from the memory bound (engine_memory.c), for
 * task_done to give back; 0 for a file that is read.
 */
static bool
task_open(struct ms_engine *e, struct ms_task *t, struct ms_source *src,
    size_t *window)
{
	if (ms_source_open_as(src, t->path, task_io(e, t), t->walked) == -1) {
		t->err = errno;
		return false;
	}
	src->nocache = e->cfg.nocache;
	*window = ms_memory_window(e, src);
	return true;
}

/* Close t's file; after a failure (r -1, err its errno), the error to
 * report, MS_ECHANGED for a file that changed while it was read. */
static void
task_done(struct ms_engine *e, struct ms_task *t, struct ms_source *src,
    size_t window, int r, int err)
{
	if (r == -1)
		t->err = ms_source_error(src, err);
	t->size = (uint64_t)src->pos;
	ms_source_close(src);
	ms_memory_window_done(e, window);
}

/*
 * After the first read of a file watched late (source.c) that turned out
 * large enough to map: its window is taken from the memory bound now,
 * and it starts over from its first byte, mapped (or read, without
 * room), as a file watched at its open would have.  r as ms_source_next.
 */
static int
remap(struct ms_engine *e, struct ms_source *src, struct ms_chunk *c,
    unsigned char *buf, size_t *window)
{
	if (ms_source_remap(src) == -1)
		return -1;
	*window = ms_memory_window(e, src);
	return ms_source_next(src, c, buf, e->cfg.buffer_size);
}

bool
ms_engine_run_task(struct ms_engine *e, struct worker *w, struct ms_task *t,
    struct step *st, size_t i)
{
	struct ms_source src;
	struct ms_chunk c;
	size_t window;
	int r;

	/* A buffer that could not be had before may be had now; if not,
	 * this file fails (ENOMEM), and the next one tries again. */
	if (w->buf == NULL)
		w->buf = ms_try_aligned(4096, e->cfg.buffer_size);
	if (!task_open(e, t, &src, &window))
		return true;
	if (t->part != NULL &&
	    ms_source_range(&src, t->part->off, t->part->len) == -1)
		r = -1;
	else
		r = ms_source_next(&src, &c, w->buf, e->cfg.buffer_size);
	if (r == 1 && src.remap)
		r = remap(e, &src, &c, w->buf, &window);
	return task_rest(e, w, t, st, i, &src, window, &c, r);
}

/* The task step after the first read (r, c at the start of w->buf). */
static bool
task_rest(struct ms_engine *e, struct worker *w, struct ms_task *t,
    struct step *st, size_t i, struct ms_source *src, size_t window,
    struct ms_chunk *c, int r)
{
	struct ms_digest_set *set;
	size_t cap = e->cfg.buffer_size;
	uint64_t t0;
	/* --debug: a large file's read-ahead, once a ring may have taken it */
	bool say = e->cfg.debug && r == 1;

	if (r == -1) {
		task_done(e, t, src, window, r, errno);
		return true;
	}
	set = ms_worker_set(w, t->sel);
	ms_digest_set_init(set);
	ms_engine_set_subject(set, src);
	if (r == 1 && !src->eof && st != NULL)
		outlasted(e, st, i);
	if (t->part != NULL)
		ms_digest_set_begin(set, t->part->off);
	else if (r == 1 && !src->eof && e->nworkers > 1 &&
	    ms_big_candidate(src, t->sel, cap)) {
		uint64_t t_hash;
		int fed;

		t0 = ms_now_ns();
		fed = ms_chunk_feed(c, ms_sequential_update_set, set);
		t->err = fed == -1 ? errno : 0;
		t_hash = ms_now_ns() - t0;
		ms_progress_add(e->cfg.progress, c->len);
		ms_chunk_release(c);
		r = fed == -1 ? -1 : 1;
		/* a cold file too: a ring reads it past the page cache */
		if (r == 1 && (ms_big_gains(t->sel, t_hash, c->len) ||
		    (ms_ahead_planned(src) && e->cfg.io != MS_IO_MMAP))) {
			bool promoted;

			ms_engine_start_workers(e);
			pthread_mutex_lock(&e->lock);
			/* a big file's ring has windows of its own */
			ms_memory_give(e, window);
			promoted = ms_big_promote(e, t, src, set);
			if (!promoted)
				ms_memory_take(e, window);
			pthread_mutex_unlock(&e->lock);
			if (say)	/* src: the worker's copy, as decided */
				ms_ahead_say(src);
			say = false;
			if (promoted)
				return false;
		}
		if (r == 1 && (r = ms_source_next(src, c, w->buf, cap)) == -1)
			t->err = errno;
	}
	if (say)
		ms_ahead_say(src);
	if (r == 1 && (r = ms_sequential_hash_rest(src, set, c, w->buf, cap,
	    e->cfg.progress)) == -1)
		t->err = errno;
	if (r != -1 && t->part != NULL)
		ms_digest_set_save(set, t->part->saved);
	else if (r != -1)
		ms_digest_set_final(set, t->digest);
	task_done(e, t, src, window, r, t->err);
	return true;
}

/*
 * Under the lock: the most useful step for this worker, if any; prev is
 * the step it ran last.  A big file's steps come first (ms_big_pick says
 * which), then queued tasks: a batch of up to BATCH, so that a tree of
 * small files costs the lock once per batch rather than once per file
 * (20,000 files of 1 KiB, -j 2, under strace -f: 46,300 futex calls
 * before, 4,400 after), and its small files fill the lanes of a SIMD
 * kernel.  No worker waits on another's batch: a file that turns out
 * long hands the rest back (give_back).  A stream (standard input, a
 * FIFO) goes alone: it may block.  Files of a seeking device (gated,
 * queued in the order they lie there: engine_order.c) have one reader:
 * one worker at a time takes a batch of them, and the next batch waits
 * until it has been read, not hashed.
 */
static bool
pick(struct ms_engine *e, struct step *st, const struct step *prev)
{
	if (ms_big_pick(e, st, prev))
		return true;
	if (e->q_head == NULL || (e->q_head->gated && e->gate_busy))
		return false;
	st->kind = STEP_TASK;
	st->ntasks = 0;
	st->gated = e->q_head->gated;
	e->gate_busy |= st->gated;
	do {
		struct ms_task *t = e->q_head;

		if (st->ntasks > 0 && (t->stream || t->gated != st->gated))
			break;
		st->task[st->ntasks++] = t;
		e->q_head = t->next;
		e->nqueued--;
		if (t->stream)
			break;
	} while (e->q_head != NULL && st->ntasks < BATCH);
	if (e->q_head == NULL)
		e->q_tail = NULL;
	return true;
}

/*
 * -j 1, the batch being run: emit its finished tasks that follow those
 * emitted, up to the first that is not finished.  A line is written as
 * soon as it and every earlier one are ready (DESIGN.md), not once the
 * whole batch is: its file's lines go out while a later file is read.
 */
void
ms_engine_solo_emit(struct ms_engine *e, struct step *st)
{
	while (e->solo_emitted < st->ntasks && st->finished[e->solo_emitted])
		e->emit(e->arg, st->task[e->solo_emitted++]);
}

/*
 * Without the lock: put the tasks of st from index from on back at the
 * head of the queue, in their order, for any worker to take.
 */
static void
give_back(struct ms_engine *e, struct step *st, size_t from)
{
	if (from >= st->ntasks)
		return;
	pthread_mutex_lock(&e->lock);
	for (size_t i = st->ntasks; i-- > from;) {
		struct ms_task *t = st->task[i];

		t->next = e->q_head;
		e->q_head = t;
		if (e->q_tail == NULL)
			e->q_tail = t;
		e->nqueued++;
	}
	if (e->idle > 0)
		pthread_cond_signal(&e->work_cv);
	pthread_mutex_unlock(&e->lock);
	st->ntasks = from;
}

/*
 * Task i of st outlasts its first buffer, and what does not depend on it
 * need not wait for it: with workers, the batch's later tasks go back to
 * the queue for others to take; at -j 1, the tasks before it, all
 * finished by now (small files waiting for lanes are hashed first), are
 * emitted before its long read begins.
 */
static void
outlasted(struct ms_engine *e, struct step *st, size_t i)
{
	if (e->nworkers == 0)
		ms_engine_solo_emit(e, st);
	else
		give_back(e, st, i + 1);
}

/*
 * The small files of a batch, each read whole into its own stretch of the
 * worker's buffer, waiting to be hashed together: ms_digest_set_many
 * gives them to the digests that take many messages at once (the lanes
 * of a SIMD kernel: 16 files of 1 KiB are one AVX-512 pass of BLAKE3, of
 * SHA-256, of MD5), and runs the rest through the worker's states.
 */
struct smalls {
	const struct ms_selection *sel;
	size_t		 n;
	size_t		 used;		/* bytes of the buffer taken */
	const unsigned char *msg[BATCH];
	size_t		 len[BATCH];
	unsigned char	*out[BATCH];
	size_t		 index[BATCH];	/* in the step */
	uint64_t	 since;		/* -j 1: when the first was read */
};

static void
smalls_hash(struct worker *w, struct step *st, struct smalls *sm)
{
	if (sm->n > 0) {
		ms_digest_set_many(ms_worker_set(w, sm->sel), sm->n, sm->msg,
		    sm->len, sm->out);
		for (size_t k = 0; k < sm->n; k++)
			st->finished[sm->index[k]] = true;
	}
	sm->n = 0;
	sm->used = 0;
}

/*
 * Task i of a batch whose digests take many messages: read its first
 * buffer's worth (a share of the worker's buffer, BATCH of them fit) next
 * to the files read before it.  A file that ends there waits for the
 * others; a longer one has them hashed first, then takes the whole buffer
 * and goes on as run_task would (and hands the batch's later files back).
 */
static void
small_task(struct ms_engine *e, struct worker *w, struct step *st, size_t i,
    struct smalls *sm)
{
	struct ms_task *t = st->task[i];
	size_t cap = e->cfg.buffer_size, share = cap / BATCH, window;
	struct ms_source src;
	struct ms_chunk c, more;
	int r;

	if (sm->n > 0 && (sm->sel != t->sel || cap - sm->used < share))
		smalls_hash(w, st, sm);
	if (!task_open(e, t, &src, &window)) {
		st->finished[i] = true;
		return;
	}
	r = ms_source_next(&src, &c, w->buf + sm->used, share);
	if (r == -1) {
		task_done(e, t, &src, window, r, errno);
		st->finished[i] = true;
		return;
	}
	if (r == 0 || (r == 1 && src.eof && c.map == NULL)) {
		size_t len = r == 1 ? c.len : 0;

		sm->sel = t->sel;
		sm->msg[sm->n] = w->buf + sm->used;
		sm->len[sm->n] = len;
		sm->out[sm->n] = t->digest;
		if (sm->n == 0 && e->nworkers == 0)
			sm->since = ms_now_ns();
		sm->index[sm->n++] = i;
		sm->used += (len + 63) / 64 * 64;	/* blocks stay aligned */
		ms_progress_add(e->cfg.progress, len);
		task_done(e, t, &src, window, r, 0);
		return;
	}
	smalls_hash(w, st, sm);	/* only reads the buffer: c is intact */
	if (src.remap)
		r = remap(e, &src, &c, w->buf, &window);
	if (r == 1 && c.map == NULL) {
		memmove(w->buf, c.p, c.len);
		c.p = w->buf;
		/* the rest of a first buffer, as run_task reads it */
		if (!src.eof && (r = ms_source_next(&src, &more, w->buf + c.len,
		    cap - c.len)) == 1)
			c.len += more.len;
		else if (r == 0)
			r = 1;
	}
	st->finished[i] = task_rest(e, w, t, st, i, &src, window, &c, r);
}

/* Without the lock: do the step.  Returns -1 with errno on failure. */
int
ms_engine_run_step(struct ms_engine *e, struct worker *w, struct step *st)
{
	struct smalls sm = { .n = 0 };

	if (st->kind != STEP_TASK)
		return ms_big_run(st);
	/* ntasks shrinks if a long file gives the rest back */
	for (size_t i = 0; i < st->ntasks; i++) {
		struct ms_task *t = st->task[i];

		/* -j 1: small files wait for lanes a millisecond at most */
		if (e->nworkers == 0 && sm.n > 0 &&
		    ms_now_ns() - sm.since >= SOLO_WAIT_NS) {
			smalls_hash(w, st, &sm);
			ms_engine_solo_emit(e, st);
		}
		/* without a buffer (the memory bound), run_task tries again;
		 * a part of a file (--part) is run_task's too, and so is a
		 * file whose name a digest reads (btih) */
		if (!t->stream && t->part == NULL && w->buf != NULL &&
		    ms_selection_has_many(t->sel) &&
		    !ms_selection_has_subject(t->sel)) {
			small_task(e, w, st, i, &sm);
		} else {
			smalls_hash(w, st, &sm);
			st->finished[i] = ms_engine_run_task(e, w, t, st, i);
		}
		if (e->nworkers == 0)
			ms_engine_solo_emit(e, st);
	}
	if (st->gated) {
		/* read: the next batch may be read now, unless a file of this
		 * one went on as a big file, which holds the gate until read */
		pthread_mutex_lock(&e->lock);
		e->gate_busy = ms_big_gated(e);
		if (!e->gate_busy && e->idle > 0)
			pthread_cond_signal(&e->work_cv);
		pthread_mutex_unlock(&e->lock);
	}
	smalls_hash(w, st, &sm);
	return 1;
}

/* Under the lock: record what the step did and wake whoever can go on. */
static void
apply_step(struct ms_engine *e, struct step *st, int rc, int err)
{
	if (st->kind != STEP_TASK) {
		ms_big_apply(e, st, rc, err);
		return;
	}
	for (size_t i = 0; i < st->ntasks; i++)
		if (st->finished[i])
			ms_engine_complete(e, st->task[i]);
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
		rc = ms_engine_run_step(e, w, &st);
		err = errno;
		pthread_mutex_lock(&e->lock);
		apply_step(e, &st, rc, err);
		prev = st;
	}
	pthread_mutex_unlock(&e->lock);
	return NULL;
}

void
ms_worker_init(struct worker *w, struct ms_engine *e)
{
	w->e = e;
	/* Without it, this worker's tasks fail (ENOMEM), not the run. */
	w->buf = ms_try_aligned(4096, e->cfg.buffer_size);
	w->sets = NULL;
}

void
ms_worker_free(struct worker *w)
{
	while (w->sets != NULL) {
		struct cached_set *cs = w->sets;
		w->sets = cs->next;
		ms_digest_set_destroy(&cs->set);
		free(cs);
	}
	free(w->buf);
	w->buf = NULL;
}

/*
 * Create the worker threads, once.  They are started on demand: a run
 * that hashes one small file never pays for threads.
 */
void
ms_engine_start_workers(struct ms_engine *e)
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
		ms_worker_init(&e->workers[have], e);
		if (e->workers[have].buf != NULL)
			have++;
	}
	if (have == 0)
		have = 1;
	for (unsigned i = have; i < e->nworkers; i++)
		ms_worker_free(&e->workers[i]);
	e->nworkers = have;
	/* Workers from end on are not started: each gave its buffer back
	 * for the stack of one that is (a ulimit -v the buffers took). */
	for (unsigned i = 0, end = e->nworkers; i < end; i++) {
		int rc;

		while ((rc = pthread_create(&e->workers[i].tid, NULL,
		    worker_main, &e->workers[i])) != 0 && end > i + 1)
			ms_worker_free(&e->workers[--end]);
		e->workers[i].running = rc == 0;
		/* Fewer threads do the same steps; none can do nothing. */
		if (rc != 0 && i == 0)
			ms_die("cannot start a thread: %s", strerror(rc));
	}
}
