/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * engine_submit.c - the submitting side of the engine: the caller's
 * thread.  Owns the engine's start and end, the submission of tasks (the
 * first held back until a second comes, so that one small file never
 * starts a thread; the rest pending, then queued BATCH per worker at a
 * time), the window of tasks submitted and not yet emitted, and the
 * ordered emit (drain).  At -j 1 it gathers a batch and runs it on its
 * own thread with engine.c's step.  It calls engine.c (the workers and
 * the task step) and is never called back (tests/layering.sh: no cycle).
 */
#include "engine/engine_impl.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct ms_engine *
ms_engine_start(const struct ms_engine_config *cfg, ms_emit_fn *emit, void *arg)
{
	struct ms_engine *e = ms_xcalloc(1, sizeof(*e));

	e->cfg = *cfg;
	if (e->cfg.jobs == 0)
		e->cfg.jobs = 1;
	e->emit = emit;
	e->arg = arg;
	e->nworkers = ms_memory_plan(&e->cfg, &e->mem_spare, &e->mem_lazy);
	ms_worker_init(&e->self, e);
	if (e->nworkers == 0)
		return e;
	e->window = ms_xmalloc(WINDOW * sizeof(*e->window));
	e->order = ms_order_new(e->cfg.debug);
	pthread_mutex_init(&e->lock, NULL);
	pthread_cond_init(&e->work_cv, NULL);
	ms_cond_init_monotonic(&e->main_cv);	/* wait_ready's deadline */
	return e;
}

static void release(struct ms_engine *e);
static void flush(struct ms_engine *e);

/*
 * Under the lock, the first task to emit not done: wait until it is, then
 * let a group of them gather (ms_engine_complete), EMIT_WAIT_NS at most,
 * so that a line still goes out within about a millisecond of its task.
 */
static void
wait_ready(struct ms_engine *e)
{
	struct timespec ts;

	e->published = e->submitted;	/* their slots are written */
	e->main_waiting = true;
	ms_engine_ready(e);
	while (e->ready == e->emitted) {
		pthread_cond_wait(&e->main_cv, &e->lock);
		ms_engine_ready(e);
	}
	ts = ms_ns_timespec(ms_now_ns() + EMIT_WAIT_NS);
	e->main_grouping = true;
	while (e->ready - e->emitted < EMIT_GROUP &&
	    e->ready != e->published &&
	    pthread_cond_timedwait(&e->main_cv, &e->lock, &ts) == 0)
		ms_engine_ready(e);
	e->main_grouping = false;
	e->main_waiting = false;
}

/* Emit finished tasks in order; with wait, until fewer than limit remain. */
static void
drain(struct ms_engine *e, size_t limit)
{
	/* a held task would never finish: the held go to the workers */
	if (e->submitted - e->emitted > limit && ms_order_holds(e->order)) {
		release(e);
		flush(e);
	}
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
			wait_ready(e);
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

/* Without the lock (the submitter's list): t is to be queued. */
static void
pend(struct ms_engine *e, struct ms_task *t)
{
	t->next = NULL;
	if (e->p_tail != NULL)
		e->p_tail->next = t;
	else
		e->p_head = t;
	e->p_tail = t;
	e->npending++;
}

/* The held tasks are pending, in the order their devices like. */
static void
release(struct ms_engine *e)
{
	struct ms_task *t = ms_order_release(e->order);

	while (t != NULL) {
		struct ms_task *next = t->next;

		pend(e, t);
		t = next;
	}
}

/* t is pending, or held to be read in its device's order. */
static void
place(struct ms_engine *e, struct ms_task *t)
{
	if (e->order == NULL || !ms_order_hold(e->order, t))
		pend(e, t);
	else if (ms_order_ready(e->order))
		release(e);
}

/* Under the lock: the pending tasks go to the end of the queue. */
static void
enqueue(struct ms_engine *e)
{
	if (e->p_head == NULL)
		return;
	if (e->q_tail != NULL)
		e->q_tail->next = e->p_head;
	else
		e->q_head = e->p_head;
	e->q_tail = e->p_tail;
	e->nqueued += e->npending;
	if (e->idle > 1 && e->npending > 1)
		pthread_cond_broadcast(&e->work_cv);
	else if (e->idle > 0)
		pthread_cond_signal(&e->work_cv);
	e->p_head = e->p_tail = NULL;
	e->npending = 0;
}

/* Queue the pending tasks and start the workers if need be. */
static void
flush(struct ms_engine *e)
{
	pthread_mutex_lock(&e->lock);
	enqueue(e);
	ms_engine_start_workers(e);	/* they wait for the lock */
	pthread_mutex_unlock(&e->lock);
}

/* -j 1: run the batch gathered so far on the caller's thread, emit it. */
static void
solo_run(struct ms_engine *e)
{
	struct step *st = e->solo;

	if (st == NULL || st->ntasks == 0)
		return;
	st->kind = STEP_TASK;
	memset(st->finished, 0, sizeof(st->finished));
	e->solo_emitted = 0;
	ms_engine_run_step(e, &e->self, st);	/* emits as tasks finish */
	while (e->solo_emitted < st->ntasks)	/* none goes big at -j 1 */
		e->emit(e->arg, st->task[e->solo_emitted++]);
	st->ntasks = 0;
}

void
ms_engine_submit(struct ms_engine *e, struct ms_task *t)
{
	bool stream = !t->walked && ms_source_is_stream(t->path);

	if (e->nworkers == 0) {
		/* In batches too, so that small files share the lanes; but a
		 * stream may block: what came before it is written first. */
		if (e->solo == NULL)
			e->solo = ms_xcalloc(1, sizeof(*e->solo));
		if (stream)
			solo_run(e);
		t->stream = stream;
		e->solo->task[e->solo->ntasks++] = t;
		if (stream || e->solo->ntasks == BATCH)
			solo_run(e);
		return;
	}
	/*
	 * The submitter's fields (seq, the window, the stream order) are
	 * its own; the lock is taken only to queue what is pending, BATCH
	 * per worker at a time, or at once when a worker waits for work.
	 */
	if (e->submitted - e->emitted >= WINDOW) {	/* t needs a slot */
		flush(e);
		drain(e, WINDOW - 1);
	}
	t->stream = stream;
	t->seq = e->submitted++;
	size_t after = stream ? e->stream_end : 0;
	e->stream_end = stream ? t->seq + 1 : e->stream_end;
	t->done = false;
	e->window[t->seq % WINDOW] = t;
	if (!e->started && e->held == NULL) {
		/* Perhaps the only task: wait and see before making threads. */
		e->held = t;
		return;
	}
	if (e->held != NULL) {
		place(e, e->held);
		e->held = NULL;
	}
	if (stream && e->emitted < after) {	/* one reader per stream */
		flush(e);
		drain(e, e->submitted - after);
	}
	place(e, t);
	if (stream || !e->started || e->npending >= BATCH * e->nworkers ||
	    e->idle > 0) {
		flush(e);
		drain(e, WINDOW - 1);
	}
}

void
ms_engine_read_source(struct ms_engine *e, struct ms_task *t,
    struct ms_source *src)
{
	if (e->self.buf == NULL)	/* as in run_task */
		e->self.buf = ms_try_aligned(4096, e->cfg.buffer_size);
	if (ms_sequential_hash_source(src, ms_worker_set(&e->self, t->sel),
	    e->self.buf, e->cfg.buffer_size, e->cfg.progress, t->digest,
	    &t->size) == -1)
		t->err = errno;
}

void
ms_engine_submit_done(struct ms_engine *e, struct ms_task *t)
{
	bool released = false;

	if (e->nworkers == 0) {
		solo_run(e);
		e->emit(e->arg, t);
		return;
	}
	if (e->held != NULL) {
		/* an earlier path task: the workers take it now */
		pend(e, e->held);
		e->held = NULL;
		released = true;
	}
	if (e->submitted - e->emitted >= WINDOW) {	/* t needs a slot */
		flush(e);
		drain(e, WINDOW - 1);
	}
	pthread_mutex_lock(&e->lock);
	enqueue(e);
	t->seq = e->submitted++;
	e->window[t->seq % WINDOW] = t;
	ms_engine_complete(e, t);
	pthread_mutex_unlock(&e->lock);
	if (released)
		ms_engine_start_workers(e);
	drain(e, WINDOW - 1);
}

bool
ms_engine_wait(struct ms_engine *e)
{
	if (e->nworkers == 0) {
		/* -j 1: the batch gathered so far runs and is emitted now */
		bool any = e->solo != NULL && e->solo->ntasks > 0;

		solo_run(e);
		return any;
	}
	/* submitted and emitted change on this thread only */
	if (e->emitted == e->submitted)
		return false;
	if (e->held != NULL) {
		pend(e, e->held);
		e->held = NULL;
	}
	flush(e);	/* what is pending is queued, the workers started */
	drain(e, e->submitted - e->emitted - 1);
	return true;
}

void
ms_engine_finish(struct ms_engine *e)
{
	solo_run(e);
	free(e->solo);
	if (e->held != NULL) {
		/* A single task: the caller's thread opens it, and starts the
		 * workers only if the file turns out large. */
		struct ms_task *t = e->held;

		e->held = NULL;
		if (ms_engine_run_task(e, &e->self, t, NULL, 0)) {
			pthread_mutex_lock(&e->lock);
			ms_engine_complete(e, t);
			pthread_mutex_unlock(&e->lock);
		}
	}
	if (e->nworkers > 0) {
		if (e->npending > 0)
			flush(e);
		drain(e, 0);
		pthread_mutex_lock(&e->lock);
		e->closing = true;
		pthread_cond_broadcast(&e->work_cv);
		pthread_mutex_unlock(&e->lock);
		for (unsigned i = 0; e->started && i < e->nworkers; i++) {
			if (e->workers[i].running)
				pthread_join(e->workers[i].tid, NULL);
			ms_worker_free(&e->workers[i]);
		}
		ms_big_free_spares(e);
		ms_order_free(e->order);
		free(e->workers);
		free(e->window);
		pthread_mutex_destroy(&e->lock);
		pthread_cond_destroy(&e->work_cv);
		pthread_cond_destroy(&e->main_cv);
	}
	ms_worker_free(&e->self);
	free(e);
	ms_task_release();
}
