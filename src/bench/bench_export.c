/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_export.c - a bench run as CSV (one row a measured cell, the
 * machine's facts repeated on every row) or as JSON (the machine, the
 * settings, the self-test, every measured cell and the verdict), for
 * other programs to read.  The keys and columns are an interface: see
 * multisum(1).
 */
#include "bench/bench.h"

#include <math.h>	/* NAN: a macro only; no libm */
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/util.h"

static void
csv_field(FILE *out, const char *s, bool last)
{
	if (s != NULL && s[strcspn(s, ",\"\r\n")] != '\0') {
		putc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				putc('"', out);
			putc(*s, out);
		}
		putc('"', out);
	} else if (s != NULL) {
		fputs(s, out);
	}
	putc(last ? '\n' : ',', out);
}

/* The present features, as /proc/cpuinfo spells them, space separated. */
static char *
flag_list(const struct ms_bench_machine *m)
{
	char buf[256] = "";

	for (size_t i = 0; i < m->nfeat; i++)
		if (m->has[i]) {
			size_t len = strlen(buf);

			snprintf(buf + len, sizeof(buf) - len, "%s%s",
			    len ? " " : "", m->feat[i]->token);
		}
	return ms_xstrdup(buf);
}

/* A cell's algorithm: its name, the engine row's list, or NULL. */
static const char *
algo_field(const struct ms_bench *b, const struct ms_bench_cell *c, char *buf,
    size_t cap)
{
	size_t len = 0;

	if (c->algo != NULL)
		return c->algo->name;
	if (c->kind != MS_BENCH_ENGINE)
		return NULL;
	buf[0] = '\0';
	for (size_t i = 0; i < b->sel.cnt && len < cap; i++) {
		char nb[32];
		const char *name = ms_spec_name(&b->sel.spec[i], nb,
		    sizeof(nb));

		len += (size_t)snprintf(buf + len, cap - len, "%s%s",
		    i ? "," : "", name);
	}
	return buf;
}

static void
csv_header(const struct ms_bench_machine *m, FILE *out)
{
	static const char *const cols[] = {
		"algorithm", "class", "workload", "bytes", "repeat", "runs",
		"mbps_median", "mbps_min", "mbps_max", "cpu_per_wall",
		"disturbed", "clock", "spread", "left_out", "ratio",
		"baseline", "cpu", "cores", "flags", "loadavg",
	};

	for (size_t i = 0; i < MS_ARRAY_LEN(cols); i++)
		csv_field(out, cols[i], false);
	for (size_t i = 0; i < m->nlibs; i++)
		csv_field(out, m->lib[i], false);
	csv_field(out, "cc", false);
	csv_field(out, "cflags", true);
}

void
ms_bench_csv(const struct ms_bench *b, FILE *out)
{
	const struct ms_bench_machine *m = &b->machine;
	char *flags = flag_list(m);
	char cores[32], load[32];

	snprintf(cores, sizeof(cores), "%ld", m->cores);
	if (b->loadavg >= 0)
		snprintf(load, sizeof(load), "%.2f", b->loadavg);
	else
		load[0] = '\0';
	csv_header(m, out);
	for (size_t i = 0; i < b->ncell; i++) {
		const struct ms_bench_cell *c = &b->cell[i];
		char algos[2048], num[64];
		double ratio = ms_bench_ratio(b, c);

		if (!ms_bench_ok(c))
			continue;
		csv_field(out, algo_field(b, c, algos, sizeof(algos)), false);
		csv_field(out, c->algo ?
		    ms_class_name(c->algo->spec.algo->class) : NULL, false);
		csv_field(out, c->workload, false);
		fprintf(out, "%ju,%u,%u,%.2f,%.2f,%.2f,%.2f,%u,%s,%.3f,%s,",
		    (uintmax_t)c->bytes, c->repeat, c->runs, c->median, c->min,
		    c->max, c->cpu, c->disturbed,
		    c->thread_clock ? "thread-cpu" : "wall", c->spread,
		    ms_bench_disturbed(c) ? "true" : "false");
		if (ratio > 0)
			snprintf(num, sizeof(num), "%.3f", ratio);
		else
			num[0] = '\0';
		csv_field(out, num, false);
		csv_field(out, b->baseline->name, false);
		csv_field(out, m->cpu, false);
		csv_field(out, cores, false);
		csv_field(out, flags, false);
		csv_field(out, load, false);
		for (size_t k = 0; k < m->nlibs; k++)
			csv_field(out, m->version[k], false);
		csv_field(out, MS_BUILD_CC, false);
		csv_field(out, MS_BUILD_CFLAGS, true);
	}
	free(flags);
}

static void
json_machine(struct ms_json *j, const struct ms_bench_machine *m)
{
	ms_json_key(j, "machine");
	ms_json_open_object(j);
	ms_json_key(j, "cpu");
	ms_json_str(j, m->cpu);
	ms_json_key(j, "cores");
	ms_json_int(j, m->cores);
	ms_json_key(j, "flags");
	ms_json_open_array(j);
	for (size_t i = 0; i < m->nfeat; i++)
		if (m->has[i])
			ms_json_str(j, m->feat[i]->token);
	ms_json_close_array(j);
	ms_json_break(j, 2);
	ms_json_key(j, "libraries");
	ms_json_open_object(j);
	for (size_t i = 0; i < m->nlibs; i++) {
		ms_json_key(j, m->lib[i]);
		ms_json_str(j, m->version[i]);
	}
	ms_json_close_object(j);
	ms_json_break(j, 2);
	ms_json_key(j, "build");
	ms_json_open_object(j);
	ms_json_key(j, "cc");
	ms_json_str(j, MS_BUILD_CC);
	ms_json_key(j, "compiler");
	ms_json_str(j, m->compiler);
	ms_json_key(j, "cflags");
	ms_json_str(j, MS_BUILD_CFLAGS);
	ms_json_close_object(j);
	ms_json_close_object(j);
}

static void
json_settings(struct ms_json *j, const struct ms_bench *b)
{
	ms_json_break(j, 1);
	ms_json_key(j, "settings");
	ms_json_open_object(j);
	ms_json_key(j, "multisum");
	ms_json_str(j, PACKAGE_VERSION);
	ms_json_key(j, "bench_time");
	ms_json_real(j, 3, b->budget);
	ms_json_key(j, "elapsed");
	ms_json_real(j, 3, b->elapsed);
	ms_json_key(j, "loadavg");
	ms_json_real(j, 2, b->loadavg >= 0 ? b->loadavg : NAN);
	ms_json_key(j, "cpu_share");
	ms_json_real(j, 2, b->share);
	ms_json_key(j, "jobs");
	ms_json_uint(j, b->jobs);
	ms_json_key(j, "io");
	ms_json_str(j, ms_bench_io_name(b->o->engine.io));
	ms_json_key(j, "buffer_size");
	ms_json_uint(j, b->o->engine.buffer_size);
	ms_json_close_object(j);
}

static void
json_self_test(struct ms_json *j, const struct ms_bench *b)
{
	ms_json_break(j, 1);
	ms_json_key(j, "self_test");
	ms_json_open_array(j);
	for (size_t i = 0; i < b->nalgo; i++) {
		const struct ms_bench_algo *a = &b->algo[i];

		ms_json_break(j, 2);
		ms_json_open_object(j);
		ms_json_key(j, "algorithm");
		ms_json_str(j, a->name);
		ms_json_key(j, "result");
		ms_json_str(j, a->kat == MS_KAT_PASS ? "pass" :
		    a->kat == MS_KAT_NO_VECTOR ? "consistent" : "fail");
		if (a->kat == MS_KAT_FAIL) {
			ms_json_key(j, "why");
			ms_json_str(j, a->why);
		}
		ms_json_close_object(j);
	}
	ms_json_close_array(j);
}

static void
json_cell(struct ms_json *j, const struct ms_bench *b,
    const struct ms_bench_cell *c)
{
	char algos[2048];
	double ratio = ms_bench_ratio(b, c);

	ms_json_break(j, 2);
	ms_json_open_object(j);
	ms_json_key(j, "algorithm");
	ms_json_str(j, algo_field(b, c, algos, sizeof(algos)));
	ms_json_key(j, "class");
	ms_json_str(j, c->algo ? ms_class_name(c->algo->spec.algo->class) :
	    NULL);
	ms_json_key(j, "workload");
	ms_json_str(j, c->workload);
	ms_json_key(j, "bytes");
	ms_json_uint(j, c->bytes);
	ms_json_key(j, "repeat");
	ms_json_uint(j, c->repeat);
	ms_json_key(j, "runs");
	ms_json_uint(j, c->runs);
	ms_json_key(j, "mbps_median");
	ms_json_real(j, 2, c->median);
	ms_json_key(j, "mbps_min");
	ms_json_real(j, 2, c->min);
	ms_json_key(j, "mbps_max");
	ms_json_real(j, 2, c->max);
	ms_json_key(j, "cpu_per_wall");
	ms_json_real(j, 2, c->cpu);
	ms_json_key(j, "disturbed");
	ms_json_uint(j, c->disturbed);
	ms_json_key(j, "clock");
	ms_json_str(j, c->thread_clock ? "thread-cpu" : "wall");
	ms_json_key(j, "spread");
	ms_json_real(j, 3, c->spread);
	ms_json_key(j, "left_out");
	ms_json_bool(j, ms_bench_disturbed(c));
	ms_json_key(j, "ratio");
	ms_json_real(j, 3, ratio > 0 ? ratio : NAN);
	ms_json_close_object(j);
}

/* The cells without figures, and why: "no time" or an errno's text. */
static void
json_not_measured(struct ms_json *j, const struct ms_bench *b)
{
	char algos[2048];

	ms_json_break(j, 1);
	ms_json_key(j, "not_measured");
	ms_json_open_array(j);
	for (size_t i = 0; i < b->ncell; i++) {
		const struct ms_bench_cell *c = &b->cell[i];

		if (ms_bench_ok(c) || (c->algo != NULL &&
		    c->algo->kat == MS_KAT_FAIL))
			continue;
		ms_json_break(j, 2);
		ms_json_open_object(j);
		ms_json_key(j, "algorithm");
		ms_json_str(j, algo_field(b, c, algos, sizeof(algos)));
		ms_json_key(j, "workload");
		ms_json_str(j, c->workload);
		ms_json_key(j, "why");
		ms_json_str(j, c->err ? strerror(c->err) : c->over_budget ?
		    "no time" : "not measured");
		ms_json_close_object(j);
	}
	ms_json_close_array(j);
}

void
ms_bench_json(const struct ms_bench *b, const struct ms_bench_verdict *v,
    FILE *out)
{
	struct ms_json j;

	ms_json_start(&j, out);
	ms_json_open_object(&j);
	json_machine(&j, &b->machine);
	json_settings(&j, b);
	ms_json_break(&j, 1);
	ms_json_key(&j, "baseline");
	ms_json_str(&j, b->baseline->name);
	json_self_test(&j, b);
	ms_json_break(&j, 1);
	ms_json_key(&j, "results");
	ms_json_open_array(&j);
	for (size_t i = 0; i < b->ncell; i++)
		if (ms_bench_ok(&b->cell[i]))
			json_cell(&j, b, &b->cell[i]);
	ms_json_close_array(&j);
	json_not_measured(&j, b);
	ms_json_break(&j, 1);
	ms_json_key(&j, "verdict");
	ms_json_open_array(&j);
	for (size_t i = 0; i < v->n; i++) {
		ms_json_break(&j, 2);
		ms_json_str(&j, v->line[i][0] == ' ' ? v->line[i] + 2 :
		    v->line[i]);
	}
	ms_json_close_array(&j);
	ms_json_close_object(&j);
	putc('\n', out);
}
