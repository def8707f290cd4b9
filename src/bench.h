/*
 * bench.h - what the bench's measurement (bench.c) hands its report
 * (bench_report.c): the algorithms, one cell per algorithm and workload
 * with its statistics, and the settings of the run.  Nothing outside the
 * two bench files includes this.
 */
#ifndef MS_BENCH_H
#define MS_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "digest_set.h"
#include "kat.h"
#include "options.h"

enum ms_bench_kind {
	MS_BENCH_ONESHOT,	/* init, one update of the buffer, final */
	MS_BENCH_CHUNKED,	/* init, cnt updates of len bytes each, final */
	MS_BENCH_SMALL,		/* cnt digests of len bytes, a new state each */
	MS_BENCH_FILE,		/* a FILE operand through the engine */
	MS_BENCH_READ,		/* a FILE operand read, not hashed */
	MS_BENCH_ENGINE,	/* the selected algorithms in one engine pass */
};

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
	char		*workload;	/* SPEC id: "oneshot-16MiB", "file:F" */
	const char	*path;		/* FILE operand (file and read rows) */
	size_t		 len;		/* bytes per update (synthetic rows) */
	size_t		 cnt;		/* updates or digests per workload */
	uint64_t	 bytes;		/* input bytes of one workload */

	/* results; when measured is false the row has no figures */
	bool		 measured;
	int		 err;		/* errno of a file that failed */
	unsigned	 runs;		/* timed runs (not the warm-up) */
	unsigned	 repeat;	/* workloads per timed run */
	unsigned	 disturbed;	/* runs thrown away: lost the CPU */
	double		 median, min, max;	/* MB/s, 1 MB = 10^6 bytes */
	double		 cpu;		/* CPU seconds per wall second */
	double		 ratio;		/* over the baseline's median, or 0 */
};

struct ms_bench {
	const struct ms_options *o;
	struct ms_bench_algo *algo;	/* the selected, then the baseline */
	size_t		 nalgo;
	const struct ms_bench_algo *baseline;
	struct ms_bench_cell *cell;	/* in report order */
	size_t		 ncell;
	const char	**column;	/* workload ids of an algorithm's row */
	size_t		 ncolumn;
	struct ms_selection sel;	/* what the engine row hashes */
	const char	*engine_input;	/* words for what the engine read */
	unsigned	 jobs;
	double		 budget;	/* seconds asked for */
	double		 elapsed;	/* seconds the whole run took */
	double		 loadavg;	/* 1-minute load average, or -1 */
	size_t		 failed;	/* algorithms failing the self-test */
};

/* The cell of algorithm a (NULL: read and engine rows) for a workload. */
const struct ms_bench_cell *ms_bench_find(const struct ms_bench *b,
	    const struct ms_bench_algo *a, const char *workload);

/*
 * Write the report of b to out in format ("table", "csv" or "json");
 * utf8 draws the chart with block characters.
 */
/* multisum --bench: measure, then report to standard output. */
int	 ms_bench_main(const struct ms_options *o);

void	 ms_bench_report(const struct ms_bench *b, FILE *out,
	    const char *format, bool utf8);

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
