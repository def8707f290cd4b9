/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_measure.c - what the bench measures and how: the known-answer
 * self-tested algorithms' calibration pass (which also warms every one
 * up), and then one cell per algorithm and workload, each given its
 * share of --bench-time: repeated timed runs, interleaved in rounds, of
 * which the median, minimum and maximum MB/s (10^6 bytes per second)
 * are kept.  Every digest is folded into a sink so that no work can be
 * optimised away.  The FILE and engine rows go through the real engine,
 * threads and I/O included.
 *
 * Robust to other load: an in-memory workload on one thread is timed
 * by the measuring thread's CPU time beside the wall clock (as openssl
 * speed times by CPU), so that time it spends waiting for a CPU is not
 * counted; a library that starts threads of its own is timed by the
 * wall clock, as the file and engine rows are.  A figure that is still
 * disturbed (its runs too far apart, or too little of a CPU to trust
 * even that) gets the runs left over first; if it stays so, the
 * verdict leaves it out (bench_cell.c: ms_bench_disturbed).
 *
 * The time budget holds, loaded machine or not: a run, warm-up or
 * timed, starts only if by its estimate (from the CPU it needs and the
 * share of a CPU the runs got so far) it ends within the budget; the
 * cells go in the order the report needs them (the reads and FILE rows,
 * then every 16 MiB one-shot, baseline and MD5 first, then the other
 * workloads, then the engine row), and a cell whose first run does not
 * fit is marked over_budget, which the report says.
 */
#include "bench/bench.h"

#include <errno.h>
#include <math.h>	/* NAN, INFINITY: macros only; no libm */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"

#define SAMPLE_MIN_NS	2e6	/* a timed run should last this long at least */
#define WARM_NS		10e6	/* the most a synthetic warm-up should take */
#define RUNS_MAX	15	/* timed runs per cell, at most */
#define REPS_MAX	1000000	/* workloads per timed run, at most */
#define EST_MIN_NS	1e3	/* no workload is planned as cheaper */
#define READ_GUESS	2.0	/* bytes per ns of a read never measured */
#define COLD_GUESS	0.1	/* bytes per ns of a cold read never measured */
#define CELL_CAP	0.05	/* of the budget: the most one cell may get */
#define DISTURBED	0.9	/* a run that had less of a CPU was preempted */
#define THREADS		1.2	/* process over thread CPU: a library's threads */
#define SPREAD_MAX	0.3	/* middle runs further apart: unsteady */
#define STARVED		0.1	/* less of a CPU: even its CPU time is suspect */
#define CAL_LEN		(64u << 10)	/* bytes of a calibration digest */
#define MARGIN		1.25	/* a run may take this much over its estimate */


/* The measurement's state. */
struct ctx {
	struct ms_bench	*b;
	struct ms_bench_runner run;	/* what every workload run needs */
	uint64_t	 deadline;	/* no run may end after this */
	struct slot	*sl;		/* the plan of every cell */
	double		 share;		/* of a CPU the thread gets, lately */
	double		 cpu, wall;	/* over every synthetic run: the share */
};

/* A cell's plan and progress, private to the measurement. */
struct slot {
	bool		 live;		/* to be measured, not failed */
	double		 est;		/* wall ns a workload: guessed, then seen */
	double		 cpu_est;	/* CPU ns a workload (synthetic rows) */
	bool		 multi;		/* its library's threads: the wall clock */
	unsigned	 rank;		/* its place in the report's needs */
	double		 share;		/* ns planned for the cell */
	double		 warm;		/* ns planned for its warm-up */
	bool		 capped;	/* its share hit the cap */
	unsigned	 runs;		/* timed runs wanted */
	unsigned	 reps;		/* workloads in each */
	unsigned	 got;		/* timed runs done */
	double		 mbps[RUNS_MAX];
	double		 wall, cpu, proc;	/* ns over the counted runs */
};

/* Wall ns of CPU ns of work, at the share of a CPU the runs get lately. */
static double
wall_of(const struct ctx *x, double cpu)
{
	return cpu / x->share;
}

/* Predicted CPU ns of one workload of c, from what is known so far. */
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
	case MS_BENCH_COLD:
		return (double)c->bytes / COLD_GUESS;
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

/* Is c's figure from the measuring thread's CPU time? */
static bool
thread_clock(const struct ms_bench_cell *c, const struct slot *s)
{
	return synthetic_kind(c->kind) && !s->multi;
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
 * more than WARM_NS of a synthetic workload, and none when the share
 * has no room for it (the calibration has run this code already); a
 * file or engine row warms up with a whole run if its share has room
 * for two.  Each timed run lasts SAMPLE_MIN_NS at least; runs are
 * rounded, not floored, so that what one cell leaves over or takes
 * beyond its share evens out.  The runs already done count.
 */
static void
plan_runs(const struct ms_bench_cell *c, struct slot *s)
{
	double est = s->est, avail;

	if (s->got > 0) {
		s->warm = 0;
	} else if (synthetic_kind(c->kind)) {
		s->warm = ms_dmin(ms_dmax(est, SAMPLE_MIN_NS), WARM_NS);
		if (s->share < 2 * est + s->warm)
			s->warm = 0;
	} else {
		s->warm = s->share >= 2 * est ? est : 0;
	}
	avail = ms_dmax(s->share - s->warm, 0);
	s->runs = s->got + (unsigned)ms_dmax(ms_round(avail /
	    ms_dmax(est, SAMPLE_MIN_NS)), s->got == 0);
	s->runs = (unsigned)ms_dmin(s->runs, RUNS_MAX);
	if (s->got == 0)
		s->reps = (unsigned)ms_dmin(ms_dmax(1, ms_round(avail /
		    ((s->runs ? s->runs : 1) * est))), REPS_MAX);
}

/* Share out the time left among the live cells and plan their runs. */
static void
plan(const struct ms_bench *b, struct slot *sl, uint64_t deadline)
{
	uint64_t now = ms_now_ns();

	plan_shares(b, sl, deadline > now ? (double)(deadline - now) : 0,
	    b->budget * 1e9 * CELL_CAP);
	for (size_t i = 0; i < b->ncell; i++)
		if (sl[i].live)
			plan_runs(&b->cell[i], &sl[i]);
}

/* The rank of the 16 MiB one-shots, which the ratios and verdict need. */
#define RANK_16M	2

/* ns the 16 MiB one-shots' first runs, all still to come, will take. */
static double
reserve(const struct ctx *x)
{
	double ns = 0;

	for (size_t i = 0; i < x->b->ncell; i++)
		if (x->sl[i].rank == RANK_16M && x->sl[i].live &&
		    x->sl[i].got == 0)
			ns += x->sl[i].est * x->sl[i].reps;
	return ns;
}

/*
 * May a run of c taking ns start now?  Only if it ends by the deadline;
 * a FILE, read or engine run over FILE operands, as long as the files,
 * must leave time for the 16 MiB one-shots' first runs too.
 */
static bool
fits(const struct ctx *x, const struct ms_bench_cell *c, double ns)
{
	double after = synthetic_kind(c->kind) ||
	    (c->kind == MS_BENCH_ENGINE && x->b->nfiles == 0) ? 0 : reserve(x);

	/* the share of a CPU comes and goes: leave room for a slower run */
	return (double)ms_now_ns() + MARGIN * ns + after <= (double)x->deadline;
}

/* Put a failure on the cell and take it out of the measurement. */
static void
fail_cell(struct ctx *x, struct ms_bench_cell *c, struct slot *s)
{
	c->err = x->run.err;
	x->run.err = 0;
	s->live = false;
}

/* What a run of a synthetic workload says about the CPU the thread gets. */
static void
learn_share(struct ctx *x, const struct ms_bench_sample *t)
{
	x->cpu += t->cpu;
	x->wall += t->wall;
	/* the recent runs weigh most: load comes and goes */
	x->share = ms_dmin(ms_dmax(0.7 * x->share + 0.3 * t->cpu / t->wall,
	    0.01), 1);
}

/* What run t of reps workloads of c says about its next ones. */
static void
learn(struct ctx *x, const struct ms_bench_cell *c, struct slot *s,
    const struct ms_bench_sample *t, unsigned reps, double scale)
{
	if (synthetic_kind(c->kind)) {
		/* a library's own threads: its figures are the wall clock's */
		if (t->proc > THREADS * t->cpu)
			s->multi = true;
		learn_share(x, t);
	}
	if (thread_clock(c, s)) {
		s->cpu_est = ms_dmax(t->cpu * scale / reps, EST_MIN_NS);
		s->est = ms_dmax(wall_of(x, s->cpu_est), EST_MIN_NS);
	} else {
		s->est = ms_dmax(t->wall * scale / reps, EST_MIN_NS);
	}
}

/* Warm c up as planned, if it fits; what that took teaches its cost. */
static void
warm_up(struct ctx *x, struct ms_bench_cell *c, struct slot *s)
{
	struct ms_bench_cell w = *c;
	unsigned wreps = (unsigned)ms_dmax(1, ms_round(s->warm / s->est));
	struct ms_bench_sample t;

	if (s->warm <= 0 || !fits(x, c, s->warm + s->est * s->reps))
		return;
	if (s->warm < s->est)
		w = part_of(c, s->warm / s->est);
	if (ms_bench_timed(&x->run, &w, wreps, &t) < 0) {
		fail_cell(x, c, s);
		return;
	}
	learn(x, c, s, &t, wreps, (double)c->bytes / (double)w.bytes);
}

/* One timed run of c, counted by its clock. */
static void
time_run(struct ctx *x, struct ms_bench_cell *c, struct slot *s)
{
	struct ms_bench_sample t;
	double ns;

	if (ms_bench_timed(&x->run, c, s->reps, &t) < 0) {
		fail_cell(x, c, s);
		return;
	}
	learn(x, c, s, &t, s->reps, 1);
	ns = thread_clock(c, s) ? t.cpu : t.wall;
	if (synthetic_kind(c->kind) && t.cpu < DISTURBED * t.wall)
		c->disturbed++;		/* lost the CPU: its CPU time holds */
	s->mbps[s->got++] = (double)c->bytes * s->reps / ns * 1e3;
	s->wall += t.wall;
	s->cpu += t.cpu;
	s->proc += t.proc;
}

/* How far apart the middle runs lie, over their median; 0 for one run. */
static double
spread_of(const struct slot *s, double *sorted)
{
	unsigned n = s->got, lo = 0, hi;
	double med;

	if (n < 2)
		return 0;
	memcpy(sorted, s->mbps, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	med = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	hi = n - 1;
	if (n >= 5) {		/* one stray run each side is the median's job */
		lo++;
		hi--;
	}
	return med > 0 ? (sorted[hi] - sorted[lo]) / med : 0;
}

/* Does c's figure want more runs than planned: are they far apart? */
static bool
unsteady(const struct slot *s)
{
	double sorted[RUNS_MAX];

	return s->got >= 2 && spread_of(s, sorted) > SPREAD_MAX;
}

/*
 * Is c's figure still disturbed?  On the thread's clock, if it had less
 * than STARVED of a CPU (cold caches at every return); the engine row
 * over its page-cache file, if it kept fewer than half the CPUs its
 * threads could use busy.
 */
static bool
starved(const struct ms_bench *b, const struct ms_bench_cell *c,
    const struct slot *s)
{
	double cpus = (double)(b->sel.cnt < b->jobs ? b->sel.cnt : b->jobs);

	if (thread_clock(c, s))
		return s->cpu < STARVED * s->wall;
	return c->kind == MS_BENCH_ENGINE && b->nfiles == 0 &&
	    s->proc < 0.5 * cpus * s->wall;
}

/* Median, minimum and maximum of what the cell's runs measured. */
static void
finish_cell(const struct ms_bench *b, struct ms_bench_cell *c, struct slot *s)
{
	unsigned n = s->got;
	double sorted[RUNS_MAX];

	if (!s->live || n == 0)
		return;
	c->spread = spread_of(s, sorted);
	qsort(s->mbps, n, sizeof(s->mbps[0]), cmp_double);
	c->runs = n;
	c->repeat = s->reps;
	c->min = s->mbps[0];
	c->max = s->mbps[n - 1];
	c->median = n % 2 ? s->mbps[n / 2] :
	    (s->mbps[n / 2 - 1] + s->mbps[n / 2]) / 2;
	c->cpu = s->proc / s->wall;
	c->threads = s->proc / s->cpu;
	c->thread_clock = thread_clock(c, s);
	c->unsteady = n >= 2 && c->spread > SPREAD_MAX;
	c->starved = starved(b, c, s);
	c->measured = true;
}

/*
 * Where a cell comes in the report's needs: the read rows first (the
 * verdict on the FILE rows needs them), then the FILE rows, then the 16
 * MiB one-shots (the ratios, the chart, the verdict), then the other
 * synthetic workloads, then the engine row.
 */
static unsigned
rank_of(const struct ms_bench_cell *c)
{
	static const unsigned by_wl[MS_WL_COUNT] = {
		[MS_WL_ONESHOT_16M] = RANK_16M, [MS_WL_ONESHOT_1M] = 3,
		[MS_WL_ONESHOT_64K] = 4, [MS_WL_CHUNKED] = 5,
		[MS_WL_SMALL] = 6,
	};

	switch (c->kind) {
	case MS_BENCH_READ:
	case MS_BENCH_COLD:
		return 0;
	case MS_BENCH_FILE:
		return 1;
	case MS_BENCH_ENGINE:
		return 7;
	default:
		return by_wl[c->index];
	}
}

/* The algorithms the verdict names first: the baseline, MD5, MD4. */
static unsigned
algo_rank(const struct ms_bench *b, const struct ms_bench_algo *a)
{
	if (a == NULL || a == b->baseline)
		return 0;
	if (strcmp(a->name, "md5") == 0)
		return 1;
	if (strcmp(a->name, "md4") == 0)
		return 2;
	return 3;
}

/* For round_order's sort: the plan's slots and the run. */
static const struct slot *sort_sl;
static const struct ms_bench *sort_b;

/*
 * The report's needs first (rank_of), the verdict's algorithms first
 * within (algo_rank), and then the cheapest: when the budget cannot
 * hold every cell, the most figures are measured, and the fastest
 * digests, which the verdict is about, are among them.
 */
static int
by_need(const void *pa, const void *pb)
{
	size_t i = *(const size_t *)pa, j = *(const size_t *)pb;
	const struct slot *s = &sort_sl[i], *t = &sort_sl[j];
	unsigned ai = algo_rank(sort_b, sort_b->cell[i].algo);
	unsigned aj = algo_rank(sort_b, sort_b->cell[j].algo);

	if (s->rank != t->rank)
		return s->rank < t->rank ? -1 : 1;
	if (ai != aj)
		return ai < aj ? -1 : 1;
	if (s->est != t->est)
		return s->est < t->est ? -1 : 1;
	return i < j ? -1 : i > j;
}

static size_t *
round_order(const struct ms_bench *b, const struct slot *sl)
{
	size_t *order = ms_xcalloc(b->ncell ? b->ncell : 1, sizeof(*order));

	for (size_t i = 0; i < b->ncell; i++)
		order[i] = i;
	sort_sl = sl;
	sort_b = b;
	qsort(order, b->ncell, sizeof(*order), by_need);
	sort_sl = NULL;
	sort_b = NULL;
	return order;
}

/* A cell whose first run does not fit: not measured, and said so. */
static void
no_time(struct ms_bench *b, struct ms_bench_cell *c, struct slot *s)
{
	c->over_budget = true;
	b->over_budget++;
	s->live = false;
}

/*
 * One round: a run of every cell that wants one, in the report's order.
 * The first round warms a cell up (if its plan has room) before its
 * first run; a cell whose first run does not fit is not measured.
 * Later rounds give the time left to every cell whose share was not
 * capped, and first to those whose runs lie far apart.  Returns whether
 * anything ran.
 */
static bool
round_of(struct ctx *x, const size_t *order, unsigned round, bool extra,
    bool progress)
{
	struct ms_bench *b = x->b;
	bool ran = false;

	for (int pass = 0; pass < 2; pass++)
		for (size_t j = 0; j < b->ncell; j++) {
			size_t i = order[j];
			struct ms_bench_cell *c = &b->cell[i];
			struct slot *s = &x->sl[i];
			unsigned want = extra && (!s->capped || unsteady(s)) ?
			    RUNS_MAX : s->runs;

			/* extra rounds: the unsteady cells first */
			if (!s->live || s->got >= want ||
			    (extra && (pass == 0) != unsteady(s)) ||
			    (!extra && pass == 1))
				continue;
			if (!fits(x, c, s->est * s->reps)) {
				if (s->got == 0)
					no_time(b, c, s);
				continue;
			}
			if (s->got == 0)
				warm_up(x, c, s);
			if (!s->live)
				continue;
			if (progress)
				fprintf(stderr, "\r%s: --bench round %u: %s "
				    "%-24.24s", ms_program, round + 1,
				    c->algo ? c->algo->name : "", c->workload);
			time_run(x, c, s);
			ran = true;
		}
	return ran;
}

/*
 * Measure every runnable cell by the deadline, in rounds of one run of
 * every cell: a burst of outside load (a neighbour on the sibling
 * hyperthread, which slows a run without taking its CPU time) then
 * costs many cells one run each, which their medians discard, rather
 * than all the runs of a few.  After the first round the time left is
 * planned again, from what the runs took rather than the guesses.
 */
static void
measure_all(struct ctx *x, bool progress)
{
	struct ms_bench *b = x->b;
	struct slot *sl = ms_xcalloc(b->ncell, sizeof(*sl));
	size_t *order;
	unsigned round = 0;

	x->sl = sl;
	for (size_t i = 0; i < b->ncell; i++) {
		struct ms_bench_cell *c = &b->cell[i];

		sl[i].live = c->algo == NULL || c->algo->kat != MS_KAT_FAIL;
		sl[i].rank = rank_of(c);
		sl[i].cpu_est = ms_dmax(guess(b, c), EST_MIN_NS);
		sl[i].est = synthetic_kind(c->kind) ?
		    ms_dmax(wall_of(x, sl[i].cpu_est), EST_MIN_NS) :
		    sl[i].cpu_est;
	}
	order = round_order(b, sl);
	plan(b, sl, x->deadline);
	round_of(x, order, round++, false, progress);
	plan(b, sl, x->deadline);
	/* The planned runs; then, while time is left, more runs. */
	for (bool extra = false;; round++) {
		bool ran = round_of(x, order, round, extra, progress);

		if (!ran && extra)
			break;
		if (!ran)
			extra = true;
	}
	if (progress)
		fprintf(stderr, "\r%*s\r", 50 + (int)strlen(ms_program), "");
	b->share = x->wall > 0 ? x->cpu / x->wall : 1;
	for (size_t i = 0; i < b->ncell; i++) {
		finish_cell(b, &b->cell[i], &sl[i]);
		if (b->o->debug)
			ms_warn("bench: %s %s: share %.1f ms, warm-up %.1f ms, "
			    "%u runs of %u, %.2f ms a workload%s%s",
			    b->cell[i].algo ? b->cell[i].algo->name : "-",
			    b->cell[i].workload,
			    sl[i].share / 1e6, sl[i].warm / 1e6, sl[i].got,
			    sl[i].reps, sl[i].est / 1e6,
			    b->cell[i].unsteady ? ", unsteady" : "",
			    b->cell[i].starved ? ", starved" : "");
	}
	free(order);
	free(sl);
}

/*
 * Create the state a's one-shot and chunked cells share, and time a
 * 64 KiB digest and a few small ones on the thread's CPU clock: the
 * algorithm's first warm-up, and the rates that the plan starts from
 * (the first runs correct them).  Little: on a loaded machine this is
 * paid before any cell.
 */
static void
calibrate(struct ctx *x, struct ms_bench_algo *a)
{
	struct ms_bench_cell big = { .algo = a, .kind = MS_BENCH_ONESHOT,
	    .len = CAL_LEN, .cnt = 1 };
	struct ms_bench_cell small = { .algo = a, .kind = MS_BENCH_SMALL,
	    .len = 1u << 10, .cnt = 8 };
	void **st = &x->run.state[a - x->b->algo];
	struct ms_bench_sample t;
	double best = 0;

	*st = a->spec.algo->ops->create(&a->spec);
	if (*st == NULL)
		ms_die("%s", strerror(ENOMEM));
	for (int i = 0; i < 2; i++) {
		ms_bench_timed(&x->run, &big, 1, &t);
		learn_share(x, &t);
		if (i > 0 && (best == 0 || t.cpu < best))
			best = t.cpu;
	}
	a->rate = (double)big.len / best;
	ms_bench_timed(&x->run, &small, 1, &t);
	ms_bench_timed(&x->run, &small, 1, &t);
	learn_share(x, &t);
	a->small_ns = t.cpu / (double)small.cnt;
}

void
ms_bench_measure(struct ms_bench *b, const struct ms_bench_input *in,
    uint64_t start, bool progress)
{
	struct ctx x = { .b = b, .share = 1, .run = { .b = b,
	    .data = in->data, .paths = in->paths, .npaths = in->npaths,
	    .temp_len = in->temp_len, .temp_fd = -1 } };

	x.deadline = start + (uint64_t)(b->budget * 1e9);
	x.run.rbuf = ms_xaligned(4096, b->o->engine.buffer_size);
	x.run.state = ms_xcalloc(b->nalgo, sizeof(*x.run.state));
	for (size_t i = 0; i < b->nalgo; i++)
		if (b->algo[i].kat != MS_KAT_FAIL)
			calibrate(&x, &b->algo[i]);
	measure_all(&x, progress);
	ms_bench_runner_done(&x.run);
	for (size_t i = 0; i < b->nalgo; i++)
		if (x.run.state[i] != NULL)
			b->algo[i].spec.algo->ops->destroy(x.run.state[i]);
	free(x.run.state);
	free(x.run.rbuf);
}
