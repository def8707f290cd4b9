/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * engine_memory.c - the bound on the engine's buffers (--memory): its
 * default from the machine, the plan that fits a run into it (a buffer
 * size, a number of workers), and the account a big file's ring draws
 * on.  A run holds fewer files in flight rather than more memory than
 * the bound: fewer workers, smaller buffers, shorter rings or none, a
 * file read rather than mapped.
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

/* MemAvailable of /proc/meminfo in bytes, or 0 if there is none. */
static uint64_t
mem_available(void)
{
	FILE *fp = fopen("/proc/meminfo", "re");
	char line[128];
	unsigned long long kb = 0;

	if (fp == NULL)
		return 0;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(fp);
	return (uint64_t)kb * 1024;
}

/* A quarter of a resource limit, or UINT64_MAX if there is none. */
static uint64_t
quarter_of_limit(int resource)
{
	struct rlimit rl;

	if (getrlimit(resource, &rl) == -1 || rl.rlim_cur == RLIM_INFINITY)
		return UINT64_MAX;
	return (uint64_t)rl.rlim_cur / 4;
}

size_t
ms_memory_default(void)
{
	uint64_t m = mem_available();
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t lim;

	/* Without MemAvailable (not Linux, or before 3.14): half of the
	 * physical memory stands for what is available. */
	if (m == 0 && pages > 0 && page > 0)
		m = (uint64_t)pages * (uint64_t)page / 2;
	m /= 4;
	if (m < MS_MEMORY_FLOOR)
		m = MS_MEMORY_FLOOR;
	/* A limit on the address space (ulimit -v) or the data segment
	 * (ulimit -d, which mmap'ed buffers count in) is obeyed below the
	 * floor too: the libraries, thread stacks and malloc's arenas live
	 * in the same space, hence a quarter of it. */
	lim = quarter_of_limit(RLIMIT_AS);
	if (quarter_of_limit(RLIMIT_DATA) < lim)
		lim = quarter_of_limit(RLIMIT_DATA);
	if (m > lim)
		m = lim;
	if (m < MS_MEMORY_MIN)
		m = MS_MEMORY_MIN;
	return m > SIZE_MAX ? SIZE_MAX : (size_t)m;
}

/*
 * Fit a run into cfg->memory (0: ms_memory_default): the caller's buffer
 * and one per worker, each cfg->buffer_size, must fit.  A buffer larger
 * than half the bound shrinks (to a multiple of 4 KiB); then there are as
 * many workers as buffers fit beside the caller's, at most cfg->jobs, and
 * none (a sequential run) if fewer than two would.  Returns the workers;
 * *spare is what is left for big files' rings.
 */
unsigned
ms_memory_plan(struct ms_engine_config *cfg, size_t *spare)
{
	size_t bs = cfg->buffer_size, fit;
	unsigned workers = cfg->jobs > 1 ? cfg->jobs : 0;

	if (cfg->memory == 0)
		cfg->memory = ms_memory_default();
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
