/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * unit-memory.c - the memory bound's plan (engine/engine_memory.c) when
 * the default is learnt late: a run whose buffers fit into what the
 * default is at least starts on that, without reading /proc/meminfo,
 * and the first take beyond it learns the whole default, so that a ring
 * gets what an eager plan would have given it; a run whose buffers do
 * not fit learns the default at once; a --memory given is never grown.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>

#include "engine/engine_impl.h"

#include "tap.h"

/* A sequential engine (no lock) planned from cfg. */
static void
planned(struct ms_engine *e, const struct ms_engine_config *cfg)
{
	memset(e, 0, sizeof(*e));
	e->cfg = *cfg;
	e->nworkers = ms_memory_plan(&e->cfg, &e->mem_spare, &e->mem_lazy);
}

static bool
no_limits(void)
{
	struct rlimit as, data;

	return getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur == RLIM_INFINITY &&
	    getrlimit(RLIMIT_DATA, &data) == 0 &&
	    data.rlim_cur == RLIM_INFINITY;
}

int
main(void)
{
	struct ms_engine_config cfg;
	struct ms_engine e;
	size_t bs = 256 * 1024, full = ms_memory_default();

	ms_engine_defaults(&cfg);
	cfg.jobs = 2;

	if (!no_limits() || full < MS_MEMORY_FLOOR + 4 * bs) {
		tap_skip("a ulimit -v or -d, or too little memory available",
		    "the default learnt late");
		return tap_done();
	}

	planned(&e, &cfg);
	tap_ok(e.mem_lazy, "a run of small buffers plans without the default");
	tap_is_int((long)(e.cfg.memory >> 20), (long)(MS_MEMORY_FLOOR >> 20),
	    "it starts on the floor (MiB)");
	tap_is_int(e.nworkers, 2, "with the workers it asked for");
	tap_is_int((long)e.mem_spare, (long)(MS_MEMORY_FLOOR - 3 * bs),
	    "and the floor less three buffers spare");

	tap_ok(ms_memory_take(&e, bs), "a take within the floor");
	tap_ok(e.mem_lazy, "does not learn the default");

	/* Beyond the floor: the default is learnt, and the take fits. */
	tap_ok(ms_memory_take(&e, MS_MEMORY_FLOOR), "a take beyond the floor");
	tap_ok(!e.mem_lazy, "learns the default");
	tap_ok(e.cfg.memory >= full - full / 8 && e.cfg.memory <= full + full / 8,
	    "which is the default an eager plan reads (within what "
	    "MemAvailable moves by)");
	tap_ok(!ms_memory_take(&e, e.cfg.memory), "and bounds the run by it");

	/* Buffers beyond half the floor: the default at once. */
	cfg.jobs = (unsigned)(MS_MEMORY_FLOOR / bs);
	planned(&e, &cfg);
	tap_ok(!e.mem_lazy, "many workers' buffers learn the default at once");
	tap_is_int(e.nworkers, (long)cfg.jobs, "and get every worker");

	/* --memory: never grown, whatever is available. */
	cfg.jobs = 2;
	cfg.memory = (size_t)8 << 20;
	planned(&e, &cfg);
	tap_ok(!e.mem_lazy, "--memory is not a default to learn");
	tap_ok(!ms_memory_take(&e, (size_t)8 << 20),
	    "and a take beyond it fails");
	tap_is_int((long)e.cfg.memory, (long)8 << 20, "--memory kept");
	return tap_done();
}
