/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench.h - what the bench's files hand each other, in one direction:
 *
 *   bench.c (mode entry, set-up) -> bench_machine.c (probe)
 *                                -> bench_measure.c (plan, statistics)
 *                                   -> bench_run.c (a workload, timed)
 *                                -> bench_verdict.c (derived sentences)
 *                                -> bench_table.c (table, chart)
 *                                -> bench_export.c (CSV, JSON) -> json.c
 *   every one of them            -> bench_cell.c (workloads, lookups)
 *
 * The measurement fills struct ms_bench; everything after it only reads
 * it.  Outside the bench files only cli/multisum.c includes this, for
 * the mode's entry, ms_bench_main.
 */
#ifndef MS_BENCH_H
#define MS_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/cpulevel.h"
#include "digest/digest_set.h"
#include "digest/kat.h"
#include "modes/options.h"

enum ms_bench_kind {
	MS_BENCH_ONESHOT,	/* init, one update of the buffer, final */
	MS_BENCH_CHUNKED,	/* init, cnt updates of len bytes each, final */
	MS_BENCH_SMALL,		/* cnt digests of len bytes, a new state each */
	MS_BENCH_FILE,		/* a FILE operand through the engine (a
				 * directory: every file below it) */
	MS_BENCH_READ,		/* a FILE operand read, not hashed (a
				 * directory: the read floor, the engine's
				 * workers reading every file, hashing none) */
	MS_BENCH_ENGINE,	/* the selected algorithms in one engine pass */
	MS_BENCH_COLD,		/* a FILE operand read as READ, its pages
				 * (a directory: its files') evicted from
				 * the page cache before each run */
};

/* The synthetic workloads of every algorithm, in table order. */
enum ms_bench_wl {
	MS_WL_ONESHOT_64K,
	MS_WL_ONESHOT_1M,
	MS_WL_ONESHOT_16M,	/* the one the ratios and the chart use */
	MS_WL_CHUNKED,
	MS_WL_SMALL,
	MS_WL_COUNT
};

struct ms_bench_workload {
	const char	*id;		/* as CSV and JSON spell it */
	const char	*heading;	/* the table's column */
	enum ms_bench_kind kind;
	size_t		 len;		/* bytes per update */
	size_t		 cnt;		/* updates, or digests (small) */
};

/* The one table of synthetic workloads, indexed by enum ms_bench_wl. */
extern const struct ms_bench_workload ms_bench_workloads[MS_WL_COUNT];

struct ms_bench_algo {
	struct ms_digest_spec spec;
	char		 name[32];	/* "sha256", "blake2b-256" */
	bool		 selected;	/* false: the baseline, for ratios */
	enum ms_kat_result kat;
	char		 why[200];	/* what the failing self-test saw */
	double		 rate;		/* calibration: bytes per ns */
	double		 small_ns;	/* calibration: ns per small digest */
	struct ms_selection one;	/* just this spec, for the engine */
};

struct ms_bench_cell {
	struct ms_bench_algo *algo;	/* NULL for the read and engine rows */
	enum ms_bench_kind kind;
	size_t		 index;		/* enum ms_bench_wl; FILE: operand */
	char		*workload;	/* SPEC id: "oneshot-16MiB", "file:F" */
	const char	*path;		/* FILE operand (file and read rows) */
	size_t		 len;		/* bytes per update (synthetic rows) */
	size_t		 cnt;		/* updates or digests per workload */
	uint64_t	 bytes;		/* input bytes of one workload */

	/* results; when measured is false the row has no figures */
	bool		 measured;
	bool		 over_budget;	/* not run: it would pass the budget */
	int		 err;		/* errno of a file that failed */
	unsigned	 runs;		/* timed runs (not the warm-up) */
	unsigned	 repeat;	/* workloads per timed run */
	/*
	 * The clock of the figures: the measuring thread's CPU time for an
	 * in-memory workload on one thread (other load cannot slow it
	 * down, as openssl speed), else the wall clock (threads, I/O).
	 */
	bool		 thread_clock;
	unsigned	 disturbed;	/* runs that lost the CPU to other load */
	double		 median, min, max;	/* MB/s, 1 MB = 10^6 bytes */
	double		 cpu;		/* CPU seconds per wall second */
	double		 threads;	/* process over measuring-thread CPU */
	double		 spread;	/* of the middle runs, over the median */
	/*
	 * Still disturbed after the repeats: its runs too far apart
	 * (unsteady), or it had too little of a CPU to trust even its CPU
	 * time (starved).  The table shows it; the verdict leaves it out.
	 */
	bool		 unsteady, starved;
};

/* CPU features that change which digest wins; arch is 'x' or 'a'. */
struct ms_bench_feature {
	char		 arch;
	enum ms_cpu_feature feature;	/* cpulevel.h's probe */
	const char	*token;		/* as /proc/cpuinfo spells it */
	const char	*label;
};

#define MS_BENCH_FEATURES	16
#define MS_BENCH_LIBS		8

/* What the machine is: found by ms_bench_probe, before measuring. */
struct ms_bench_machine {
	char		 cpu[160];
	long		 cores;
	char		 arch;		/* 'x', 'a', or 0: features unknown */
	size_t		 nfeat;		/* the features of this arch */
	const struct ms_bench_feature *feat[MS_BENCH_FEATURES];
	bool		 has[MS_BENCH_FEATURES];
	size_t		 nlibs;
	char		*lib[MS_BENCH_LIBS];		/* "openssl" */
	const char	*libname[MS_BENCH_LIBS];	/* "OpenSSL" */
	const char	*version[MS_BENCH_LIBS];
	char		 compiler[160];
};

/* A FILE operand that is a directory: the tree workload. */
struct ms_bench_tree {
	char		**paths;	/* its regular files, in walk order */
	size_t		 n;		/* 0: the operand is a file */
};

struct ms_bench {
	const struct ms_options *o;
	struct ms_bench_algo *algo;	/* the selected, then the baseline */
	size_t		 nalgo;
	const struct ms_bench_algo *baseline;
	struct ms_bench_cell *cell;	/* in report order */
	size_t		 ncell;
	char		**files;	/* the FILE operands: more columns */
	size_t		 nfiles;
	struct ms_bench_tree *trees;	/* per FILE operand */
	struct ms_selection sel;	/* what the engine row hashes */
	const char	*engine_input;	/* words for what the engine read */
	unsigned	 jobs;
	double		 budget;	/* seconds asked for */
	double		 elapsed;	/* seconds the whole run took */
	double		 loadavg;	/* 1-minute load average, or -1 */
	double		 share;		/* CPU the measuring thread got, 0..1 */
	size_t		 failed;	/* algorithms failing the self-test */
	size_t		 over_budget;	/* cells not run for want of time */
	struct ms_bench_machine machine;
};

/* What the engine row hashes, and the random data of the workloads. */
struct ms_bench_input {
	const unsigned char *data;	/* enough for any synthetic workload */
	char		**paths;	/* the engine row's files */
	size_t		 npaths;
	size_t		 temp_len;	/* no files: a temporary file of data */
};

/* bench.c: multisum --bench: measure, then report to standard output. */
int	 ms_bench_main(const struct ms_options *o);

/* The verdict: one sentence a line; a line starting "  " continues. */
struct ms_bench_verdict {
	char		**line;
	size_t		 n;
};

/* bench_cell.c: finding cells and what follows from their figures. */

/* The cell of a (NULL: read and engine rows) of kind at index. */
const struct ms_bench_cell *ms_bench_cell(const struct ms_bench *b,
	    const struct ms_bench_algo *a, enum ms_bench_kind kind,
	    size_t index);
/* a's cell in table column k: the synthetic workloads, then the files. */
const struct ms_bench_cell *ms_bench_column(const struct ms_bench *b,
	    const struct ms_bench_algo *a, size_t k);
size_t	 ms_bench_ncolumns(const struct ms_bench *b);
/* Is c there and measured? */
bool	 ms_bench_ok(const struct ms_bench_cell *c);
/* c's median over the baseline's at the same workload, or 0. */
double	 ms_bench_ratio(const struct ms_bench *b,
	    const struct ms_bench_cell *c);
/* Taken from 3 runs or more, and not disturbed? */
bool	 ms_bench_firm(const struct ms_bench_cell *c);
/* Measured, but still disturbed: out of the verdict? */
bool	 ms_bench_disturbed(const struct ms_bench_cell *c);
/* The median of a at synthetic workload wl, for the verdict: 0 if not
 * measured or still disturbed. */
double	 ms_bench_median(const struct ms_bench *b,
	    const struct ms_bench_algo *a, enum ms_bench_wl wl);
/* The most CPUs any in-memory workload of a kept busy per CPU of the
 * measuring thread (a library's own threads: more than 1). */
double	 ms_bench_cpu(const struct ms_bench *b,
	    const struct ms_bench_algo *a);
/* The algorithm called name that passed its self-test, or NULL. */
const struct ms_bench_algo *ms_bench_algo_named(const struct ms_bench *b,
	    const char *name);
/* MB/s with as many digits as mean something. */
const char *ms_bench_mbps(char *buf, size_t cap, double v);
const char *ms_bench_io_name(enum ms_io io);

/* bench_machine.c */
void	 ms_bench_probe(struct ms_bench_machine *m);
void	 ms_bench_machine_free(struct ms_bench_machine *m);
/* Is the CPU feature token (as /proc/cpuinfo spells it) present? */
bool	 ms_bench_has_feature(const struct ms_bench_machine *m,
	    const char *token);

/* bench_run.c: what running a workload needs, and one timing of it. */
struct ms_bench_runner {
	struct ms_bench	*b;
	const unsigned char *data;	/* random, enough for any workload */
	void		**state;	/* per algorithm: one-shot, chunked */
	unsigned char	*rbuf;		/* read buffer of the read rows */
	char		**paths;	/* what the engine row hashes */
	size_t		 npaths;
	uint64_t	 sink;		/* every digest ends up in here */
	int		 err;		/* errno of a failed file */
	/* the engine row's temporary file, made at its first run */
	size_t		 temp_len;
	char		*temp_path, *temp_unlink;
	int		 temp_fd;
};

/* One timed stretch: wall, measuring-thread and whole-process CPU ns. */
struct ms_bench_sample {
	double		 wall, cpu, proc;
};

/* Time reps runs of c's workload into *t; -1 (x->err set) if a file failed. */
int	 ms_bench_timed(struct ms_bench_runner *x,
	    const struct ms_bench_cell *c, unsigned reps,
	    struct ms_bench_sample *t);
/* Keep x's digests alive to the compiler; close and remove its
 * temporary file. */
void	 ms_bench_runner_done(struct ms_bench_runner *x);

/* bench_measure.c: measure every runnable cell of b, by the deadline. */
void	 ms_bench_measure(struct ms_bench *b,
	    const struct ms_bench_input *in, uint64_t start, bool progress);

/* bench_verdict.c; utf8 may use non-ASCII units. */
void	 ms_bench_verdict(const struct ms_bench *b, bool utf8,
	    struct ms_bench_verdict *v);
void	 ms_bench_verdict_free(struct ms_bench_verdict *v);

/* bench_table.c; utf8 draws the chart with block characters. */
void	 ms_bench_table(const struct ms_bench *b,
	    const struct ms_bench_verdict *v, FILE *out, bool utf8);

/* bench_export.c */
void	 ms_bench_csv(const struct ms_bench *b, FILE *out);
void	 ms_bench_json(const struct ms_bench *b,
	    const struct ms_bench_verdict *v, FILE *out);

/*
 * The little arithmetic the bench needs, here rather than from libm:
 * linking libm would add a library to the start-up of every run, bench
 * or not.  Arguments are finite; ms_round is for non-negative values.
 */
static inline double
ms_dmax(double a, double b)
{
	return a > b ? a : b;
}

static inline double
ms_dmin(double a, double b)
{
	return a < b ? a : b;
}

static inline double
ms_round(double x)
{
	return (double)(uint64_t)(x + 0.5);
}

static inline double
ms_floor(double x)
{
	return (double)(uint64_t)x;
}

#endif
