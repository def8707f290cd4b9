/*
 * engine.c - the worker threads (the only others are progress.c's ticker
 * and whatever a backend library starts): files in parallel, and the
 * digests of one large file in parallel over a ring of shared read-only
 * chunks; archive members, read in order on the caller's thread, join
 * the same ordered emit.
 *
 * Workers run "steps" picked under one mutex:
 *   task  open a queued file and read its first buffer.  A file that ends
 *         within it is hashed there and then (the small-file path: one
 *         read into the worker's reused buffer, reused digest states).  A
 *         longer one has that buffer hashed too; it is then promoted to a
 *         "big" file if it is large enough and its digests slow enough to
 *         gain (worth_spreading, run_task) and there is room, else hashed
 *         to its end by this worker.
 *   read  fill the next free slot of a big file's ring (a read, or a
 *         mapped window), so the copy leaves the hashing threads' path.
 *   lane  run one digest of a big file over its next chunk.  A digest is
 *         run by one worker at a time, but may move between workers at
 *         every chunk, so the wall time approaches max(slowest digest,
 *         total work / workers) rather than their sum.
 *   part  a tree digest (BLAKE3, algorithm.h's ms_tree_ops) is not bound
 *         to one worker: any worker hashes its next chunk on its own to a
 *         value, and the values are joined in order as they come, so one
 *         file with one digest keeps every worker busy.  A chunk is a part
 *         only when the digest accepts its offset and length and the file's
 *         size says it is not the last; the rest go through update.
 * Results go back to the submitting thread in submission order.  The
 * engine never prints: the caller's emit does.
 */
#include "engine.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#define RING		MS_RING_MAX	/* chunks in flight per big file */
#define WINDOW		4096	/* tasks submitted but not yet emitted */

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
	size_t		 ring;		/* slots in use: ms_ring_slots */
	uint64_t	 produced;	/* chunks read so far */
	off_t		 size;		/* of a regular file, else -1 */
	bool		 reading;
	bool		 read_done;
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
	unsigned char	*buf;
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
	struct big	*active;
	size_t		 nactive;
	struct big	*spare;		/* finished bigs, for reuse */
	unsigned	 idle;
	bool		 closing;
	bool		 main_waiting;
	size_t		 stream_end;	/* 1 + the last stream task's seq, or 0:
					 * a stream waits for the one before */
	struct ms_task	*window[WINDOW];
	size_t		 submitted;
	size_t		 emitted;
	unsigned	 nworkers;	/* configured; 0 with -j 1 */
	bool		 started;	/* the worker threads exist */
	struct ms_task	*held;		/* the first task, until a second comes */
	struct worker	*workers;
	struct worker	 self;		/* -j 1: the caller's thread */
};

enum step_kind { STEP_NONE, STEP_TASK, STEP_READ, STEP_LANE };

struct step {
	enum step_kind	 kind;
	struct ms_task	*task;
	struct big	*big;
	size_t		 lane;
	uint64_t	 chunk;
	bool		 final;		/* lane: write the digest */
	bool		 part;		/* lane: hash the chunk as a part */
};

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

struct lane_arg {
	struct ms_digest_set *set;
	size_t		 i;
};

static void
update_lane(void *arg, const void *p, size_t n)
{
	struct lane_arg *la = arg;

	ms_digest_set_update_one(la->set, la->i, p, n);
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

/* Under the lock: t is finished; wake the submitter if it waits for t. */
static void
complete(struct ms_engine *e, struct ms_task *t)
{
	t->done = true;
	if (e->main_waiting && t->seq == e->emitted)
		pthread_cond_signal(&e->main_cv);
}

/*
 * Under the lock: turn an opened file, whose first chunk the worker has
 * already fed to set, into a big file.  The big file takes those digest
 * states (the worker gets the big file's spare ones in exchange) and goes
 * on from the second chunk.  Returns false if there is no room for it.
 */
static bool
promote(struct ms_engine *e, struct ms_task *t, struct ms_source *src,
    struct ms_digest_set *set)
{
	struct big *b;
	struct ms_digest_set swap;

	if (e->nworkers < 2 || e->nactive >= e->nworkers)
		return false;
	b = e->spare;
	if (b != NULL) {
		e->spare = b->next;
	} else {
		b = ms_xcalloc(1, sizeof(*b));
		for (size_t i = ms_ring_slots(e->cfg.buffer_size, false); i-- > 0; )
			b->slot[i].buf = ms_xaligned(4096, e->cfg.buffer_size);
	}
	if (b->set.sel != t->sel) {
		ms_digest_set_destroy(&b->set);
		ms_digest_set_create(&b->set, t->sel);
	}
	swap = b->set;
	b->set = *set;
	*set = swap;
	b->task = t;
	b->src = *src;
	b->ring = ms_ring_slots(e->cfg.buffer_size, src->map);
	b->produced = 1;
	b->reading = false;
	b->read_done = src->eof;
	b->err = 0;
	b->lanes = t->sel->cnt;
	b->finished = 0;
	b->size = ms_source_size(&b->src);
	memset(b->lane, 0, sizeof(b->lane));
	for (size_t i = 0; i < b->lanes; i++) {
		b->lane[i].next = b->lane[i].joined = 1;
		if (b->size >= 0)
			b->lane[i].tree = t->sel->spec[i].algo->tree;
	}
	b->next = e->active;
	e->active = b;
	e->nactive++;
	if (e->idle > 0)
		pthread_cond_broadcast(&e->work_cv);
	return true;
}

static void start_workers(struct ms_engine *e);

/*
 * Is a file that outlasted its first buffer a candidate for the big-file
 * path?  Several digests gain from running side by side from 600 KB up
 * (measured, --io=read, 2 cores: 192 vs 169 MB/s; 589 vs 334 at 16 MiB).
 * A single digest gains only by taking the read copy off its thread,
 * which pays for the hand-offs from about 64 MiB (1 GiB sha256: 2050 vs
 * 1933 MB/s), and only if the digest is slower than the copy by far (see
 * run_task).  Streams of unknown length are candidates.
 */
static bool
splittable(const struct ms_selection *sel)
{
	for (size_t i = 0; i < sel->cnt; i++)
		if (sel->spec[i].algo->tree != NULL)
			return true;
	return false;
}

/* A tree digest is split from four buffers up (1 MiB by default). */
static bool
worth_spreading(struct ms_source *src, const struct ms_selection *sel,
    size_t buffer_size)
{
	off_t size = ms_source_size(src);

	if (size < 0)
		return true;
	if (splittable(sel) && size >= (off_t)(4 * buffer_size))
		return true;
	return sel->cnt > 1 ? size >= (off_t)(512 << 10) : size >= (off_t)(64 << 20);
}

/*
 * The task step, without the lock: hash a whole small file, or hash the
 * first chunk of a large one and promote it.  Returns true if the task
 * is finished (hashed or failed), false if it went on as a big file.
 *
 * The first chunk's hash is timed: a single digest faster than
 * SPREAD_MAX_RATE (xxh3 and xxh128 with AVX2, about as fast as read(2)'s
 * copy itself) stays on this thread, where the chunk is still in this
 * core's cache; spread over two cores, 1 GiB of xxh3 went from 17.1 to
 * 15.4 GB/s, while sha256 (2 GB/s) gains 6%.  Timing the read instead
 * misleads: the first read into a fresh buffer pays its page faults.
 */
#define SPREAD_MAX_RATE	4	/* bytes per ns: 4 GB/s */

static bool
run_task(struct ms_engine *e, struct worker *w, struct ms_task *t)
{
	struct ms_source src;
	struct ms_digest_set *set;
	struct ms_chunk c;
	size_t cap = e->cfg.buffer_size;
	uint64_t t0;
	int r;

	if (ms_source_open_as(&src, t->path, e->cfg.io, t->walked) == -1) {
		t->err = errno;
		return true;
	}
	r = ms_source_next(&src, &c, w->buf, cap);
	if (r == -1) {
		t->err = errno;
		ms_source_close(&src);
		return true;
	}
	set = worker_set(w, t->sel);
	ms_digest_set_init(set);
	if (r == 1 && !src.eof && e->nworkers > 1 &&
	    worth_spreading(&src, t->sel, cap)) {
		uint64_t t_hash;
		int fed;

		t0 = ms_now_ns();
		fed = ms_chunk_feed(&c, ms_update_set, set);
		t->err = fed == -1 ? errno : 0;
		t_hash = ms_now_ns() - t0;
		ms_progress_add(e->cfg.progress, c.len);
		ms_chunk_release(&c);
		r = fed == -1 ? -1 : 1;
		if (r == 1 && (t->sel->cnt > 1 || splittable(t->sel) ||
		    t_hash * SPREAD_MAX_RATE > c.len)) {
			bool promoted;

			start_workers(e);
			pthread_mutex_lock(&e->lock);
			promoted = promote(e, t, &src, set);
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
	if (r != -1)
		ms_digest_set_final(set, t->digest);
	t->size = (uint64_t)src.pos;
	ms_source_close(&src);
	return true;
}

static bool
reader_runnable(const struct big *b)
{
	return !b->reading && !b->read_done &&
	    b->slot[b->produced % b->ring].pending == 0;
}

/* Under the lock, after an error: drop every chunk, finish every idle lane. */
static void
abandon(struct big *b)
{
	for (size_t i = 0; i < b->lanes; i++) {
		struct lane *l = &b->lane[i];

		if (l->busy || l->parts > 0 || l->finished)
			continue;
		for (; l->joined < b->produced; l->joined++) {
			struct slot *s = &b->slot[l->joined % b->ring];
			if (--s->pending == 0)
				ms_chunk_release(&s->c);
		}
		l->next = l->joined;
		l->finished = true;
		b->finished++;
	}
}

/* Under the lock: the big file is done when no step can touch it again. */
static bool
big_complete(const struct big *b)
{
	return b->finished == b->lanes && !b->reading;
}

static void
retire(struct ms_engine *e, struct big *b)
{
	struct big **pp;

	for (pp = &e->active; *pp != b; pp = &(*pp)->next)
		;
	*pp = b->next;
	e->nactive--;
	/* After an error, chunks read while the lanes were abandoned. */
	for (size_t i = 0; i < b->ring; i++)
		if (b->slot[i].pending > 0) {
			ms_chunk_release(&b->slot[i].c);
			b->slot[i].pending = 0;
		}
	b->task->size = (uint64_t)b->src.pos;
	b->task->err = b->err;
	ms_source_close(&b->src);
	complete(e, b->task);
	b->task = NULL;
	b->next = e->spare;
	e->spare = b;
}

/* Under the lock: is chunk k of a tree lane a part (else fed in order)? */
static bool
is_part(const struct big *b, const struct lane *l, uint64_t k)
{
	const struct slot *s = &b->slot[k % b->ring];

	return l->tree != NULL && (off_t)(s->off + s->c.len) < b->size &&
	    l->tree->part_ok(s->off, s->c.len);
}

/* Under the lock: can a step of this lane start now? */
static bool
lane_runnable(const struct big *b, const struct lane *l)
{
	if (l->busy || (l->next == b->produced && !b->read_done))
		return false;
	if (l->tree == NULL)
		return true;
	/* Parts run side by side; an update or the final waits for every
	 * value before it to be joined. */
	if (l->next < b->produced && is_part(b, l, l->next))
		return true;
	return l->parts == 0 && l->joined == l->next;
}

/*
 * Under the lock: the most useful step for this worker, if any; prev is
 * the step it ran last.  Among the digests that can go on, the one
 * furthest behind goes first, and a tie goes to the digest the worker ran
 * last.  The worker that runs the digest furthest behind (the critical
 * path) keeps it and reads only when it has nothing to hash; the others
 * read first while the digest furthest ahead has less than half the ring
 * to go on, so the read copy stays off the critical path and the ring
 * stays full.  Measured on 1 GiB, -j 2 (wall seconds, this rule against
 * "read first" for all and "read last" for all): sha256 0.52 (0.53, 0.53);
 * sha256,xxh3 0.52 (0.61, 0.53); sha256,md5,xxh3 1.21 (1.35, 1.23);
 * md5,sha1,sha256,blake2b 1.52 (1.50, 1.58); xxh3 0.08 (0.06, 0.15).
 */
static bool
pick(struct ms_engine *e, struct step *st, const struct step *prev)
{
	for (struct big *b = e->active; b != NULL; b = b->next) {
		struct lane *best = NULL;
		struct lane *mine = prev->kind == STEP_LANE && prev->big == b ?
		    &b->lane[prev->lane] : NULL;
		uint64_t behind = UINT64_MAX;	/* the critical lane's next */
		uint64_t ahead = b->ring;	/* chunks ready for the leader */

		if (b->err) {
			abandon(b);
			if (big_complete(b)) {
				retire(e, b);
				return pick(e, st, prev);
			}
		}
		for (size_t i = 0; i < b->lanes; i++) {
			struct lane *l = &b->lane[i];

			if (l->finished)
				continue;
			if (l->next < behind)
				behind = l->next;
			if (b->produced - l->next < ahead)
				ahead = b->produced - l->next;
			if (!lane_runnable(b, l))
				continue;
			if (best == NULL || l->next < best->next ||
			    (l->next == best->next && l == mine))
				best = l;
		}
		if (reader_runnable(b) && (best == NULL ||
		    ((best != mine || best->next != behind) && ahead < b->ring / 2))) {
			st->kind = STEP_READ;
			st->big = b;
			st->chunk = b->produced;
			b->reading = true;
			return true;
		}
		if (best != NULL) {
			st->kind = STEP_LANE;
			st->big = b;
			st->lane = (size_t)(best - b->lane);
			st->chunk = best->next;
			st->final = best->next == b->produced;
			st->part = !st->final && is_part(b, best, best->next);
			if (st->part) {
				best->next++;
				best->parts++;
			} else
				best->busy = true;
			return true;
		}
	}
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

struct part_arg {
	struct big	*b;
	struct lane	*l;
	struct slot	*s;
	uint64_t	 chunk;
};

/* The step owns its value slot until apply_step marks it ready. */
static void
hash_part(void *arg, const void *p, size_t n)
{
	struct part_arg *pa = arg;

	pa->l->tree->part(p, n, pa->s->off, pa->l->value[pa->chunk % pa->b->ring]);
}

/* Under the lock: a chunk of a lane is consumed; free its slot if last. */
static void
consumed(struct ms_engine *e, struct big *b, struct lane *l, uint64_t chunk)
{
	struct slot *s = &b->slot[chunk % b->ring];

	if (--s->pending == 0) {
		ms_chunk_release(&s->c);
		/* Wake a reader only for a batch of free slots: one wake-up
		 * per chunk would cost the hashing thread a system call each
		 * time. */
		if (e->idle > 0 && !b->reading &&
		    (b->produced - l->next < 2 || (chunk + 1) % (b->ring / 2) == 0))
			pthread_cond_signal(&e->work_cv);
	}
}

/* Without the lock: do the step.  Returns -1 with errno on failure. */
static int
run_step(struct ms_engine *e, struct worker *w, struct step *st)
{
	struct big *b = st->big;

	switch (st->kind) {
	case STEP_TASK:
		return run_task(e, w, st->task) ? 1 : 0;
	case STEP_READ: {
		struct slot *s = &b->slot[st->chunk % b->ring];
		return ms_source_next(&b->src, &s->c, s->buf, e->cfg.buffer_size);
	}
	case STEP_LANE:
		if (st->part) {
			struct part_arg pa = { b, &b->lane[st->lane],
			    &b->slot[st->chunk % b->ring], st->chunk };
			return ms_chunk_feed(&pa.s->c, hash_part, &pa);
		}
		if (st->final && b->lane[st->lane].last_part) {
			/* The file ended at a chunk hashed as a part: it
			 * shrank while being read. */
			errno = EIO;
			return -1;
		}
		if (st->final) {
			ms_digest_set_final_one(&b->set, st->lane, b->task->digest);
			return 0;
		} else {
			struct lane_arg la = { &b->set, st->lane };
			return ms_chunk_feed(&b->slot[st->chunk % b->ring].c,
			    update_lane, &la);
		}
	case STEP_NONE:
		break;
	}
	ms_bug("engine: empty step");
}

/* Under the lock: record what the step did and wake whoever can go on. */
static void
apply_step(struct ms_engine *e, struct step *st, int rc, int err)
{
	struct big *b = st->big;

	switch (st->kind) {
	case STEP_TASK:
		if (rc == 1)
			complete(e, st->task);
		return;
	case STEP_READ:
		b->reading = false;
		if (rc == 1) {
			ms_progress_add(e->cfg.progress,
			    b->slot[st->chunk % b->ring].c.len);
			b->slot[st->chunk % b->ring].pending = b->lanes;
			b->slot[st->chunk % b->ring].off = (uint64_t)b->src.pos -
			    b->slot[st->chunk % b->ring].c.len;
			b->produced++;
			b->read_done = b->src.eof;
		} else {
			b->read_done = true;
			if (rc == -1)
				b->err = err;
		}
		if (e->idle > 0)
			pthread_cond_broadcast(&e->work_cv);
		break;
	case STEP_LANE: {
		struct lane *l = &b->lane[st->lane];

		if (rc == -1 && b->err == 0)
			b->err = err;
		if (st->part) {
			void *state = b->set.state[st->lane];

			l->parts--;
			if (rc != -1)
				l->ready[st->chunk % b->ring] = true;
			/* Join every value that is next in line.  Its slot
			 * stays taken until then: the value lives beside it. */
			while (l->joined < l->next && l->ready[l->joined % b->ring]) {
				struct slot *s = &b->slot[l->joined % b->ring];

				l->ready[l->joined % b->ring] = false;
				l->tree->join(state, l->value[l->joined % b->ring],
				    s->off, s->c.len);
				l->last_part = true;
				consumed(e, b, l, l->joined++);
			}
			if (e->idle > 0 && l->parts == 0)
				pthread_cond_broadcast(&e->work_cv);
			break;
		}
		l->busy = false;
		if (st->final) {
			l->finished = true;
			b->finished++;
		} else {
			l->next++;
			l->joined = l->next;
			l->last_part = false;
			consumed(e, b, l, st->chunk);
		}
		break;
	}
	case STEP_NONE:
		return;
	}
	if (big_complete(b))
		retire(e, b);
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
	if (e->started)
		return;
	e->started = true;
	e->workers = ms_xcalloc(e->nworkers, sizeof(*e->workers));
	for (unsigned i = 0; i < e->nworkers; i++) {
		int rc;

		worker_init(&e->workers[i], e);
		rc = pthread_create(&e->workers[i].tid, NULL, worker_main,
		    &e->workers[i]);
		if (rc != 0)
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
	worker_init(&e->self, e);
	e->nworkers = e->cfg.jobs > 1 ? e->cfg.jobs : 0;
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
	complete(e, t);
	pthread_mutex_unlock(&e->lock);
	if (released)
		start_workers(e);
	drain(e, WINDOW - 1);
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
			complete(e, t);
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
			pthread_join(e->workers[i].tid, NULL);
			worker_free(&e->workers[i]);
		}
		while (e->spare != NULL) {
			struct big *b = e->spare;
			e->spare = b->next;
			ms_digest_set_destroy(&b->set);
			for (size_t i = 0; i < RING; i++)
				free(b->slot[i].buf);
			free(b);
		}
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
	cfg->progress = NULL;
}
