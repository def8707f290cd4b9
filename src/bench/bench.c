/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench.c - bench mode: its entry point and the set-up of a run.
 *
 * Checks the FILE operands, picks the algorithms (the selection, then
 * the baseline) and puts each through the known-answer self-test (one
 * that fails gets no figures), lays out one cell per algorithm and
 * workload, makes the workloads' data, and then hands the run on, one
 * way:
 * bench_machine.c probes the machine, bench_measure.c times the cells,
 * bench_verdict.c draws conclusions, and bench_table.c or
 * bench_export.c writes them out.
 */
#include "bench/bench.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/output.h"
#include "io/walk.h"
#include "base/exit_status.h"
#include "base/portable.h"
#include "base/util.h"

#define DEFAULT_TIME	12.0	/* seconds: a full run of every algorithm */
#define ENGINE_FILE_LEN	(16u << 20)	/* the engine row's temporary file */

/*
 * Random bytes from the OS: the seed of the workloads' data.  Asking
 * the kernel for all 20 MiB would cost a tenth of a second of CPU, a
 * good part of a short budget on a loaded machine.
 */
static void
os_random(unsigned char *p, size_t n)
{
	if (ms_os_random(p, n) == -1)
		ms_die("cannot get random data: %s", strerror(errno));
}

/*
 * The workloads' data: incompressible bytes (no algorithm's speed
 * depends on its input beyond that), SplitMix64 from an OS seed.
 */
static void
fill_random(unsigned char *p, size_t n)
{
	uint64_t x;

	os_random((unsigned char *)&x, sizeof(x));
	for (size_t i = 0; i < n; i += sizeof(x)) {
		uint64_t z = (x += 0x9e3779b97f4a7c15u);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
		z ^= z >> 31;
		memcpy(p + i, &z, n - i < sizeof(z) ? n - i : sizeof(z));
	}
}

static void
add_algo(struct ms_bench *b, const struct ms_digest_spec *s, bool selected)
{
	struct ms_bench_algo *a = &b->algo[b->nalgo++];
	char buf[sizeof(a->name)];

	a->spec = *s;
	a->selected = selected;
	snprintf(a->name, sizeof(a->name), "%s",
	    ms_spec_name(s, buf, sizeof(buf)));
	ms_selection_add(&a->one, s);
}

static struct ms_bench_cell *
add_cell(struct ms_bench *b, struct ms_bench_algo *a, enum ms_bench_kind kind,
    size_t index, char *workload, const char *path, uint64_t bytes)
{
	struct ms_bench_cell *c = &b->cell[b->ncell++];

	c->algo = a;
	c->kind = kind;
	c->index = index;
	c->workload = workload;
	c->path = path;
	c->bytes = bytes;
	c->cnt = 1;
	return c;
}

/* Lay out the cells in report order: each algorithm's row, engine, reads,
 * cold reads. */
static void
lay_out(struct ms_bench *b, char **files, const uint64_t *size, size_t nfiles,
    uint64_t engine_bytes)
{
	size_t per = MS_WL_COUNT + nfiles;

	b->files = files;
	b->nfiles = nfiles;
	b->cell = ms_xcalloc(b->nalgo * per + 1 + 2 * nfiles, sizeof(*b->cell));
	for (size_t i = 0; i < b->nalgo; i++) {
		for (size_t k = 0; k < MS_WL_COUNT; k++) {
			const struct ms_bench_workload *w =
			    &ms_bench_workloads[k];
			struct ms_bench_cell *c = add_cell(b, &b->algo[i],
			    w->kind, k, ms_xstrdup(w->id), NULL,
			    (uint64_t)w->len * w->cnt);

			c->len = w->len;
			c->cnt = w->cnt;
		}
		for (size_t f = 0; f < nfiles; f++)
			add_cell(b, &b->algo[i], MS_BENCH_FILE, f,
			    ms_xasprintf("file:%s", files[f]), files[f],
			    size[f]);
	}
	if (b->sel.cnt > 0)
		add_cell(b, NULL, MS_BENCH_ENGINE, 0, ms_xstrdup("engine"),
		    NULL, engine_bytes);
	for (size_t f = 0; f < nfiles; f++)
		add_cell(b, NULL, MS_BENCH_READ, f,
		    ms_xasprintf("read:%s", files[f]), files[f], size[f]);
	for (size_t f = 0; f < nfiles; f++)
		add_cell(b, NULL, MS_BENCH_COLD, f,
		    ms_xasprintf("cold:%s", files[f]), files[f], size[f]);
}

/* A tree's walk: each regular file below the operand, and its size. */
struct gather {
	struct ms_bench_tree *t;
	size_t		 cap;
	uint64_t	 bytes;
	int		 err;
};

static void
gather(void *arg, const char *path, const struct ms_walked *found)
{
	struct gather *g = arg;
	struct stat st;

	(void)found;
	if (stat(path, &st) == -1) {
		ms_warn("%s: %s", path, strerror(errno));
		g->err = -1;
		return;
	}
	if (g->t->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 256;
		g->t->paths = ms_xrealloc(g->t->paths, g->cap * sizeof(char *));
	}
	g->t->paths[g->t->n++] = ms_xstrdup(path);
	g->bytes += (uint64_t)st.st_size;
}

/*
 * A directory operand is the tree workload: every regular file below it,
 * walked as -r walks, listed once (the walk is not timed).
 */
static int
walk_tree(const char *dir, struct ms_bench_tree *t, uint64_t *size)
{
	struct ms_walk_opts wo = { .recursive = true };
	struct gather g = { .t = t };

	if (ms_walk(&wo, dir, gather, &g) > 0 || g.err != 0)
		return MS_EXIT_FAIL;
	if (t->n == 0) {
		ms_warn("%s: no files below it: there is nothing to measure",
		    dir);
		return MS_EXIT_FAIL;
	}
	*size = g.bytes;
	return MS_EXIT_OK;
}

static void
free_trees(struct ms_bench_tree *t, size_t n)
{
	for (size_t i = 0; t != NULL && i < n; i++)
		ms_free_strings(t[i].paths, t[i].n);
	free(t);
}

/*
 * The FILE operands must be regular files that can be read again and
 * again, or directories (the tree workload: the files below them).
 */
static int
check_files(char **files, size_t n, uint64_t *size, struct ms_bench_tree *tree)
{
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		int fd;

		if (strcmp(files[i], "-") == 0)
			return ms_usage_error("--bench cannot measure standard "
			    "input (it cannot be read twice): give a file");
		fd = open(files[i], O_RDONLY | O_CLOEXEC | O_NONBLOCK);	/* FIFO: no hang */
		if (fd == -1 || fstat(fd, &st) == -1) {
			ms_warn("%s: %s", files[i], strerror(errno));
			ms_outcome_note(MS_OUTCOME_RETRY);
			if (fd != -1)
				close(fd);
			return MS_EXIT_FAIL;
		}
		close(fd);
		if (S_ISDIR(st.st_mode)) {
			if (walk_tree(files[i], &tree[i], &size[i]) != MS_EXIT_OK)
				return MS_EXIT_FAIL;
			continue;
		}
		if (!S_ISREG(st.st_mode)) {
			ms_warn("%s: not a regular file: --bench reads it "
			    "several times", files[i]);
			return MS_EXIT_FAIL;
		}
		if (st.st_size == 0) {
			ms_warn("%s: empty: there is nothing to measure",
			    files[i]);
			return MS_EXIT_FAIL;
		}
		size[i] = (uint64_t)st.st_size;
	}
	return MS_EXIT_OK;
}

/*
 * The algorithms of the run: the selection, then the baseline unless it
 * is selected; each through its self-test, which a failing one leaves
 * out of the engine row and of every measurement.
 */
static void
choose(struct ms_bench *b, const struct ms_selection *sel,
    const struct ms_digest_spec *base)
{
	b->algo = ms_xcalloc(sel->cnt + 1, sizeof(*b->algo));
	for (size_t i = 0; i < sel->cnt; i++)
		add_algo(b, &sel->spec[i], true);
	for (size_t i = 0; i < b->nalgo && b->baseline == NULL; i++)
		if (b->algo[i].spec.algo == base->algo &&
		    b->algo[i].spec.bits == base->bits)
			b->baseline = &b->algo[i];
	if (b->baseline == NULL) {
		add_algo(b, base, false);
		b->baseline = &b->algo[b->nalgo - 1];
	}
	for (size_t i = 0; i < b->nalgo; i++) {
		struct ms_bench_algo *a = &b->algo[i];

		a->kat = ms_kat_check(&a->spec, a->why, sizeof(a->why));
		if (a->kat == MS_KAT_FAIL) {
			ms_warn("%s: self-test FAILED: %s; not measured",
			    a->name, a->why);
			ms_outcome_note(MS_OUTCOME_FAIL);
			b->failed++;
		} else if (a->selected) {
			ms_selection_add(&b->sel, &a->spec);
		}
	}
}

/*
 * The default: every algorithm of -a all, and MD4 where the build can
 * load it (OpenSSL's legacy provider), so that the 2003 Subversion
 * question (MD4 or MD5?) gets its answer without -a.
 */
static void
default_selection(struct ms_selection *all)
{
	struct ms_digest_spec md4;
	const char *why;

	ms_selection_add_all(all);
	if (ms_algo_resolve("md4", 0, &md4, &why) == 0 &&
	    ms_spec_load(&md4) == 0)
		ms_selection_add(all, &md4);
}

static bool
locale_is_utf8(void)
{
	const char *cs;

	setlocale(LC_CTYPE, "");
	cs = nl_langinfo(CODESET);
	return cs != NULL &&
	    (ms_strcaseeq(cs, "UTF-8") || ms_strcaseeq(cs, "utf8"));
}

/* The verdict, and the report in format on standard output. */
static int
report(const struct ms_bench *b, const char *format)
{
	struct ms_bench_verdict v = { 0 };
	struct ms_output out;
	bool utf8 = !b->o->ascii && strcmp(format, "table") == 0 &&
	    locale_is_utf8();
	int rc = 0;

	if (ms_output_open(&out, NULL) == -1)
		return -1;
	ms_bench_verdict(b, utf8, &v);
	if (strcmp(format, "json") == 0)
		ms_bench_json(b, &v, out.fp);
	else if (strcmp(format, "csv") == 0)
		ms_bench_csv(b, out.fp);
	else
		ms_bench_table(b, &v, out.fp, utf8);
	ms_bench_verdict_free(&v);
	if (ms_output_close(&out, true) == -1)
		rc = -1;
	return rc;
}

/*
 * MULTISUM_BENCH_COLD_MBPS=RATE, a test hook: every cold row measured
 * reads RATE MB/s, so that the tests can see both of the cold verdict's
 * answers on any disk.  Not a number above 0: ignored.
 */
static void
fix_cold(struct ms_bench *b)
{
	const char *e = getenv("MULTISUM_BENCH_COLD_MBPS");
	char *end;
	double v;

	if (e == NULL || *e == '\0')
		return;
	v = strtod(e, &end);
	if (*end != '\0' || !(v > 0))
		return;
	for (size_t i = 0; i < b->ncell; i++)
		if (b->cell[i].kind == MS_BENCH_COLD && b->cell[i].measured) {
			struct ms_bench_cell *c = &b->cell[i];

			c->median = c->min = c->max = v;
			c->spread = 0;	/* a fixed figure is a steady one */
			c->unsteady = c->starved = false;
		}
}

int
ms_bench_main(const struct ms_options *o)
{
	struct ms_bench b = { .o = o };
	struct ms_digest_spec base;
	struct ms_selection all = { 0 };
	const struct ms_selection *sel = &o->sel;
	const char *format = o->format_name ? o->format_name : "table";
	uint64_t start = ms_now_ns(), *size, engine_bytes = 0;
	struct ms_bench_input in = { 0 };
	int rc;
	size_t data_len = 0;
	unsigned char *data;

	/* --format, --bench-baseline and --archive: checked by main */
	base = o->bench_base;
	size = ms_xcalloc(o->nfiles ? o->nfiles : 1, sizeof(*size));
	b.trees = ms_xcalloc(o->nfiles ? o->nfiles : 1, sizeof(*b.trees));
	if ((rc = check_files(o->files, o->nfiles, size, b.trees)) !=
	    MS_EXIT_OK) {
		free_trees(b.trees, o->nfiles);
		free(size);
		return rc;
	}
	if (sel->cnt == 0) {
		default_selection(&all);
		sel = &all;
	}
	if (ms_selection_load(sel) == -1 || ms_spec_load(&base) == -1) {
		free_trees(b.trees, o->nfiles);
		free(size);
		return MS_EXIT_USAGE;
	}
	/* Other work on the machine skews every figure: say how much. */
	if (getloadavg(&b.loadavg, 1) != 1)
		b.loadavg = -1;
	b.budget = o->bench_time > 0 ? o->bench_time : DEFAULT_TIME;
	b.jobs = o->engine.jobs ? o->engine.jobs : 1;
	choose(&b, sel, &base);

	for (size_t k = 0; k < MS_WL_COUNT; k++) {
		const struct ms_bench_workload *w = &ms_bench_workloads[k];

		if (w->len * w->cnt > data_len)
			data_len = w->len * w->cnt;
	}
	data = ms_xaligned(4096, data_len);
	fill_random(data, data_len);
	in.data = data;

	if (o->nfiles > 0) {
		/* the files, and the files below the directories */
		for (size_t i = 0; i < o->nfiles; i++)
			in.npaths += b.trees[i].n ? b.trees[i].n : 1;
		in.paths = ms_xcalloc(in.npaths, sizeof(*in.paths));
		in.npaths = 0;
		for (size_t i = 0; i < o->nfiles; i++) {
			for (size_t k = 0; k < b.trees[i].n; k++)
				in.paths[in.npaths++] = b.trees[i].paths[k];
			if (b.trees[i].n == 0)
				in.paths[in.npaths++] = o->files[i];
			engine_bytes += size[i];
		}
		b.engine_input = "the FILE operands";
	} else if (b.sel.cnt > 0) {
		/* written when the row is first run: on a loaded machine, a
		 * short budget may never get that far */
		in.temp_len = ENGINE_FILE_LEN;
		engine_bytes = ENGINE_FILE_LEN;
		b.engine_input = "a 16 MiB temporary file in the page cache";
	}
	lay_out(&b, o->files, size, o->nfiles, engine_bytes);
	ms_bench_probe(&b.machine);
	ms_bench_measure(&b, &in, start,
	    o->progress == 1 || (o->progress == -1 && isatty(STDERR_FILENO)));
	b.elapsed = (double)(ms_now_ns() - start) / 1e9;
	fix_cold(&b);

	rc = b.failed ? MS_EXIT_FAIL : MS_EXIT_OK;
	for (size_t i = 0; i < b.ncell; i++)
		if (b.cell[i].err != 0) {
			/* the temporary file's failure was said with its name */
			if (b.cell[i].path != NULL ||
			    b.cell[i].kind != MS_BENCH_ENGINE)
				ms_warn("%s: %s", b.cell[i].path ?
				    b.cell[i].path : b.cell[i].workload,
				    strerror(b.cell[i].err));
			ms_outcome_note(MS_OUTCOME_RETRY);
			rc = MS_EXIT_FAIL;
		}
	if (report(&b, format) == -1)
		rc = MS_EXIT_FAIL;

	if (o->nfiles > 0)
		free(in.paths);
	free_trees(b.trees, o->nfiles);
	for (size_t i = 0; i < b.ncell; i++)
		free(b.cell[i].workload);
	free(b.cell);
	free(b.algo);
	ms_bench_machine_free(&b.machine);
	free(data);
	free(size);
	return rc;
}
