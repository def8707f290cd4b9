/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_cell.c - the bench's workloads and its cells, as every other
 * bench file sees them: the one table of synthetic workloads, finding a
 * cell, the ratio over the baseline, whether a figure is firm enough to
 * state as a fact, and how MB/s are printed.  Reads struct ms_bench,
 * never changes it, and calls no other bench file.
 */
#include "bench/bench.h"

#include <string.h>

#include "base/util.h"

const struct ms_bench_workload ms_bench_workloads[MS_WL_COUNT] = {
	[MS_WL_ONESHOT_64K] = { "oneshot-64KiB", "64KiB", MS_BENCH_ONESHOT,
	    64u << 10, 1 },
	[MS_WL_ONESHOT_1M] = { "oneshot-1MiB", "1MiB", MS_BENCH_ONESHOT,
	    1u << 20, 1 },
	[MS_WL_ONESHOT_16M] = { "oneshot-16MiB", "16MiB", MS_BENCH_ONESHOT,
	    16u << 20, 1 },
	[MS_WL_CHUNKED] = { "chunked-16x1MiB", "16x1MiB", MS_BENCH_CHUNKED,
	    1u << 20, 16 },
	[MS_WL_SMALL] = { "small-20000x1KiB", "20000x1KiB", MS_BENCH_SMALL,
	    1u << 10, 20000 },
};

/* Fewer timed runs than this make a figure tentative. */
#define FIRM_RUNS	3

const struct ms_bench_cell *
ms_bench_cell(const struct ms_bench *b, const struct ms_bench_algo *a,
    enum ms_bench_kind kind, size_t index)
{
	for (size_t i = 0; i < b->ncell; i++) {
		const struct ms_bench_cell *c = &b->cell[i];

		if (c->algo == a && c->kind == kind && c->index == index)
			return c;
	}
	return NULL;
}

size_t
ms_bench_ncolumns(const struct ms_bench *b)
{
	return MS_WL_COUNT + b->nfiles;
}

const struct ms_bench_cell *
ms_bench_column(const struct ms_bench *b, const struct ms_bench_algo *a,
    size_t k)
{
	if (k < MS_WL_COUNT)
		return ms_bench_cell(b, a, ms_bench_workloads[k].kind, k);
	return ms_bench_cell(b, a, MS_BENCH_FILE, k - MS_WL_COUNT);
}

bool
ms_bench_ok(const struct ms_bench_cell *c)
{
	return c != NULL && c->measured;
}

double
ms_bench_ratio(const struct ms_bench *b, const struct ms_bench_cell *c)
{
	const struct ms_bench_cell *base;

	if (!ms_bench_ok(c) || c->algo == NULL)
		return 0;
	base = ms_bench_cell(b, b->baseline, c->kind, c->index);
	if (!ms_bench_ok(base) || base->median <= 0)
		return 0;
	return c->median / base->median;
}

bool
ms_bench_firm(const struct ms_bench_cell *c)
{
	return ms_bench_ok(c) && c->runs >= FIRM_RUNS &&
	    !ms_bench_disturbed(c);
}

bool
ms_bench_disturbed(const struct ms_bench_cell *c)
{
	return ms_bench_ok(c) && (c->unsteady || c->starved);
}

double
ms_bench_median(const struct ms_bench *b, const struct ms_bench_algo *a,
    enum ms_bench_wl wl)
{
	const struct ms_bench_cell *c = ms_bench_cell(b, a,
	    ms_bench_workloads[wl].kind, wl);

	return ms_bench_ok(c) && !ms_bench_disturbed(c) ? c->median : 0;
}

double
ms_bench_cpu(const struct ms_bench *b, const struct ms_bench_algo *a)
{
	double most = 0;

	for (size_t i = 0; i < b->ncell; i++) {
		const struct ms_bench_cell *c = &b->cell[i];

		if (c->algo == a && ms_bench_ok(c) &&
		    c->kind != MS_BENCH_FILE && c->threads > most)
			most = c->threads;
	}
	return most;
}

const struct ms_bench_algo *
ms_bench_algo_named(const struct ms_bench *b, const char *name)
{
	for (size_t i = 0; i < b->nalgo; i++)
		if (strcmp(b->algo[i].name, name) == 0 &&
		    b->algo[i].kat != MS_KAT_FAIL)
			return &b->algo[i];
	return NULL;
}

const char *
ms_bench_mbps(char *buf, size_t cap, double v)
{
	snprintf(buf, cap, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
	return buf;
}

const char *
ms_bench_io_name(enum ms_io io)
{
	return io == MS_IO_MMAP ? "mmap" : io == MS_IO_READ ? "read" : "auto";
}
