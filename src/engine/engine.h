/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * engine.h - drive sources through digest sets, on one thread or many.
 *
 * The caller submits tasks (a path and a selection, or an open source) in
 * the order it wants results; the engine hashes them with its workers and
 * hands every finished task back, in submission order, to the caller's
 * emit function on the caller's own thread.  With one job no thread is
 * ever created.
 */
#ifndef MS_ENGINE_H
#define MS_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "digest/compose.h"
#include "digest/digest_set.h"
#include "engine/engine_sequential.h"
#include "io/progress.h"
#include "io/source.h"
#include "io/walk.h"

/*
 * The largest --buffer-size: each worker has one buffer, and a big file's
 * ring up to 16 MiB of them (at least two), so memory stays bounded.
 */
#define MS_BUFFER_MAX	(64u << 20)

/*
 * Chunks in flight in a big file's ring: read buffers of at most 16 MiB
 * in all (at least two, at most MS_RING_MAX), so that memory is bounded
 * whatever --buffer-size is, and mapped windows, which are resident, at
 * most 8 (8 x MS_MMAP_WINDOW = 32 MiB per big file).
 */
#define MS_RING_MAX	16

/*
 * A big file read past the page cache (O_DIRECT: source_ahead.c) is read
 * in slots of at least this, each one huge page (ms_try_huge): a direct
 * read is then one segment of the disk's request, where a read into
 * 4 KiB pages is one a page and the queue takes 254 (virtio-blk).  On
 * this project's VM, 7 interleaved cold rounds of 4 GiB, -a blake3: 1 MiB
 * slots of 4 KiB pages 2.60 s, 2 MiB slots of 4 KiB pages 2.19 s, 1 MiB
 * in huge pages 1.65 s, 2 MiB huge pages 1.48 s; fio's reads of 1 MiB
 * (psync, O_DIRECT) 1.80 s.
 */
#define MS_DIRECT_READ	(2u << 20)

static inline size_t
ms_ring_slots(size_t buffer_size, bool mapped)
{
	size_t n = (16u << 20) / buffer_size;

	n = n < 2 ? 2 : n > MS_RING_MAX ? MS_RING_MAX : n;
	return mapped && n > 8 ? 8 : n;
}

struct ms_engine_config {
	unsigned	 jobs;		/* worker threads; 1 = sequential */
	enum ms_io	 io;
	size_t		 buffer_size;	/* bytes per read */
	bool		 nocache;	/* drop each file's pages once read */
	size_t		 memory;	/* bound on all buffers (--memory);
					 * 0: ms_memory_default() */
	struct ms_progress *progress;	/* told of every chunk, or NULL */
	bool		 debug;		/* --debug: say each device's plan */
};

struct ms_task {
	/* set by the caller */
	const char	*path;		/* "-" is standard input */
	const struct ms_selection *sel;
	void		*user;		/* the caller's, untouched */
	bool		 walked;	/* found by a walk: must be regular still */
	/* where it lies, as the walk's entry or the caller's stat said:
	 * the read order needs no stat of its own then; ino 0: not known */
	dev_t		 dev;
	ino_t		 ino;
	/* --part: hash only the part's bytes, on one worker, and save each
	 * digest's state in it instead of a digest (compose.h) */
	struct ms_part	*part;
	/* set by the engine */
	int		 err;		/* errno of the failure, 0 if hashed */
	uint64_t	 size;		/* bytes hashed */
	/* engine-private */
	size_t		 seq;
	bool		 done;
	bool		 stream;	/* read alone, in order (ms_source_is_stream) */
	bool		 gated;		/* on a seeking device: its one reader */
	size_t		 cap;		/* bytes allocated, for reuse */
	struct ms_task	*next;
	unsigned char	 digest[];	/* sel->out_len bytes */
};

/*
 * --memory: the bound on every buffer of a run together (the workers'
 * read buffers, a big file's ring of buffers or mapped windows), which
 * the engine keeps by holding fewer files in flight (engine_memory.c).
 * The default is a quarter of the memory available, at least
 * MS_MEMORY_FLOOR, and at most a quarter of a ulimit -v or -d; never
 * less than MS_MEMORY_MIN, the smallest --memory.
 */
#define MS_MEMORY_FLOOR	((size_t)64 << 20)
#define MS_MEMORY_MIN	((size_t)1 << 20)
size_t	 ms_memory_default(void);

/* The defaults of every front end: one job per usable CPU (at most
 * MS_JOBS_DEFAULT_MAX), automatic I/O, 256 KiB reads, the default
 * memory bound, pages left in the cache, no progress. */
#define MS_JOBS_DEFAULT_MAX	256
void	 ms_engine_defaults(struct ms_engine_config *cfg);

typedef void ms_emit_fn(void *arg, struct ms_task *t);

/* A task for (a copy of) path.  Free with ms_task_free (on any thread:
 * a freed task is kept for the next ms_task_new of the same thread). */
struct ms_task *ms_task_new(const char *path, const struct ms_selection *sel,
	    void *user);
void	 ms_task_free(struct ms_task *t);
/* t's walked, dev and ino from what the walk found (NULL: an operand). */
void	 ms_task_found(struct ms_task *t, const struct ms_walked *found);
/* The calling thread's kept tasks go back to malloc (ms_engine_finish). */
void	 ms_task_release(void);

struct ms_engine;

/* Every selection used with the engine must be loaded first. */
struct ms_engine *ms_engine_start(const struct ms_engine_config *cfg,
	    ms_emit_fn *emit, void *arg);

/*
 * Queue t.  Tasks finished by then are emitted first; blocks (emitting)
 * while too many tasks are outstanding.  emit owns the task it gets.
 */
void	 ms_engine_submit(struct ms_engine *e, struct ms_task *t);

/*
 * An already-open source (an archive member, which only a sequential pass
 * can read): ms_engine_read_source reads src to its end into t, on the
 * caller's thread, with the engine's buffer, digest states and progress
 * (t->err on failure); ms_engine_submit_done then queues t, complete as
 * it is (also one the caller filled itself, as for a hard link), to be
 * emitted in submission order like every other task.
 */
void	 ms_engine_read_source(struct ms_engine *e, struct ms_task *t,
	    struct ms_source *src);
void	 ms_engine_submit_done(struct ms_engine *e, struct ms_task *t);

/*
 * Wait for the oldest outstanding task and emit it, with every finished
 * one after it: a caller that keeps state per task bounds it so.  Returns
 * false (at once) if no task is outstanding.
 */
bool	 ms_engine_wait(struct ms_engine *e);

/* Emit every outstanding task, stop the workers, free the engine. */
void	 ms_engine_finish(struct ms_engine *e);

#endif
