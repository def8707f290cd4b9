/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_measure.c - what the bench measures and how: the known-answer
 * self-tested algorithms' calibration pass (which also warms every one
 * up), and then one cell per algorithm and workload, each given its
 * share of --bench-time: a warm-up run, then repeated timed runs on the
 * monotonic clock, of which the median, minimum and maximum MB/s (10^6
 * bytes per second) are kept.  Every digest is folded into a sink so
 * that no work can be optimised away.  The FILE and engine rows go
 * through the real engine, threads and I/O included.
 *
 * The time budget holds: a synthetic cell (16 MiB at most) always gets
 * one run, but a FILE, read or engine run, whose size has no bound, is
 * not started when, by its estimate, it would end past the budget (the
 * promise is 1.2 budgets: the rest is for estimates that were short);
 * such a cell is marked over_budget and the report says so.
 */
#include "bench/bench.h"

#include <errno.h>
#include <math.h>	/* NAN, INFINITY: macros only; no libm */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "io/source.h"
#include "base/util.h"

#define SAMPLE_MIN_NS	2e6	/* a timed run should last this long at least */
#define WARM_NS		10e6	/* the most a synthetic warm-up should take */
#define RUNS_MAX	15	/* timed runs per cell, at most */
#define REPS_MAX	1000000	/* workloads per timed run, at most */
#define EST_MIN_NS	1e3	/* no workload is planned as cheaper */
#define READ_GUESS	2.0	/* bytes per ns of a read never measured */
#define CELL_CAP	0.05	/* of the budget: the most one cell may get */
#define DISTURBED	0.9	/* a run that had less of a CPU was preempted */


/* What every workload run needs. */
struct ctx {
	struct ms_bench	*b;
	const unsigned char *data;	/* random, enough for any workload */
	void		**state;	/* per algorithm: one-shot, chunked */
	unsigned char	*rbuf;		/* read buffer of the read rows */
	char		**paths;	/* what the engine row hashes */
	size_t		 npaths;
	uint64_t	 sink;		/* every digest ends up in here */
	int		 err;		/* errno of a failed file */
	uint64_t	 hard;		/* no file run may end after this */
	struct slot	*sl;		/* the plan of every cell */
};

/* A cell's plan and progress, private to the measurement. */
struct slot {
	bool		 live;		/* to be measured, not failed */
	double		 est;		/* ns a workload: guessed, then seen */
	double		 share;		/* ns planned for the cell */
	double		 warm;		/* ns planned for its warm-up */
	bool		 capped;	/* its share hit the cap */
	unsigned	 runs;		/* timed runs wanted */
	unsigned	 reps;		/* workloads in each */
	unsigned	 got;		/* timed runs done */
	double		 mbps[RUNS_MAX];
	double		 wall, cpu;	/* ns over the counted runs */
	struct {			/* the last disturbed run */
		double	 mbps, wall, cpu;
		bool	 kept;
	}		 spare;
};

/* Keeps the sink, hence every digest, alive to the compiler. */
static volatile uint64_t sink;

/* CPU time of the whole process, every thread; NAN where there is none. */
static double
cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == -1)
		return NAN;
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void
fold(struct ctx *x, const unsigned char *d, size_t len)
{
	uint64_t v = 0;

	memcpy(&v, d, len < sizeof(v) ? len : sizeof(v));
	x->sink = (x->sink ^ v) * 0x100000001b3u;
}

static void
engine_emit(void *arg, struct ms_task *t)
{
	struct ctx *x = arg;

	if (t->err != 0)
		x->err = t->err;
	else
		fold(x, t->digest, t->sel->out_len);
	ms_task_free(t);
}

/* One pass of the engine over paths, as `multisum -a SEL PATHS` does. */
static int
engine_pass(struct ctx *x, const struct ms_selection *sel,
    const char *const *paths, size_t npaths)
{
	struct ms_engine *e = ms_engine_start(&x->b->o->engine, engine_emit, x);

	for (size_t i = 0; i < npaths; i++)
		ms_engine_submit(e, ms_task_new(paths[i], sel, NULL));
	ms_engine_finish(e);
	return x->err != 0 ? -1 : 0;
}

static int
read_pass(struct ctx *x, const char *path)
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

/* Run the workload of c once. */
static int
run(struct ctx *x, const struct ms_bench_cell *c)
{
	const struct ms_digest_spec *s = c->algo ? &c->algo->spec : NULL;
	const struct ms_digest_ops *ops = s ? s->algo->ops : NULL;
	unsigned char out[MS_DIGEST_MAX];
	size_t dlen = s ? ms_spec_len(s) : 0;
	const char *path = c->path;
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
			st = ops->create(s->algo, dlen);
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
		return engine_pass(x, &c->algo->one, &path, 1);
	case MS_BENCH_READ:
		return read_pass(x, c->path);
	case MS_BENCH_ENGINE:
		return engine_pass(x, &x->b->sel, (const char *const *)x->paths,
		    x->npaths);
	}
	ms_bug("bench: workload kind");
}

/* Time reps runs of c: wall ns, and the CPU ns into *cpu. */
static double
timed(struct ctx *x, const struct ms_bench_cell *c, unsigned reps, double *cpu)
{
	double c0 = cpu_ns();
	uint64_t t0 = ms_now_ns(), t1;

	for (unsigned i = 0; i < reps; i++)
		if (run(x, c) == -1)
			return -1;
	t1 = ms_now_ns();
	*cpu = cpu_ns() - c0;
	return t1 > t0 ? (double)(t1 - t0) : 1;
}

/* Predicted ns of one workload of c, from what is known so far. */
static double
guess(const struct ms_bench *b, const struct ms_bench_cell *c)
{
	double sum = 0;
	size_t n = 0;

	switch (c->kind) {
	case MS_BENCH_ONESHOT:
	case MS_BENCH_CHUNKED:
		return (double)c->bytes / c->algo->rate;
	case MS_BENCH_SMALL:
		return (double)c->cnt * c->algo->small_ns;
	case MS_BENCH_READ:
		return (double)c->bytes / READ_GUESS;
	case MS_BENCH_FILE:
		return (double)c->bytes / ms_dmin(c->algo->rate, READ_GUESS);
	case MS_BENCH_ENGINE:
		for (size_t i = 0; i < b->nalgo; i++) {
			const struct ms_bench_algo *a = &b->algo[i];

			if (a->selected && a->kat != MS_KAT_FAIL) {
				sum += 1 / a->rate;
				n++;
			}
		}
		return (double)c->bytes * sum / (n < b->jobs ? n : b->jobs);
	}
	return 1e6;
}

/* The guess, but never so small that a plan divides by nearly nothing. */
static double
estimate(const struct ms_bench *b, const struct ms_bench_cell *c)
{
	return ms_dmax(guess(b, c), EST_MIN_NS);
}

static int
cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

static bool
synthetic_kind(enum ms_bench_kind k)
{
	return k == MS_BENCH_ONESHOT || k == MS_BENCH_CHUNKED ||
	    k == MS_BENCH_SMALL;
}

/*
 * In-memory work on one thread keeps the CPU busy for the whole run; a
 * run that got less of it was descheduled (other load on the machine, a
 * hypervisor's steal) and says nothing about the algorithm.
 */
static bool
disturbed(const struct ms_bench_cell *c, double wall, double cpu)
{
	return synthetic_kind(c->kind) && cpu < DISTURBED * wall;
}

/*
 * About frac of c's workload, to warm up with: a prefix of the buffer,
 * fewer chunks, fewer small digests.  The same code on the same data,
 * only shorter.
 */
static struct ms_bench_cell
part_of(const struct ms_bench_cell *c, double frac)
{
	struct ms_bench_cell w = *c;

	if (c->kind == MS_BENCH_ONESHOT)
		w.len = (size_t)ms_dmax(4096, ms_floor(c->len * frac / 64) * 64);
	else
		w.cnt = (size_t)ms_dmax(1, ms_floor(c->cnt * frac));
	w.bytes = (uint64_t)w.len * w.cnt;
	return w;
}

/*
 * Water-filling: every live cell gets a share of left proportional to
 * its cost, so that all get about as many runs, except that no
 * algorithm's cell gets more than cap (one pathological cell, a library
 * that starts threads for every small digest, must not starve the rest)
 * nor less than one run.  The engine row is one figure, not one of many:
 * it is not capped.  Cap the cells that overflow, spread what is left
 * over the others, and repeat until nothing new overflows.
 */
static void
plan_shares(const struct ms_bench *b, struct slot *sl, double left, double cap)
{
	double *most = ms_xcalloc(b->ncell, sizeof(*most));
	double k = 0;
	bool changed = true;

	for (size_t j = 0; j < b->ncell; j++)
		most[j] = b->cell[j].kind == MS_BENCH_ENGINE ? INFINITY :
		    ms_dmax(cap, sl[j].est);
	while (changed) {
		double capped = 0, cost = 0, nk;

		for (size_t j = 0; j < b->ncell; j++) {
			double u = ms_dmax(sl[j].est, SAMPLE_MIN_NS);

			if (!sl[j].live)
				continue;
			if (k > 0 && k * u >= most[j])
				capped += most[j];
			else
				cost += u;
		}
		if (cost == 0 || left <= capped)
			break;
		nk = (left - capped) / cost;
		changed = false;
		for (size_t j = 0; j < b->ncell; j++) {
			double u = ms_dmax(sl[j].est, SAMPLE_MIN_NS);

			if (sl[j].live && !(k > 0 && k * u >= most[j]) &&
			    nk * u >= most[j])
				changed = true;
		}
		k = nk;
	}
	for (size_t j = 0; j < b->ncell; j++) {
		double want = k * ms_dmax(sl[j].est, SAMPLE_MIN_NS);

		sl[j].share = ms_dmin(want, most[j]);
		sl[j].capped = want > most[j];
	}
	free(most);
}

/*
 * Turn a cell's share into a warm-up, a number of timed runs and the
 * workloads in each.  The warm-up is a timed run's worth of work, but no
 * more than WARM_NS of a synthetic workload (and briefly when the share
 * is short: the calibration has run this code already); a file or engine
 * row warms up with a whole run if its share has room for two.  Each
 * timed run lasts SAMPLE_MIN_NS at least; runs are rounded, not floored,
 * so that what one cell leaves over or takes beyond its share evens out.
 */
static void
plan_runs(const struct ms_bench_cell *c, struct slot *s, bool warmed)
{
	double est = s->est, avail;

	if (warmed) {
		s->warm = 0;
	} else if (synthetic_kind(c->kind)) {
		s->warm = ms_dmin(ms_dmax(est, SAMPLE_MIN_NS), WARM_NS);
		if (s->share < est + s->warm)
			s->warm = ms_dmax(s->share - est, s->warm / 10);
	} else {
		s->warm = s->share >= 2 * est ? est : 0;
	}
	avail = ms_dmax(s->share - s->warm, 0);
	s->runs = (unsigned)ms_dmin(ms_dmax(ms_round(avail / ms_dmax(est, SAMPLE_MIN_NS)),
	    1), RUNS_MAX);
	s->reps = (unsigned)ms_dmin(ms_dmax(1, ms_round(avail / (s->runs * est))),
	    REPS_MAX);
}

/* Share out the time left among the live cells and plan their runs. */
static void
plan(const struct ms_bench *b, struct slot *sl, uint64_t deadline, bool warmed)
{
	uint64_t now = ms_now_ns();

	plan_shares(b, sl, deadline > now ? (double)(deadline - now) : 0,
	    b->budget * 1e9 * CELL_CAP);
	for (size_t i = 0; i < b->ncell; i++)
		if (sl[i].live)
			plan_runs(&b->cell[i], &sl[i], warmed);
}

/* ns the synthetic cells' first runs, all still to come, will take. */
static double
reserve(const struct ctx *x)
{
	double ns = 0;

	for (size_t i = 0; i < x->b->ncell; i++)
		if (synthetic_kind(x->b->cell[i].kind) && x->sl[i].live &&
		    x->sl[i].got == 0)
			ns += x->sl[i].est * x->sl[i].reps;
	return ns;
}

/*
 * May a run of c taking ns start now?  A synthetic workload may: it is
 * 16 MiB at most; so may the engine row over its 16 MiB temporary file,
 * and a run too short to matter (WARM_NS).  A FILE, read or engine run
 * over FILE operands is as long as the files, so it must leave time for
 * the synthetic cells' first runs and end, by its estimate, within the
 * budget.
 */
static bool
fits(const struct ctx *x, const struct ms_bench_cell *c, double ns)
{
	return synthetic_kind(c->kind) || ns <= WARM_NS ||
	    (c->kind == MS_BENCH_ENGINE && x->b->nfiles == 0) ||
	    ms_now_ns() + ns + reserve(x) <= x->hard;
}

/* Put a failure on the cell and take it out of the measurement. */
static void
fail_cell(struct ctx *x, struct ms_bench_cell *c, struct slot *s)
{
	c->err = x->err;
	x->err = 0;
	s->live = false;
}

/* Warm c up as planned; what that took replaces the predicted cost. */
static void
warm_up(struct ctx *x, struct ms_bench_cell *c, struct slot *s)
{
	struct ms_bench_cell w = *c;
	unsigned wreps = (unsigned)ms_dmax(1, ms_round(s->warm / s->est));
	double t, tc;

	if (s->warm <= 0 || !fits(x, c, s->warm))
		return;
	if (s->warm < s->est)
		w = part_of(c, s->warm / s->est);
	if ((t = timed(x, &w, wreps, &tc)) < 0) {
		fail_cell(x, c, s);
		return;
	}
	s->est = ms_dmax(t * ((double)c->bytes / (double)w.bytes) / wreps,
	    EST_MIN_NS);
}

/*
 * One timed run of c.  A disturbed run is not counted; it is done again
 * in a later round, up to as many times as the cell has runs.
 */
static void
time_run(struct ctx *x, struct ms_bench_cell *c, struct slot *s)
{
	double t, tc;

	if ((t = timed(x, c, s->reps, &tc)) < 0) {
		fail_cell(x, c, s);
		return;
	}
	s->est = ms_dmax(t / s->reps, EST_MIN_NS);
	if (disturbed(c, t, tc)) {
		if (c->disturbed < s->runs) {
			c->disturbed++;
			s->spare.mbps = (double)c->bytes * s->reps / t * 1e3;
			s->spare.wall = t;
			s->spare.cpu = tc;
			s->spare.kept = true;
			return;
		}
		c->disturbed_kept++;	/* out of retries: counted */
	}
	s->mbps[s->got++] = (double)c->bytes * s->reps / t * 1e3;
	s->wall += t;
	s->cpu += tc;
}

/* Median, minimum and maximum of what the cell's runs measured. */
static void
finish_cell(struct ms_bench_cell *c, struct slot *s)
{
	unsigned n = s->got;

	if (s->live && n == 0 && s->spare.kept) {
		/*
		 * Every run was disturbed and the budget left no round to
		 * retry in: the cell keeps its last run, marked as kept
		 * although disturbed (a tentative figure), rather than no
		 * figure at all on a busy machine.
		 */
		s->mbps[n++] = s->spare.mbps;
		s->wall = s->spare.wall;
		s->cpu = s->spare.cpu;
		c->disturbed_kept++;
	}
	if (!s->live || n == 0)
		return;
	qsort(s->mbps, n, sizeof(s->mbps[0]), cmp_double);
	c->runs = n;
	c->repeat = s->reps;
	c->min = s->mbps[0];
	c->max = s->mbps[n - 1];
	c->median = n % 2 ? s->mbps[n / 2] :
	    (s->mbps[n / 2 - 1] + s->mbps[n / 2]) / 2;
	c->cpu = s->cpu / s->wall;
	c->measured = true;
}

/*
 * The order of the cells in a round: the read rows first (the verdict on
 * the FILE rows needs them), then the other rows whose size has no
 * bound, so that fits() decides on them while the synthetic cells' first
 * runs are still to come, then the synthetic cells.
 */
static size_t *
round_order(const struct ms_bench *b)
{
	size_t *order = ms_xcalloc(b->ncell ? b->ncell : 1, sizeof(*order));
	size_t n = 0;

	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < b->ncell; i++) {
			enum ms_bench_kind k = b->cell[i].kind;

			if ((pass == 0 && k == MS_BENCH_READ) ||
			    (pass == 1 && k != MS_BENCH_READ &&
			    !synthetic_kind(k)) ||
			    (pass == 2 && synthetic_kind(k)))
				order[n++] = i;
		}
	return order;
}

/*
 * Measure every runnable cell by the deadline.  After a plan, a warm-up
 * pass (reads first, so that the FILE rows find the page cache warm) and
 * a second plan from what the warm-ups took, the timed runs go in
 * rounds, one run of every cell per round: a burst of outside load (a
 * neighbour on the sibling hyperthread, which slows a run without taking
 * its CPU time) then costs many cells one run each, which their medians
 * discard, rather than all the runs of a few.
 * Every synthetic cell gets a first run, and every other one that fits
 * the budget's slack (fits); after that, a run that would end past the
 * deadline is not started, so all cells end up with about as many runs.
 * Time the plan leaves over goes to extra rounds.
 */
static void
measure_all(struct ctx *x, uint64_t deadline, bool progress)
{
	struct ms_bench *b = x->b;
	struct slot *sl = ms_xcalloc(b->ncell, sizeof(*sl));
	size_t *order = round_order(b);
	unsigned round = 0;

	x->sl = sl;
	for (size_t i = 0; i < b->ncell; i++) {
		sl[i].live = b->cell[i].algo == NULL ||
		    b->cell[i].algo->kat != MS_KAT_FAIL;
		sl[i].est = estimate(b, &b->cell[i]);
	}
	plan(b, sl, deadline, false);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < b->ncell; i++)
			if (sl[i].live && (pass == 0) ==
			    (b->cell[i].kind == MS_BENCH_READ))
				warm_up(x, &b->cell[i], &sl[i]);
	/* Again, from what the warm-ups took rather than the guesses. */
	plan(b, sl, deadline, true);
	/* The planned runs first; then, while time is left, more runs for
	 * every cell whose share was not capped, up to RUNS_MAX. */
	for (bool extra = false;; round++) {
		bool ran = false;

		for (size_t j = 0; j < b->ncell; j++) {
			size_t i = order[j];
			struct ms_bench_cell *c = &b->cell[i];
			struct slot *s = &sl[i];
			unsigned want = extra && !s->capped ? RUNS_MAX :
			    s->runs;

			if (!s->live || s->got >= want)
				continue;
			if (s->got > 0 &&
			    ms_now_ns() + s->est * s->reps > deadline)
				continue;	/* out of time */
			if (s->got == 0 && !fits(x, c, s->est * s->reps)) {
				c->over_budget = true;
				b->over_budget++;
				s->live = false;
				continue;
			}
			if (progress)
				fprintf(stderr, "\r%s: --bench round %u: %s "
				    "%-24.24s", ms_program, round + 1,
				    c->algo ? c->algo->name : "", c->workload);
			time_run(x, c, s);
			ran = true;
		}
		if (!ran && extra)
			break;
		if (!ran)
			extra = true;
	}
	if (progress)
		fprintf(stderr, "\r%*s\r", 50 + (int)strlen(ms_program), "");
	for (size_t i = 0; i < b->ncell; i++) {
		finish_cell(&b->cell[i], &sl[i]);
		if (b->o->debug)
			ms_warn("bench: %s %s: share %.1f ms, warm-up %.1f ms, "
			    "%u runs of %u, %.2f ms a workload",
			    b->cell[i].algo ? b->cell[i].algo->name : "-",
			    b->cell[i].workload,
			    sl[i].share / 1e6, sl[i].warm / 1e6, sl[i].got,
			    sl[i].reps, sl[i].est / 1e6);
	}
	free(order);
	free(sl);
}

/*
 * Create the state a's one-shot and chunked cells share, and time one
 * 1 MiB digest and a few small ones: the algorithm's first warm-up, and
 * the rates that the plan starts from.
 */
static void
calibrate(struct ctx *x, struct ms_bench_algo *a)
{
	struct ms_bench_cell big = { .algo = a, .kind = MS_BENCH_ONESHOT,
	    .len = 1u << 20, .cnt = 1 };
	struct ms_bench_cell small = { .algo = a, .kind = MS_BENCH_SMALL,
	    .len = 1u << 10, .cnt = 64 };
	void **st = &x->state[a - x->b->algo];
	double t, best = 0, tc;

	*st = a->spec.algo->ops->create(a->spec.algo, ms_spec_len(&a->spec));
	if (*st == NULL)
		ms_die("%s", strerror(ENOMEM));
	for (int i = 0; i < 3; i++) {
		t = timed(x, &big, 1, &tc);
		if (i > 0 && (best == 0 || t < best))
			best = t;
	}
	a->rate = (double)big.len / best;
	timed(x, &small, 1, &tc);
	a->small_ns = timed(x, &small, 1, &tc) / (double)small.cnt;
}

void
ms_bench_measure(struct ms_bench *b, const struct ms_bench_input *in,
    uint64_t start, bool progress)
{
	struct ctx x = { .b = b, .data = in->data, .paths = in->paths,
	    .npaths = in->npaths };

	x.hard = start + (uint64_t)(b->budget * 1e9);
	x.rbuf = ms_xaligned(4096, b->o->engine.buffer_size);
	x.state = ms_xcalloc(b->nalgo, sizeof(*x.state));
	for (size_t i = 0; i < b->nalgo; i++)
		if (b->algo[i].kat != MS_KAT_FAIL)
			calibrate(&x, &b->algo[i]);
	measure_all(&x, start + (uint64_t)(b->budget * 1e9), progress);
	sink = x.sink;
	for (size_t i = 0; i < b->nalgo; i++)
		if (x.state[i] != NULL)
			b->algo[i].spec.algo->ops->destroy(x.state[i]);
	free(x.state);
	free(x.rbuf);
}
