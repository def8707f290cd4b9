/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * engine_memory.c - what a run takes of the machine: the defaults of
 * every front end (ms_engine_defaults: a job per usable CPU), and the
 * bound on the engine's buffers (--memory): its default from the
 * machine, the plan that fits a run into it (a buffer size, a number of
 * workers), and the account a big file's ring draws on.  A run holds
 * fewer files in flight rather than more memory than the bound: fewer
 * workers, smaller buffers, shorter rings or none, a file read rather
 * than mapped.
 * What the bound allows may still fail to allocate (a ulimit below it);
 * the file in hand then fails (ENOMEM, exit 1), never the run.
 *
 * engine.c and engine_big.c call this file; it calls neither.  It
 * allocates nothing itself and keeps its account in the engine's state,
 * under the engine's lock.
 */
#include "engine/engine_impl.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/portable.h"

/* A quarter of a resource limit, or UINT64_MAX if there is none. */
static uint64_t
quarter_of_limit(int resource)
{
	struct rlimit rl;

	if (getrlimit(resource, &rl) == -1 || rl.rlim_cur == RLIM_INFINITY)
		return UINT64_MAX;
	return (uint64_t)rl.rlim_cur / 4;
}

/* The limits' part of the default: at most a quarter of a ulimit -v or
 * -d, at least MS_MEMORY_MIN. */
static uint64_t
within_limits(uint64_t m)
{
	/* A limit on the address space (ulimit -v) or the data segment
	 * (ulimit -d, which mmap'ed buffers count in) is obeyed below the
	 * floor too: the libraries, thread stacks and malloc's arenas live
	 * in the same space, hence a quarter of it. */
	uint64_t lim = quarter_of_limit(RLIMIT_AS);

	if (quarter_of_limit(RLIMIT_DATA) < lim)
		lim = quarter_of_limit(RLIMIT_DATA);
	if (m > lim)
		m = lim;
	if (m < MS_MEMORY_MIN)
		m = MS_MEMORY_MIN;
	return m > SIZE_MAX ? SIZE_MAX : m;
}

size_t
ms_memory_default(void)
{
	uint64_t m = ms_memory_available();

	m /= 4;
	if (m < MS_MEMORY_FLOOR)
		m = MS_MEMORY_FLOOR;
	return (size_t)within_limits(m);
}

/*
 * What the default is at least, without reading /proc/meminfo: the floor
 * within the limits.  A run starts on it and learns the default only
 * when a ring or a window would go beyond it (ms_memory_take), so that
 * a run of small files never pays for the kernel's memory report.
 */
static size_t
default_at_least(void)
{
	return (size_t)within_limits(MS_MEMORY_FLOOR);
}

/*
 * Fit a run into cfg->memory (0: the default; *lazy then says that the
 * plan took what the default is at least, and ms_memory_take learns the
 * rest): the caller's buffer and one per worker, each cfg->buffer_size,
 * must fit.  A buffer larger than half the bound shrinks (to a multiple
 * of 4 KiB); then there are as many workers as buffers fit beside the
 * caller's, at most cfg->jobs, and none (a sequential run) if fewer than
 * two would.  Returns the workers; *spare is what is left for big files'
 * rings.
 */
unsigned
ms_memory_plan(struct ms_engine_config *cfg, size_t *spare, bool *lazy)
{
	size_t bs = cfg->buffer_size, fit;
	unsigned workers = cfg->jobs > 1 ? cfg->jobs : 0;

	*lazy = false;
	if (cfg->memory == 0) {
		cfg->memory = default_at_least();
		/* the default cannot be less; learn it later if the buffers
		 * fit into what it is at least, now if they do not */
		*lazy = ((size_t)workers + 1) * bs <= cfg->memory / 2;
		if (!*lazy)
			cfg->memory = ms_memory_default();
	}
	if (bs > cfg->memory / 2) {
		bs = cfg->memory / 2 & ~(size_t)4095;
		cfg->buffer_size = bs < 4096 ? 4096 : bs;
		bs = cfg->buffer_size;
	}
	fit = cfg->memory / bs - 1;
	if (workers > fit)
		workers = (unsigned)fit;
	if (workers < 2)
		workers = 0;
	*spare = cfg->memory - ((size_t)workers + 1) * bs;
	return workers;
}

bool
ms_memory_take(struct ms_engine *e, size_t n)
{
	if (n > e->mem_spare && e->mem_lazy) {
		size_t m = ms_memory_default();

		e->mem_lazy = false;
		if (m > e->cfg.memory) {
			e->mem_spare += m - e->cfg.memory;
			e->cfg.memory = m;
		}
	}
	if (n > e->mem_spare)
		return false;
	e->mem_spare -= n;
	return true;
}

void
ms_memory_give(struct ms_engine *e, size_t n)
{
	e->mem_spare += n;
}

size_t
ms_memory_window(struct ms_engine *e, struct ms_source *src)
{
	bool ok;

	if (!src->map)
		return 0;
	if (e->nworkers > 0)
		pthread_mutex_lock(&e->lock);
	ok = ms_memory_take(e, MS_MMAP_WINDOW);
	if (e->nworkers > 0)
		pthread_mutex_unlock(&e->lock);
	if (ok)
		return MS_MMAP_WINDOW;
	src->map = false;	/* nothing was read yet: read(2) from the start */
	return 0;
}

void
ms_memory_window_done(struct ms_engine *e, size_t n)
{
	if (n == 0)
		return;
	if (e->nworkers > 0)
		pthread_mutex_lock(&e->lock);
	ms_memory_give(e, n);
	if (e->nworkers > 0)
		pthread_mutex_unlock(&e->lock);
}

void
ms_engine_defaults(struct ms_engine_config *cfg)
{
	long cpus = ms_usable_cpus();

	cfg->jobs = cpus > 0 ? (unsigned)(cpus > MS_JOBS_DEFAULT_MAX ?
	    MS_JOBS_DEFAULT_MAX : cpus) : 1;
	cfg->io = MS_IO_AUTO;
	cfg->buffer_size = 256 * 1024;
	cfg->nocache = false;
	cfg->memory = 0;
	cfg->progress = NULL;
}
