/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * engine_impl.h - what the engine's files share, and nothing else
 * includes: the engine's state, the step a worker runs, the calls
 * engine_submit.c makes into engine.c and the big-file calls engine.c
 * makes into engine_big.c.
 *
 * engine_submit.c (the caller's side: start, submit, ordered emit, end)
 * calls engine.c (the workers, the queue, the task step), which calls
 * engine_big.c (one large file hashed by many workers); never the other
 * way (tests/layering.sh: no cycle).  What the last two need of the
 * scheduler, the completion of a task, is the inline function below.
 * Every field is guarded by ms_engine.lock unless it says otherwise.
 */
#ifndef MS_ENGINE_IMPL_H
#define MS_ENGINE_IMPL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/engine.h"

#define RING		MS_RING_MAX	/* chunks in flight per big file */
#define WINDOW		4096	/* tasks submitted but not yet emitted */
#define BATCH		16	/* tasks a worker takes in one go */
/* -j 1: the longest a small file read waits for others to share lanes */
#define SOLO_WAIT_NS	1000000u
/* Once the first task it waits for is done, the submitter lets this many
 * gather to emit in order, for EMIT_WAIT_NS at most (engine_submit.c). */
#define EMIT_GROUP	256
#define EMIT_WAIT_NS	1000000u

struct slot {
	struct ms_chunk	 c;
	uint64_t	 off;		/* of the chunk in the file */
	unsigned char	*buf;		/* read mode's buffer for this slot */
	size_t		 pending;	/* lanes still to consume the chunk */
};

struct lane {
	uint64_t	 next;		/* index of the next chunk to hash */
	bool		 busy;
	bool		 finished;	/* final digest written */
	/* tree digests: chunks claimed as parts, joined in order */
	const struct ms_tree_ops *tree;	/* NULL: chunks go through update */
	uint64_t	 joined;	/* chunks fed or joined: next's follower */
	unsigned	 parts;		/* parts being hashed */
	bool		 last_part;	/* the last chunk consumed was a part */
	bool		 ready[RING];
	unsigned char	 value[RING][MS_PART_MAX];
};

struct big {
	struct ms_task	*task;
	struct ms_source src;
	struct ms_digest_set set;	/* private states: lanes run anywhere */
	struct slot	 slot[RING];
	size_t		 ring;		/* slots in use: ms_ring_slots, or
					 * fewer for the memory bound */
	size_t		 nbuf;		/* slots with a read buffer */
	size_t		 bs;		/* of each buffer: --buffer-size, or
					 * MS_DIRECT_READ for O_DIRECT */
	size_t		 windows;	/* bytes of mapped windows accounted */
	uint64_t	 produced;	/* chunks read so far */
	off_t		 size;		/* of a regular file, else -1 */
	bool		 reading;
	bool		 read_done;
	bool		 gated;		/* holds the seeking devices' gate
					 * (gate_busy) until it is read */
	int		 err;
	size_t		 lanes;
	size_t		 finished;
	struct lane	 lane[MS_SET_MAX];
	struct big	*next;
};

struct cached_set {
	struct ms_digest_set set;
	struct cached_set *next;
};

struct worker {
	struct ms_engine *e;
	pthread_t	 tid;
	bool		 running;	/* its thread was started */
	unsigned char	*buf;		/* NULL if it could not be allocated:
					 * tried again for each task */
	struct cached_set *sets;
};

struct ms_engine {
	struct ms_engine_config cfg;
	ms_emit_fn	*emit;
	void		*arg;
	pthread_mutex_t	 lock;
	pthread_cond_t	 work_cv;	/* workers wait here */
	pthread_cond_t	 main_cv;	/* the submitter waits here */
	struct ms_task	*q_head, *q_tail;	/* not started */
	size_t		 nqueued;	/* tasks on that queue */
	/* the submitter's own, no lock: tasks not queued yet */
	struct ms_task	*p_head, *p_tail;
	size_t		 npending;
	struct big	*active;
	size_t		 nactive;
	struct big	*spare;		/* finished bigs, for reuse */
	atomic_uint	 idle;		/* workers asleep on work_cv; read
					 * without the lock by the submitter */
	bool		 closing;
	bool		 main_waiting;
	bool		 main_grouping;	/* it waits for a group (EMIT_GROUP) */
	size_t		 published;	/* window slots a worker may read: all
					 * before it are written (drain) */
	size_t		 ready;		/* the tasks before it are done: how
					 * far ms_engine_ready looked */
	size_t		 stream_end;	/* 1 + the last stream task's seq, or 0:
					 * a stream waits for the one before */
	struct ms_task	**window;	/* WINDOW slots, each written before
					 * it is read: not cleared */
	size_t		 submitted;
	size_t		 emitted;
	unsigned	 nworkers;	/* planned (ms_memory_plan); 0 = sequential */
	size_t		 mem_spare;	/* of cfg.memory: what rings may take */
	bool		 mem_lazy;	/* cfg.memory is what the default is at
					 * least; ms_memory_take learns it */
	bool		 started;	/* the worker threads exist */
	struct ms_task	*held;		/* the first task, until a second comes */
	struct worker	*workers;
	struct worker	 self;		/* -j 1: the caller's thread */
	struct step	*solo;		/* -j 1: the batch being gathered */
	size_t		 solo_emitted;	/* -j 1: its tasks emitted so far */
	/* the submitter's, no lock: tasks held to be read in the order
	 * their devices like (engine_order.c); NULL: walk order */
	struct ms_order	*order;
	bool		 gate_busy;	/* a worker reads a batch of gated
					 * tasks: no other takes one (pick) */
};

enum step_kind { STEP_NONE, STEP_TASK, STEP_READ, STEP_LANE };

struct step {
	enum step_kind	 kind;
	/* task: up to BATCH queued tasks, run in turn; those not finished
	 * by the step (gone big) are the big file's to complete */
	struct ms_task	*task[BATCH];
	bool		 finished[BATCH];
	size_t		 ntasks;
	struct big	*big;
	size_t		 lane;
	uint64_t	 chunk;
	bool		 gated;		/* task: its files are read by the
					 * seeking devices' one reader */
	bool		 final;		/* lane: write the digest */
	bool		 part;		/* lane: hash the chunk as a part */
	/* Mapped chunks its apply freed, for the worker to unmap after
	 * letting the lock go: ms_big_drop. */
	struct ms_chunk	 spent[RING];
	size_t		 nspent;
};

/*
 * engine.c, for engine_submit.c: a worker's state (its buffer, tried
 * again if NULL; its cached digest sets) and its digest set for sel; the
 * worker threads, started once; the task step of a worker, or at -j 1 of
 * the caller (ms_engine_run_step: it emits as tasks finish, through
 * ms_engine_solo_emit); one task run alone (st NULL), true if finished.
 */
void	 ms_worker_init(struct worker *w, struct ms_engine *e);
void	 ms_worker_free(struct worker *w);
struct ms_digest_set *ms_worker_set(struct worker *w,
	    const struct ms_selection *sel);
void	 ms_engine_start_workers(struct ms_engine *e);
int	 ms_engine_run_step(struct ms_engine *e, struct worker *w,
	    struct step *st);
void	 ms_engine_solo_emit(struct ms_engine *e, struct step *st);
bool	 ms_engine_run_task(struct ms_engine *e, struct worker *w,
	    struct ms_task *t, struct step *st, size_t i);

/*
 * engine_memory.c: fit the run into cfg->memory (the buffer size may
 * shrink) and return the workers to start, leaving in *spare what big
 * files' rings may take; then, under the lock, take n bytes of that
 * (false if they are not there) or give them back.
 */
unsigned ms_memory_plan(struct ms_engine_config *cfg, size_t *spare,
	    bool *lazy);
bool	 ms_memory_take(struct ms_engine *e, size_t n);
void	 ms_memory_give(struct ms_engine *e, size_t n);
/*
 * Not under the lock: the mapped window a worker holds while it hashes
 * src, if src is mapped, is taken from the bound; if the bound has no
 * room, src is read instead (the worker's buffer is counted already).
 * Returns what was taken, for ms_memory_window_done to give back.
 */
size_t	 ms_memory_window(struct ms_engine *e, struct ms_source *src);
void	 ms_memory_window_done(struct ms_engine *e, size_t n);

/*
 * engine_order.c, for engine_submit.c: the read order of the tasks (NULL
 * if every device is read in walk order, and nothing is to be said);
 * hold t (true) or let it be queued now (false); whether what is held
 * should go now; the held tasks, in the order to read them (a list by
 * next), gated for a seeking device's one reader.
 */
struct ms_order *ms_order_new(bool debug);
void	 ms_order_free(struct ms_order *o);
bool	 ms_order_hold(struct ms_order *o, struct ms_task *t);
bool	 ms_order_ready(const struct ms_order *o);
bool	 ms_order_holds(const struct ms_order *o);
struct ms_task *ms_order_release(struct ms_order *o);

/* Under the lock: move ready on over the published tasks done in order;
 * each slot is looked at once. */
static inline void
ms_engine_ready(struct ms_engine *e)
{
	if (e->ready < e->emitted)
		e->ready = e->emitted;
	while (e->ready < e->published && e->window[e->ready % WINDOW]->done)
		e->ready++;
}

/*
 * Under the lock: t is finished.  The waiting submitter is woken when the
 * first task it waits for is done, then again once a group is (or all it
 * waits for): not once a worker's batch, which cost a wake and the waking
 * worker's preemption each (20,000 files of 1 KiB, -j 2: about 1,100
 * context switches of the run's 1,200).
 */
static inline void
ms_engine_complete(struct ms_engine *e, struct ms_task *t)
{
	t->done = true;
	if (!e->main_waiting)
		return;
	ms_engine_ready(e);
	if (e->ready > e->emitted && (!e->main_grouping ||
	    e->ready - e->emitted >= EMIT_GROUP || e->ready == e->published))
		pthread_cond_signal(&e->main_cv);
}

/*
 * engine_big.c: a file that outlasted its first buffer goes big when
 * ms_big_candidate holds before its first chunk is hashed, and
 * ms_big_gains after (t_hash: ns that chunk of len bytes took), and
 * ms_big_promote finds room.  The other calls are the big-file half of
 * the step cycle: pick (under the lock), run (without it), apply (under
 * it), drop (without it: unmap what apply freed), and the release of the
 * finished bigs kept for reuse.
 */
bool	 ms_big_candidate(struct ms_source *src, const struct ms_selection *sel,
	    size_t buffer_size);
bool	 ms_big_gains(const struct ms_selection *sel, uint64_t t_hash,
	    size_t len);
bool	 ms_big_promote(struct ms_engine *e, struct ms_task *t,
	    struct ms_source *src, struct ms_digest_set *set);
bool	 ms_big_pick(struct ms_engine *e, struct step *st,
	    const struct step *prev);
int	 ms_big_run(struct step *st);
void	 ms_big_apply(struct ms_engine *e, struct step *st, int rc, int err);
void	 ms_big_free_spares(struct ms_engine *e);
/* Under the lock: does a big file still being read hold the gate? */
bool	 ms_big_gated(const struct ms_engine *e);
void	 ms_big_drop(struct step *st);

#endif
