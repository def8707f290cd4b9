/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * engine_big.c - one large file hashed by many workers: when a file goes
 * big (engine.c's task step asks), its ring of shared read-only chunks,
 * and the steps that only a big file has, picked under the engine's lock:
 *   read  fill the next free slot of a big file's ring (a read, or a
 *         mapped window), so the copy leaves the hashing threads' path;
 *         a file not in the page cache is read past it (O_DIRECT, in
 *         slots of MS_DIRECT_READ in huge pages: source_ahead.c
 *         decides).
 *   lane  run one digest of a big file over its next chunk.  A digest is
 *         run by one worker at a time, but may move between workers at
 *         every chunk, so the wall time approaches max(slowest digest,
 *         total work / workers) rather than their sum.
 *   part  a tree digest (BLAKE3, the CRCs: algorithm.h's ms_tree_ops) is
 *         not bound to one worker: any worker hashes its next chunk on its
 *         own to a value, and the values are joined in order as they come,
 *         so one file with one digest keeps every worker busy.  A chunk is a part
 *         only when the digest accepts its offset and length and the file's
 *         size says it is not the last; the rest go through update.
 *
 * It does not queue, open or emit tasks, nor start or wait for threads:
 * that is engine.c, which calls this file and is never called by it.  A
 * big file's task is handed back finished (ms_engine_complete); a step
 * copies no data (chunks are read once into a slot, then hashed in
 * place by every lane) and takes no lock of its own.
 */
#include "engine/engine_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/portable.h"
#include "base/util.h"
#include "io/source_ahead.h"

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

/*
 * Is a file that outlasted its first buffer a candidate for the big-file
 * path?  Several digests gain from running side by side from 600 KB up
 * (measured, --io=read, 2 cores: 192 vs 169 MB/s; 589 vs 334 at 16 MiB).
 * A single digest gains only by taking the read copy off its thread,
 * which pays for the hand-offs from about 64 MiB (1 GiB sha256: 2050 vs
 * 1933 MB/s), and only if the digest is slower than the copy by far (see
 * ms_big_gains).  Streams of unknown length are candidates.
 *
 * A tree digest is split only if it takes chunks of len bytes as parts:
 * a CRC takes mapped windows, not read buffers, whose copy is the work
 * and is best hashed where it was made (backend_crc.c's part_ok).
 */
static bool
splittable(const struct ms_selection *sel, size_t len)
{
	for (size_t i = 0; i < sel->cnt; i++)
		if (sel->spec[i].algo->tree != NULL &&
		    sel->spec[i].algo->tree->part_ok(0, len))
			return true;
	return false;
}

/* A tree digest is split from four buffers up (1 MiB by default). */
bool
ms_big_candidate(struct ms_source *src, const struct ms_selection *sel,
    size_t buffer_size)
{
	off_t size = ms_source_size(src);
	size_t len = src->map && !src->unmapped ? MS_MMAP_WINDOW : buffer_size;

	if (size < 0)
		return true;
	if (splittable(sel, len) && size >= (off_t)(4 * buffer_size))
		return true;
	return sel->cnt > 1 ? size >= (off_t)(512 << 10) : size >= (off_t)(64 << 20);
}

/*
 * The first chunk's hash is timed: a single digest faster than
 * SPREAD_MAX_RATE (xxh3 and xxh128 with AVX2, about as fast as read(2)'s
 * copy itself) stays on the task's thread, where the chunk is still in
 * that core's cache; spread over two cores, 1 GiB of xxh3 went from 17.1
 * to 15.4 GB/s, while sha256 (2 GB/s) gains 6%.  Timing the read instead
 * misleads: the first read into a fresh buffer pays its page faults.
 */
#define SPREAD_MAX_RATE	4	/* bytes per ns: 4 GB/s */

bool
ms_big_gains(const struct ms_selection *sel, uint64_t t_hash, size_t len)
{
	return sel->cnt > 1 || splittable(sel, len) ||
	    t_hash * SPREAD_MAX_RATE > len;
}

/*
 * Under the lock: give b a ring of want slots for a file (mapped or
 * read), or fewer, at least two, within the memory bound: each slot a
 * read buffer (b keeps those it has, and their share of the bound), and
 * for a mapped file its window too (given back at retire).  Returns the
 * slots, 0 if not even two fit or could be allocated.
 */
static size_t
fit_ring(struct ms_engine *e, struct big *b, size_t want, bool mapped,
    size_t bs)
{
	if (b->nbuf > 0 && b->bs != bs) {	/* kept buffers of another size */
		for (size_t i = 0; i < b->nbuf; i++)
			free(b->slot[i].buf);
		ms_memory_give(e, b->nbuf * b->bs);
		b->nbuf = 0;
	}
	b->bs = bs;
	for (size_t n = want; n >= 2; n--) {
		size_t more = n > b->nbuf ? n - b->nbuf : 0;
		size_t windows = mapped ? n * MS_MMAP_WINDOW : 0;

		if (!ms_memory_take(e, more * bs + windows))
			continue;
		while (b->nbuf < n &&
		    (b->slot[b->nbuf].buf = ms_try_huge(bs)) != NULL)
			b->nbuf++;
		if (b->nbuf < n) {	/* out of memory: as many as there are */
			ms_memory_give(e, (n - b->nbuf) * bs + windows);
			return b->nbuf >= 2 ? fit_ring(e, b, b->nbuf, mapped,
			    bs) : 0;
		}
		b->windows = windows;
		return n;
	}
	return 0;
}

/*
 * Under the lock: turn an opened file, whose first chunk the worker has
 * already fed to set, into a big file.  The big file takes those digest
 * states (the worker gets the big file's spare ones in exchange) and goes
 * on from the second chunk.  Returns false if there is no room for it
 * (every worker has a big file, or the memory bound is reached: the file
 * is then hashed by its worker alone).
 */
bool
ms_big_promote(struct ms_engine *e, struct ms_task *t, struct ms_source *src,
    struct ms_digest_set *set)
{
	struct big *b;
	struct ms_digest_set swap;
	size_t ring, bs = e->cfg.buffer_size;
	bool direct, mapped;

	if (e->nworkers < 2 || e->nactive >= e->nworkers)
		return false;
	b = e->spare;
	if (b != NULL)
		e->spare = b->next;
	else if ((b = calloc(1, sizeof(*b))) == NULL)
		return false;
	/* A large file not in the page cache: read past it, in reads of
	 * whole MS_DIRECT_READs, each into its huge pages (source_ahead.c),
	 * unless --io=mmap says map. */
	direct = e->cfg.io != MS_IO_MMAP && ms_ahead_direct(src);
	if (direct)
		bs = (bs + MS_DIRECT_READ - 1) / MS_DIRECT_READ * MS_DIRECT_READ;
	mapped = src->map && !src->unmapped;
	ring = fit_ring(e, b, ms_ring_slots(bs, mapped), mapped, bs);
	if (ring == 0) {
		if (direct)	/* left on, it still reads: aligned buffers */
			(void)ms_ahead_direct_off(src);
		b->next = e->spare;
		e->spare = b;
		return false;
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
	b->ring = ring;
	b->produced = 1;
	b->reading = false;
	b->read_done = src->eof;
	b->gated = t->gated && !b->read_done;	/* the gate goes with it */
	b->err = 0;
	b->lanes = t->sel->cnt;
	b->finished = 0;
	b->size = ms_source_size(&b->src);
	memset(b->lane, 0, sizeof(b->lane));
	b->src.lazy = b->size >= 0;
	for (size_t i = 0; i < b->lanes; i++) {
		b->lane[i].next = b->lane[i].joined = 1;
		if (b->size >= 0)
			b->lane[i].tree = t->sel->spec[i].algo->tree;
		if (b->lane[i].tree == NULL)
			b->src.lazy = false;
	}
	b->next = e->active;
	e->active = b;
	e->nactive++;
	if (e->idle > 0)
		pthread_cond_broadcast(&e->work_cv);
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
	ms_memory_give(e, b->windows);
	b->windows = 0;
	b->task->size = (uint64_t)b->src.pos;
	b->task->err = b->err != 0 ? ms_source_error(&b->src, b->err) : 0;
	ms_source_close(&b->src);
	ms_engine_complete(e, b->task);
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
 * Under the lock: the most useful step of a big file for this worker, if
 * any; prev is
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
bool
ms_big_pick(struct ms_engine *e, struct step *st, const struct step *prev)
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
				return ms_big_pick(e, st, prev);
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
	return false;
}

struct part_arg {
	struct big	*b;
	struct lane	*l;
	struct slot	*s;
	uint64_t	 chunk;
};

/* The step owns its value slot until ms_big_apply marks it ready. */
static void
hash_part(void *arg, const void *p, size_t n)
{
	struct part_arg *pa = arg;

	pa->l->tree->part(&pa->b->task->sel->spec[pa->l - pa->b->lane], p, n,
	    pa->s->off, pa->l->value[pa->chunk % pa->b->ring]);
}

/*
 * Under the lock: a chunk of a lane is consumed; free its slot if last.
 * A mapped window goes to the step, which unmaps it after the lock is
 * let go (ms_big_drop): munmap is 14% of the CPU time of a mapped 1 GiB
 * CRC, and under the lock it held up the other workers' every step.
 */
static void
consumed(struct ms_engine *e, struct step *st, struct big *b, struct lane *l,
    uint64_t chunk)
{
	struct slot *s = &b->slot[chunk % b->ring];

	if (--s->pending == 0) {
		if (s->c.map != NULL)
			st->spent[st->nspent++] = s->c;
		s->c.map = NULL;
		/* Wake a reader only for a batch of free slots: one wake-up
		 * per chunk would cost the hashing thread a system call each
		 * time. */
		if (e->idle > 0 && !b->reading &&
		    (b->produced - l->next < 2 || (chunk + 1) % (b->ring / 2) == 0))
			pthread_cond_signal(&e->work_cv);
	}
}

/* Without the lock: do a read or lane step.  -1 with errno on failure. */
int
ms_big_run(struct step *st)
{
	struct big *b = st->big;

	switch (st->kind) {
	case STEP_READ: {
		struct slot *s = &b->slot[st->chunk % b->ring];
		return ms_source_next(&b->src, &s->c, s->buf, b->bs);
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
			errno = MS_ECHANGED;
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
	case STEP_TASK:
		break;
	}
	ms_bug("engine: not a big file's step");
}

bool
ms_big_gated(const struct ms_engine *e)
{
	for (const struct big *b = e->active; b != NULL; b = b->next)
		if (b->gated)
			return true;
	return false;
}

/* Under the lock: record what the step did and wake whoever can go on. */
void
ms_big_apply(struct ms_engine *e, struct step *st, int rc, int err)
{
	struct big *b = st->big;

	switch (st->kind) {
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
		if (b->read_done && b->gated) {	/* the next may be read */
			b->gated = false;
			e->gate_busy = false;
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
				consumed(e, st, b, l, l->joined++);
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
			consumed(e, st, b, l, st->chunk);
		}
		break;
	}
	case STEP_NONE:
	case STEP_TASK:
		return;
	}
	if (big_complete(b))
		retire(e, b);
}

/* Without the lock: release the chunks the step's apply freed. */
void
ms_big_drop(struct step *st)
{
	while (st->nspent > 0)
		ms_chunk_release(&st->spent[--st->nspent]);
}

/* The big files kept for reuse, once the workers are gone. */
void
ms_big_free_spares(struct ms_engine *e)
{
	while (e->spare != NULL) {
		struct big *b = e->spare;
		e->spare = b->next;
		ms_digest_set_destroy(&b->set);
		for (size_t i = 0; i < b->nbuf; i++)
			free(b->slot[i].buf);
		free(b);
	}
}
