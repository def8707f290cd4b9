/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_run.c - one workload of a bench cell, run and timed: the
 * synthetic ones straight on the digest ops (one-shot and chunked on the
 * algorithm's own state, the small ones each on a new state), the FILE
 * and engine rows through the engine, the read rows through a source,
 * the cold read rows so too after their files' pages are evicted (not
 * timed).
 * Each timing reads the wall clock, the measuring thread's CPU clock and
 * the whole process's; every digest goes into a sink.  The engine row's
 * temporary file is written here, when the row first runs.  What a
 * timing means is bench_measure.c's.
 */
#include "bench/bench.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>	/* NAN: a macro only; no libm */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "io/source.h"
#include "base/portable.h"
#include "base/util.h"

/* Keeps the sink, hence every digest, alive to the compiler. */
static volatile uint64_t sink;

void
ms_bench_runner_done(struct ms_bench_runner *x)
{
	sink = x->sink;
	if (x->temp_fd >= 0)
		close(x->temp_fd);
	if (x->temp_unlink != NULL)
		unlink(x->temp_unlink);
	free(x->temp_path);
	x->temp_path = x->temp_unlink = NULL;
	x->temp_fd = -1;
}

/* CPU time of clock (the thread's, the process's); NAN where there is none. */
static double
cpu_ns(clockid_t clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts) == -1)
		return NAN;
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void
fold(struct ms_bench_runner *x, const unsigned char *d, size_t len)
{
	uint64_t v = 0;

	memcpy(&v, d, len < sizeof(v) ? len : sizeof(v));
	x->sink = (x->sink ^ v) * 0x100000001b3u;
}

static void
engine_emit(void *arg, struct ms_task *t)
{
	struct ms_bench_runner *x = arg;

	if (t->err != 0)
		x->err = t->err;
	else
		fold(x, t->digest, t->sel->out_len);
	ms_task_free(t);
}

/*
 * One pass of the engine over paths, as `multisum -a SEL PATHS` (or -r
 * over a tree) does: every path is a regular file (bench.c checked), so
 * each is opened as a walk opens what it found.  An empty selection reads
 * the files and hashes none: the tree workload's read floor.
 */
static int
engine_pass(struct ms_bench_runner *x, const struct ms_selection *sel,
    const char *const *paths, size_t npaths)
{
	struct ms_engine *e = ms_engine_start(&x->b->o->engine, engine_emit, x);

	for (size_t i = 0; i < npaths; i++) {
		struct ms_task *t = ms_task_new(paths[i], sel, NULL);

		t->walked = true;
		ms_engine_submit(e, t);
	}
	ms_engine_finish(e);
	return x->err != 0 ? -1 : 0;
}

static int
read_pass(struct ms_bench_runner *x, const char *path)
{
	struct ms_source src;
	struct ms_chunk c;
	int r;

	if (ms_source_open(&src, path, MS_IO_READ) == -1) {
		x->err = errno;
		return -1;
	}
	while ((r = ms_source_next(&src, &c, x->rbuf,
	    x->b->o->engine.buffer_size)) == 1) {
		x->sink += c.p[c.len - 1];
		ms_chunk_release(&c);
	}
	if (r == -1)
		x->err = errno;
	ms_source_close(&src);
	return r;
}

/*
 * The engine row's input when no FILE is given: the random data in a
 * temporary file, which stays in the page cache.  On Linux the file is
 * unlinked at once and reached through /proc, so that nothing is left
 * behind even if the run is killed.  x->temp_path is what the engine
 * opens, x->temp_unlink what to remove at the end (NULL: nothing).
 */
static int
make_engine_file(struct ms_bench_runner *x)
{
	const unsigned char *data = x->data;
	size_t len = x->temp_len;
	const char *dir = getenv("TMPDIR");
	char *tmp = ms_xasprintf("%s/multisum-bench.XXXXXX",
	    dir && *dir ? dir : "/tmp");
	int fd = mkstemp(tmp);

	if (fd == -1) {
		x->err = errno;
		ms_warn("%s: %s; no engine row", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	if (ms_write_full(fd, data, len) == -1) {
		x->err = errno;
		ms_warn("%s: %s; no engine row", tmp, strerror(x->err));
		close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	x->temp_path = ms_fd_path(fd, NULL);
	if (x->temp_path != NULL && access(x->temp_path, R_OK) == 0) {
		unlink(tmp);
		free(tmp);
	} else {
		free(x->temp_path);
		x->temp_path = x->temp_unlink = tmp;
	}
	x->temp_fd = fd;
	x->paths = &x->temp_path;
	x->npaths = 1;
	return 0;
}

/* Run the workload of c once. */
static int
run(struct ms_bench_runner *x, const struct ms_bench_cell *c)
{
	const struct ms_digest_spec *s = c->algo ? &c->algo->spec : NULL;
	const struct ms_digest_ops *ops = s ? s->algo->ops : NULL;
	unsigned char out[MS_DIGEST_MAX];
	size_t dlen = s ? ms_spec_len(s) : 0;
	const char *path = c->path;
	static const struct ms_bench_tree no_tree;
	const struct ms_bench_tree *tree = c->kind == MS_BENCH_FILE ||
	    c->kind == MS_BENCH_READ || c->kind == MS_BENCH_COLD ?
	    &x->b->trees[c->index] : &no_tree;
	static const struct ms_selection none;
	void *st;

	switch (c->kind) {
	case MS_BENCH_ONESHOT:
	case MS_BENCH_CHUNKED:
		st = x->state[c->algo - x->b->algo];
		ops->init(st);
		for (size_t i = 0; i < c->cnt; i++)
			ops->update(st, x->data + i * c->len, c->len);
		ops->final(st, out);
		fold(x, out, dlen);
		return 0;
	case MS_BENCH_SMALL:
		/* As a user hashing many small inputs would: a state each. */
		for (size_t i = 0; i < c->cnt; i++) {
			st = ops->create(s);
			if (st == NULL)
				ms_die("%s", strerror(ENOMEM));
			ops->init(st);
			ops->update(st, x->data + i * c->len, c->len);
			ops->final(st, out);
			ops->destroy(st);
			fold(x, out, dlen);
		}
		return 0;
	case MS_BENCH_FILE:
		if (tree->n > 0)
			return engine_pass(x, &c->algo->one,
			    (const char *const *)tree->paths, tree->n);
		return engine_pass(x, &c->algo->one, &path, 1);
	case MS_BENCH_READ:
	case MS_BENCH_COLD:
		if (tree->n > 0)
			return engine_pass(x, &none, (const char *const *)
			    tree->paths, tree->n);
		return read_pass(x, c->path);
	case MS_BENCH_ENGINE:
		if (x->npaths == 0 && make_engine_file(x) == -1)
			return -1;
		return engine_pass(x, &x->b->sel, (const char *const *)x->paths,
		    x->npaths);
	}
	ms_bug("bench: workload kind");
}

/*
 * Evict path's pages from the page cache, as --nocache does once a file
 * is read (posix_fadvise DONTNEED, after writing back what is dirty,
 * which DONTNEED leaves).  Pages another process maps stay.
 */
static int
evict_one(struct ms_bench_runner *x, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd == -1) {
		x->err = errno;
		return -1;
	}
	(void)fdatasync(fd);	/* a hint's preparation: may fail */
	ms_advise_dontneed(fd, 0, 0);
	close(fd);
	return 0;
}

/* Evict the cold row c's file, or every file below its directory. */
static int
evict(struct ms_bench_runner *x, const struct ms_bench_cell *c)
{
	const struct ms_bench_tree *tree = &x->b->trees[c->index];

	if (tree->n == 0)
		return evict_one(x, c->path);
	for (size_t i = 0; i < tree->n; i++)
		if (evict_one(x, tree->paths[i]) == -1)
			return -1;
	return 0;
}

int
ms_bench_timed(struct ms_bench_runner *x, const struct ms_bench_cell *c, unsigned reps,
    struct ms_bench_sample *t)
{
	double p0 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	double c0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	uint64_t t0 = ms_now_ns(), t1;

	for (unsigned i = 0; i < reps; i++) {
		if (c->kind == MS_BENCH_COLD) {
			/* each run reads from the disk: the eviction is not
			 * timed (its CPU time is little beside the read's) */
			uint64_t e0 = ms_now_ns();

			if (evict(x, c) == -1)
				return -1;
			t0 += ms_now_ns() - e0;
		}
		if (run(x, c) == -1)
			return -1;
	}
	t1 = ms_now_ns();
	t->cpu = ms_dmax(cpu_ns(CLOCK_THREAD_CPUTIME_ID) - c0, 1);
	t->proc = ms_dmax(cpu_ns(CLOCK_PROCESS_CPUTIME_ID) - p0, 1);
	t->wall = t1 > t0 ? (double)(t1 - t0) : 1;
	if (t->cpu != t->cpu || t->proc != t->proc) {
		/* no CPU clocks here: the wall clock is all there is */
		t->cpu = t->proc = t->wall;
	}
	return 0;
}
