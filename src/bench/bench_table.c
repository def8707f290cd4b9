/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_table.c - a bench run as a table for people: the machine and
 * settings, one row of MB/s per algorithm with its ratio over the
 * baseline, runs and spread, the engine and read rows, a bar chart of the
 * 16 MiB one-shot speeds, and the verdict wrapped to the terminal.  A
 * figure from fewer than 3 runs is marked "~", one still disturbed by
 * other load (which the verdict leaves out) "?"; a FILE column is
 * headed by its name shortened in the middle.  Reads struct ms_bench
 * and the verdict; measures nothing.
 */
#include "bench/bench.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define CHART_WIDTH	48	/* columns of the longest bar */
#define MULTI_CPU	1.2	/* CPU seconds per second that mean threads */
#define WRAP		78	/* columns of the table's prose */
#define COLW		10	/* columns of a figure */

struct table {
	const struct ms_bench *b;
	FILE		*out;
	bool		 utf8;
};

static const char *
short_class(enum ms_class c)
{
	return c == MS_CLASS_NONCRYPTO ? "non-crypto" : ms_class_name(c);
}

static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/* ------------------------------------------------------------ table */

static void
put_n(FILE *out, const char *s, int n)
{
	while (n-- > 0)
		fputs(s, out);
}

/* A bar of frac (0..1) of CHART_WIDTH, in eighths of a column. */
static void
bar(const struct table *r, double frac)
{
	static const char *const eighth[] = {
		"", "\u258f", "\u258e", "\u258d",
		"\u258c", "\u258b", "\u258a", "\u2589",
	};
	int cols;

	if (r->utf8) {
		int e = (int)ms_round(frac * CHART_WIDTH * 8);

		if (e == 0 && frac > 0)
			e = 1;
		put_n(r->out, "\u2588", e / 8);
		fputs(eighth[e % 8], r->out);
		cols = e / 8 + (e % 8 != 0);
	} else {
		int n = (int)ms_round(frac * CHART_WIDTH);

		if (n == 0 && frac > 0) {
			fputs("|", r->out);
			n = 1;
		} else {
			put_n(r->out, "#", n);
		}
		cols = n;
	}
	put_n(r->out, " ", CHART_WIDTH - cols + 1);
}

static int
by_median_desc(const void *pa, const void *pb)
{
	double a = (*(const struct ms_bench_cell *const *)pa)->median;
	double b = (*(const struct ms_bench_cell *const *)pb)->median;

	return a > b ? -1 : a < b;
}

static void
chart(const struct table *r, int namew)
{
	const struct ms_bench *b = r->b;
	const struct ms_bench_cell **v = ms_xcalloc(b->nalgo, sizeof(*v));
	size_t n = 0;
	char buf[32];

	for (size_t i = 0; i < b->nalgo; i++) {
		const struct ms_bench_cell *c = ms_bench_cell(b, &b->algo[i],
		    MS_BENCH_ONESHOT, MS_WL_ONESHOT_16M);

		if (ms_bench_ok(c))
			v[n++] = c;
	}
	if (n > 0 && v[0] != NULL) {
		qsort(v, n, sizeof(*v), by_median_desc);
		fprintf(r->out, "\n16 MiB one-shot, MB/s (linear scale)\n");
		for (size_t i = 0; i < n; i++) {
			fprintf(r->out, "%-*s ", namew, v[i]->algo->name);
			bar(r, v[0]->median > 0 ?
			    v[i]->median / v[0]->median : 0);
			fprintf(r->out, "%s\n",
			    ms_bench_mbps(buf, sizeof(buf), v[i]->median));
		}
	}
	free(v);
}

static void
header(const struct table *r)
{
	const struct ms_bench *b = r->b;
	const struct ms_options *o = b->o;
	const struct ms_bench_machine *m = &b->machine;
	size_t pass = 0, novec = 0;

	fprintf(r->out, "multisum %s --bench: %zu algorithms, budget %.3g s, "
	    "took %.1f s, -j %u, --io=%s, %zu KiB reads\n", PACKAGE_VERSION,
	    b->nalgo, b->budget, b->elapsed, b->jobs,
	    ms_bench_io_name(o->engine.io), o->engine.buffer_size / 1024);
	fprintf(r->out, "CPU        %s, %ld online CPU%s\n", m->cpu, m->cores,
	    m->cores == 1 ? "" : "s");
	fputs("Features  ", r->out);
	if (m->arch == 0)
		fputs(" unknown (no /proc/cpuinfo)", r->out);
	for (int want = 1; want >= 0 && m->arch != 0; want--) {
		bool any = false;

		for (size_t i = 0; i < m->nfeat; i++)
			if (m->has[i] == want) {
				fprintf(r->out, "%s%s", any ? " " : want ? " " :
				    "; absent: ", m->feat[i]->label);
				any = true;
			}
	}
	if (b->loadavg >= 0)
		fprintf(r->out, "\nLoad       %.2f (the 1-minute load average "
		    "as the run began); the measuring thread had %.0f%% of a "
		    "CPU", b->loadavg, 100 * b->share);
	fputs("\nLibraries ", r->out);
	for (size_t i = 0; i < m->nlibs; i++)
		fprintf(r->out, "%s %s %s", i ? "," : "", m->libname[i],
		    m->version[i]);
	fprintf(r->out, "\nBuild      %s%s%s, CFLAGS %s\n", MS_BUILD_CC,
	    *m->compiler ? " " : "", m->compiler, MS_BUILD_CFLAGS);
	for (size_t i = 0; i < b->nalgo; i++) {
		pass += b->algo[i].kat == MS_KAT_PASS;
		novec += b->algo[i].kat == MS_KAT_NO_VECTOR;
	}
	fprintf(r->out, "Self-test  %zu of %zu pass the known answer for "
	    "\"abc\"", pass, b->nalgo);
	if (novec > 0)
		fprintf(r->out, ", %zu without a known answer pass the "
		    "consistency check", novec);
	if (b->failed > 0)
		fprintf(r->out, ", %zu FAILED", b->failed);
	fputs("\n", r->out);
}

/*
 * s in at most w columns: whole if it fits, else its first head bytes,
 * "..", and its last w - head - 2 (the end of a name tells files apart
 * more often than its start: data-1.bin, data-2.bin).
 */
static void
shorten(char *buf, size_t w, const char *s, size_t head)
{
	size_t len = strlen(s);

	if (len <= w)
		snprintf(buf, w + 1, "%s", s);
	else
		snprintf(buf, w + 1, "%.*s..%s", (int)head, s,
		    s + len - (w - head - 2));
}

static bool
distinct(char (*h)[COLW + 1], size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n; k++)
			if (strcmp(h[i], h[k]) == 0)
				return false;
	return true;
}

/* The name a FILE column shows: its base name, unique, else its path. */
static const char *
column_name(const struct ms_bench *b, size_t i)
{
	for (size_t k = 0; k < b->nfiles; k++)
		if (k != i && strcmp(base_name(b->files[i]),
		    base_name(b->files[k])) == 0)
			return b->files[i];
	return base_name(b->files[i]);
}

/*
 * The headings of the FILE columns: their names shortened in the middle
 * with the end kept, the cut moved until no two headings are equal, and
 * numbered if no cut does it.
 */
static char (*file_headings(const struct ms_bench *b))[COLW + 1]
{
	static const size_t cuts[] = { 3, 4, 5, 6, 7, 2, 1 };
	char (*h)[COLW + 1] = ms_xcalloc(b->nfiles ? b->nfiles : 1,
	    sizeof(*h));
	for (size_t c = 0; c < MS_ARRAY_LEN(cuts); c++) {
		for (size_t i = 0; i < b->nfiles; i++)
			shorten(h[i], COLW, column_name(b, i), cuts[c]);
		if (distinct(h, b->nfiles))
			return h;
	}
	for (size_t i = 0; i < b->nfiles; i++) {
		char tail[COLW + 1];
		int n = snprintf(tail, sizeof(tail), "%zu:", i + 1);

		shorten(h[i], COLW - (size_t)n, column_name(b, i), 0);
		memmove(h[i] + n, h[i], strlen(h[i]) + 1);
		memcpy(h[i], tail, (size_t)n);
	}
	return h;
}

/* Write text wrapped to WRAP columns, the first line after first. */
static void
wrap(FILE *out, const char *first, const char *rest, const char *text)
{
	const char *prefix = first;

	while (*text) {
		int room = WRAP - (int)strlen(prefix), cut = 0;

		if ((int)strlen(text) <= room) {
			cut = (int)strlen(text);
		} else {
			for (int i = 0; i <= room; i++)
				if (text[i] == ' ')
					cut = i;
			if (cut == 0)
				cut = (int)strcspn(text, " ");
		}
		fprintf(out, "%s%.*s\n", prefix, cut, text);
		text += cut;
		while (*text == ' ')
			text++;
		prefix = rest;
	}
}

/*
 * The widest distance of a run from its median, in % of the median; -1
 * for a single run, which has no spread.
 */
static double
spread(const struct ms_bench_cell *c)
{
	if (c->runs < 2)
		return -1;
	return c->median > 0 ? 100 * ms_dmax(c->max - c->median,
	    c->median - c->min) / c->median : 0;
}

static void
table_row(const struct table *r, const struct ms_bench_algo *a, int namew,
    int cw)
{
	const struct ms_bench *b = r->b;
	double ratio = ms_bench_ratio(b, ms_bench_cell(b, a, MS_BENCH_ONESHOT,
	    MS_WL_ONESHOT_16M));
	unsigned rmin = 0, rmax = 0;
	double widest = -1;
	char buf[48], num[32];

	snprintf(buf, sizeof(buf), "%s%s", a->name,
	    ms_bench_cpu(b, a) >= MULTI_CPU ? "*" : "");
	fprintf(r->out, "%-*s %-10s", namew, buf,
	    short_class(a->spec.algo->class));
	if (a->kat == MS_KAT_FAIL) {
		fprintf(r->out, " self-test FAILED: %s\n", a->why);
		return;
	}
	for (size_t k = 0; k < ms_bench_ncolumns(b); k++) {
		const struct ms_bench_cell *c = ms_bench_column(b, a, k);

		if (!ms_bench_ok(c)) {
			fprintf(r->out, " %*s", cw, c && c->err ? "error" :
			    c && c->over_budget ? "no time" : "-");
			continue;
		}
		/* "?": still disturbed; "~": tentative, too few runs */
		snprintf(buf, sizeof(buf), "%s%s", ms_bench_disturbed(c) ?
		    "?" : ms_bench_firm(c) ? "" : "~",
		    ms_bench_mbps(num, sizeof(num), c->median));
		fprintf(r->out, " %*s", cw, buf);
		if (rmin == 0 || c->runs < rmin)
			rmin = c->runs;
		if (c->runs > rmax)
			rmax = c->runs;
		widest = ms_dmax(widest, spread(c));
	}
	if (ratio > 0)
		fprintf(r->out, " %8.2f", ratio);
	else
		fprintf(r->out, " %8s", "-");
	if (rmin == rmax)
		snprintf(buf, sizeof(buf), "%u", rmin);
	else
		snprintf(buf, sizeof(buf), "%u-%u", rmin, rmax);
	/* Single runs have no spread: not 0, but "-". */
	if (widest < 0)
		fprintf(r->out, " %5s %3s\n", buf, "-");
	else
		fprintf(r->out, " %5s %3.0f\n", buf, widest);
}

/* The engine and read rows: one figure each, under the table. */
static void
single_rows(const struct table *r)
{
	const struct ms_bench *b = r->b;
	char v1[32], v2[32], v3[32], *what;

	for (size_t i = 0; i < b->ncell; i++) {
		const struct ms_bench_cell *c = &b->cell[i];

		if (c->algo != NULL)
			continue;
		if (c->kind == MS_BENCH_ENGINE)
			what = ms_xasprintf("engine: the %zu selected "
			    "algorithm%s in one pass with -j %u, over %s:",
			    b->sel.cnt,
			    b->sel.cnt == 1 ? "" : "s", b->jobs,
			    b->engine_input);
		else if (c->kind == MS_BENCH_COLD)
			what = ms_xasprintf("cold: %s%s, read and not hashed "
			    "after each run evicted %s from the page cache:",
			    b->trees[c->index].n > 0 ? "the files below " : "",
			    c->path, b->trees[c->index].n > 0 ? "them" : "it");
		else if (b->trees[c->index].n > 0)
			what = ms_xasprintf("read floor: the %zu files below %s, "
			    "read by the engine's -j %u workers and not hashed:",
			    b->trees[c->index].n, c->path, b->jobs);
		else
			what = ms_xasprintf("read: %s, read and not hashed:",
			    c->path);
		fputc('\n', r->out);
		wrap(r->out, "", "  ", what);
		free(what);
		if (ms_bench_ok(c) && c->runs == 1)
			fprintf(r->out, "  %s MB/s of input (1 run: "
			    "tentative; %.1f CPUs busy)\n",
			    ms_bench_mbps(v1, sizeof(v1), c->median), c->cpu);
		else if (ms_bench_ok(c))
			fprintf(r->out, "  %s MB/s of input (min %s, max %s; "
			    "%u runs%s; %.1f CPUs busy)\n",
			    ms_bench_mbps(v1, sizeof(v1), c->median),
			    ms_bench_mbps(v2, sizeof(v2), c->min),
			    ms_bench_mbps(v3, sizeof(v3), c->max), c->runs,
			    ms_bench_firm(c) ? "" : ": tentative", c->cpu);
		else
			fprintf(r->out, "  %s\n", c->err ? ms_strerror(c->err) :
			    c->over_budget ? "not measured: one run would "
			    "pass the time budget" : "not measured");
	}
}

/* What the marks of the table mean, and what it leaves out. */
static void
notes(const struct table *r)
{
	const struct ms_bench *b = r->b;
	bool threads = false, tentative = false, unsure = false;
	unsigned disturbed = 0;
	char *note;

	for (size_t i = 0; i < b->nalgo; i++)
		threads |= ms_bench_cpu(b, &b->algo[i]) >= MULTI_CPU;
	for (size_t i = 0; i < b->ncell; i++) {
		const struct ms_bench_cell *c = &b->cell[i];

		disturbed += c->disturbed;
		unsure |= c->algo != NULL && ms_bench_disturbed(c);
		tentative |= c->algo != NULL && ms_bench_ok(c) &&
		    !ms_bench_firm(c) && !ms_bench_disturbed(c);
	}
	note = ms_xasprintf("%s%s: the 16 MiB one-shot speed over %s's%s.  "
	    "runs: the timed runs of each cell.  +-%%: how far the farthest "
	    "run of the row lies from its median (-: single runs).",
	    r->utf8 ? "\u00d7" : "x", b->baseline->name, b->baseline->name,
	    b->baseline->selected ? "" :
	    " (not selected: measured for the ratios)");
	wrap(r->out, "", "", note);
	free(note);
	if (tentative)
		wrap(r->out, "", "", "~ tentative: from fewer than 3 timed "
		    "runs; the verdict says so where it quotes one.");
	if (unsure)
		wrap(r->out, "", "", "? disturbed by other load even when "
		    "measured again (its runs too far apart, or under a "
		    "tenth of a CPU): the verdict leaves it out.");
	if (threads)
		fputs("* ran on more than one CPU: its library starts "
		    "threads; timed by the wall clock.\n", r->out);
	if (disturbed > 0) {
		note = ms_xasprintf("%u run%s waited for a CPU behind other "
		    "load; the in-memory figures count the CPU time of the "
		    "measuring thread (as openssl speed does), which waiting "
		    "does not take.", disturbed, disturbed == 1 ? "" : "s");
		wrap(r->out, "", "", note);
		free(note);
	}
	if (b->over_budget > 0) {
		note = ms_xasprintf("no time: %zu cell%s not run, as one "
		    "run would have passed the budget of %.3g s (the "
		    "measuring thread had %.0f%% of a CPU); the cells the "
		    "verdict needs went first.  Give a longer --bench-time "
		    "to measure %s.", b->over_budget,
		    b->over_budget == 1 ? " was" : "s were", b->budget,
		    100 * b->share, b->over_budget == 1 ? "it" : "them");
		wrap(r->out, "", "", note);
		free(note);
	}
}

/* Which FILE operand a column whose heading is not its name stands for. */
static void
file_notes(const struct table *r, char (*fh)[COLW + 1])
{
	const struct ms_bench *b = r->b;

	for (size_t i = 0; i < b->nfiles; i++)
		if (strcmp(fh[i], column_name(b, i)) != 0) {
			char *note = ms_xasprintf("%s: %s", fh[i],
			    b->files[i]);

			wrap(r->out, "", "  ", note);
			free(note);
		}
}

static void
table(const struct table *r, const struct ms_bench_verdict *v)
{
	const struct ms_bench *b = r->b;
	int namew = 9, cw = COLW;
	char buf[64], (*fh)[COLW + 1] = file_headings(b);
	int rw;

	for (size_t i = 0; i < b->nalgo; i++) {
		int w = (int)strlen(b->algo[i].name) + 1;	/* and a '*' */

		if (w > namew)
			namew = w;
	}
	header(r);
	fprintf(r->out, "\nMB/s (1 MB = 10^6 bytes): the median of the timed "
	    "runs, by the measuring\nthread's CPU time (the FILE rows: "
	    "by the wall clock)\n");
	fprintf(r->out, "%-*s %-10s", namew, "algorithm", "class");
	for (size_t k = 0; k < ms_bench_ncolumns(b); k++)
		fprintf(r->out, " %*s", cw, k < MS_WL_COUNT ?
		    ms_bench_workloads[k].heading : fh[k - MS_WL_COUNT]);
	/* "\u00d7" is one column in two bytes: printf counts bytes. */
	snprintf(buf, sizeof(buf), "%s%s", r->utf8 ? "\u00d7" : "x",
	    b->baseline->name);
	rw = r->utf8 ? 9 : 8;
	fprintf(r->out, " %*.*s %5s %3s\n", rw, rw, buf, "runs", "+-%");
	for (size_t i = 0; i < b->nalgo; i++)
		table_row(r, &b->algo[i], namew, cw);
	notes(r);
	file_notes(r, fh);
	free(fh);
	single_rows(r);
	chart(r, namew);
	if (v->n > 0)
		fputs("\nVerdict\n", r->out);
	for (size_t i = 0; i < v->n; i++) {
		bool more = v->line[i][0] == ' ';

		wrap(r->out, more ? "  " : "- ", "  ",
		    v->line[i] + (more ? 2 : 0));
	}
}

void
ms_bench_table(const struct ms_bench *b, const struct ms_bench_verdict *v,
    FILE *out, bool utf8)
{
	struct table r = { .b = b, .out = out, .utf8 = utf8 };

	table(&r, v);
}
