/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_verdict.c - what a bench run's figures mean, in sentences: the
 * fastest secure and non-cryptographic digests, MD5 and BLAKE2b against
 * SHA-256, the 2003 Subversion question (MD4 or MD5?) in its own unit,
 * many small inputs, whether each FILE is I/O- or CPU-bound, what
 * limits a run over each FILE read cold (the disk or the digest), and
 * the engine's capacity.  A sentence quoting a figure from fewer than 3
 * runs says it is tentative; a figure still disturbed by other load
 * (ms_bench_disturbed) is left out, and a last sentence names those.
 * Reads struct ms_bench only; the table and the JSON print the
 * sentences.
 */
#include "bench/bench.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define MULTI_CPU	1.2	/* CPU seconds per second that mean threads */
#define IO_BOUND	0.85	/* hashing at this share of a plain read */
#define ENGINE_LOSS	0.5	/* less of the in-memory speed: say so */
#define TIE		0.03	/* medians this close are one speed */

struct verdict {
	const struct ms_bench *b;
	bool		 utf8;
	struct ms_bench_verdict *v;
	bool		 shaky;		/* leaders() quoted a tentative figure */
};

/* Is a's figure at synthetic workload wl firm? */
static bool
firm(const struct verdict *r, const struct ms_bench_algo *a,
    enum ms_bench_wl wl)
{
	return ms_bench_firm(ms_bench_cell(r->b, a,
	    ms_bench_workloads[wl].kind, wl));
}

/* a's 16 MiB one-shot speed over the baseline's, or 0. */
static double
ratio16(const struct verdict *r, const struct ms_bench_algo *a)
{
	return ms_bench_ratio(r->b, ms_bench_cell(r->b, a, MS_BENCH_ONESHOT,
	    MS_WL_ONESHOT_16M));
}

/* What ends a sentence whose figures are tentative. */
static const char *
hedge(bool shaky)
{
	return shaky ? " Tentative: from fewer than 3 runs." : "";
}

static const char *
ordinal(char *buf, size_t cap, size_t n)
{
	const char *suf = "th";

	if (n % 100 < 11 || n % 100 > 13)
		suf = n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" :
		    n % 10 == 3 ? "rd" : "th";
	snprintf(buf, cap, "%zu%s", n, suf);
	return buf;
}

/* Add a line to the verdict. */
static __attribute__((format(printf, 2, 3))) void
say(struct verdict *r, const char *fmt, ...)
{
	va_list ap;

	r->v->line = ms_xrealloc(r->v->line,
	    (r->v->n + 1) * sizeof(*r->v->line));
	va_start(ap, fmt);
	r->v->line[r->v->n++] = ms_xvasprintf(fmt, ap);
	va_end(ap);
}

/* May algorithm a (measured at wl) stand in a verdict about want? */
static bool
eligible(const struct verdict *r, const struct ms_bench_algo *a,
    enum ms_bench_wl wl, bool (*want)(enum ms_class), bool one_cpu)
{
	return ms_bench_median(r->b, a, wl) > 0 && want(a->spec.algo->class) &&
	    (!one_cpu || ms_bench_cpu(r->b, a) < MULTI_CPU);
}

/*
 * The fastest eligible algorithm at wl, and into text the names of all
 * that are within TIE of it ("sha224 and sha256 tie at 2066-2083 MB/s"),
 * fastest first.  NULL if none is eligible.  r->shaky says whether a
 * figure of the text is tentative.
 */
static const struct ms_bench_algo *
leaders(struct verdict *r, enum ms_bench_wl wl,
    bool (*want)(enum ms_class), bool one_cpu, char *text, size_t cap)
{
	const struct ms_bench *b = r->b;
	const struct ms_bench_algo **v, *best;
	size_t n = 0, len = 0;
	char v1[32], v2[32];

	v = ms_xcalloc(b->nalgo, sizeof(*v));
	for (size_t i = 0; i < b->nalgo; i++)
		if (eligible(r, &b->algo[i], wl, want, one_cpu))
			v[n++] = &b->algo[i];
	/* Insertion sort, fastest first: a few dozen rows at most. */
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && ms_bench_median(r->b, v[k], wl) >
		    ms_bench_median(r->b, v[k - 1], wl); k--) {
			const struct ms_bench_algo *t = v[k];
			v[k] = v[k - 1];
			v[k - 1] = t;
		}
	best = n > 0 ? v[0] : NULL;
	while (n > 1 && ms_bench_median(r->b, v[n - 1], wl) < (1 - TIE) *
	    ms_bench_median(r->b, best, wl))
		n--;
	text[0] = '\0';
	r->shaky = false;
	for (size_t i = 0; i < n; i++)
		r->shaky |= !firm(r, v[i], wl);
	for (size_t i = 0; i < n && len < cap; i++)
		len += (size_t)snprintf(text + len, cap - len, "%s%s",
		    i == 0 ? "" : i + 1 == n ? " and " : ", ", v[i]->name);
	if (best != NULL && len < cap) {
		ms_bench_mbps(v1, sizeof(v1), ms_bench_median(r->b, best, wl));
		if (n == 1)
			snprintf(text + len, cap - len, " at %s MB/s", v1);
		else
			snprintf(text + len, cap - len, " tie at %s-%s MB/s "
			    "(within %.0f%%)", ms_bench_mbps(v2, sizeof(v2),
			    ms_bench_median(r->b, v[n - 1], wl)), v1,
			    TIE * 100);
	}
	free(v);
	return best;
}

static bool
is_any_class(enum ms_class c)
{
	(void)c;
	return true;
}

static bool
is_secure(enum ms_class c)
{
	return c == MS_CLASS_SECURE;
}

static bool
is_noncrypto(enum ms_class c)
{
	return c == MS_CLASS_NONCRYPTO;
}

static void
verdict_fastest(struct verdict *r)
{
	const struct ms_bench_algo *base = r->b->baseline, *best, *one;
	char text[512], text1[512], ratio[64] = "";

	best = leaders(r, MS_WL_ONESHOT_16M, is_secure, false, text,
	    sizeof(text));
	if (best != NULL) {
		/* A tie has its numbers; one winner gets its ratio. */
		if (ratio16(r, best) > 0 && best != base &&
		    strstr(text, " tie at ") == NULL) {
			snprintf(ratio, sizeof(ratio), " (%.2fx %s)",
			    ratio16(r, best), base->name);
			r->shaky |= !firm(r, base, MS_WL_ONESHOT_16M);
		}
		say(r, "Fastest secure digest at 16 MiB: %s%s.%s", text, ratio,
		    hedge(r->shaky));
		one = leaders(r, MS_WL_ONESHOT_16M, is_secure, true, text1,
		    sizeof(text1));
		if (ms_bench_cpu(r->b, best) >= MULTI_CPU && one != NULL)
			say(r, "  %s ran on %.1f CPUs (its library starts "
			    "threads); on one CPU: %s.%s", best->name,
			    ms_bench_cpu(r->b, best), text1, hedge(r->shaky));
	}
	if ((best = leaders(r, MS_WL_ONESHOT_16M, is_noncrypto, false, text,
	    sizeof(text)))) {
		ratio[0] = '\0';
		if (ratio16(r, best) > 0 &&
		    strstr(text, " tie at ") == NULL) {
			snprintf(ratio, sizeof(ratio), " (%.2fx %s)",
			    ratio16(r, best), base->name);
			r->shaky |= !firm(r, base, MS_WL_ONESHOT_16M);
		}
		say(r, "Fastest non-cryptographic checksum at 16 MiB: %s%s; it "
		    "catches accidents, not tampering.%s", text, ratio,
		    hedge(r->shaky));
	}
}

/* How name compares with SHA-256 on this machine. */
static void
verdict_versus(struct verdict *r, const char *name, const char *label)
{
	const struct ms_bench_algo *a = ms_bench_algo_named(r->b, name);
	const struct ms_bench_algo *ref = ms_bench_algo_named(r->b, "sha256");
	double va = a ? ms_bench_median(r->b, a, MS_WL_ONESHOT_16M) : 0;
	double vr = ref ? ms_bench_median(r->b, ref, MS_WL_ONESHOT_16M) : 0;
	bool shani = ms_bench_has_feature(&r->b->machine, "sha_ni") ||
	    ms_bench_has_feature(&r->b->machine, "sha2");
	char b1[32], b2[32];
	const char *why;

	if (va <= 0 || vr <= 0 || a == ref)
		return;
	if (va < vr)
		why = a->spec.algo->class == MS_CLASS_SECURE ?
		    (shani ? "SHA-256 has hardware help (SHA extensions) here" :
		    "SHA-256 is the faster secure choice here") :
		    "SHA-256 is faster and secure, so MD5 has no speed "
		    "excuse here";
	else
		why = a->spec.algo->class == MS_CLASS_SECURE ?
		    (shani ? "even against SHA-256's hardware help" :
		    "SHA-256 has no hardware help here") :
		    "but MD5 is broken: use it only against accidents";
	say(r, "%s runs at %s MB/s, %.2fx SHA-256 (%s MB/s): %s.%s", label,
	    ms_bench_mbps(b1, sizeof(b1), va), va / vr,
	    ms_bench_mbps(b2, sizeof(b2), vr), why,
	    hedge(!firm(r, a, MS_WL_ONESHOT_16M) ||
	    !firm(r, ref, MS_WL_ONESHOT_16M)));
}

struct ranked {
	const struct ms_bench_algo *a;
	double	 big, small;		/* MB/s */
	size_t	 rank_big, rank_small;	/* 1-based */
};

static int
by_big(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return a->big > b->big ? -1 : a->big < b->big;
}

static int
by_small(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return a->small > b->small ? -1 : a->small < b->small;
}

/* The share of its 16 MiB speed an algorithm keeps on small inputs. */
static double
kept(const struct ranked *x)
{
	return x->small / x->big;
}

static int
by_kept(const void *pa, const void *pb)
{
	double a = kept(pa), b = kept(pb);

	return a < b ? -1 : a > b;
}

/*
 * Many small inputs: who is fastest there, and which algorithms lose
 * much more than the rest to the set-up and finish of every digest (less
 * than half the typical share of their 16 MiB speed), so that the
 * ranking of the big buffers misleads for them.
 */
static void
verdict_small(struct verdict *r)
{
	const struct ms_bench *b = r->b;
	struct ranked *v = ms_xcalloc(b->nalgo, sizeof(*v));
	size_t n = 0, shown = 0;
	char o1[24], o2[24], text[1024] = "", lead[512], lead2[512];
	const char *us = r->utf8 ? "\u00b5s" : "us";
	double typical;
	bool shaky = false, shaky2;

	for (size_t i = 0; i < b->nalgo; i++) {
		double big = ms_bench_median(b, &b->algo[i],
		    MS_WL_ONESHOT_16M);
		double small = ms_bench_median(b, &b->algo[i], MS_WL_SMALL);

		if (big > 0 && small > 0) {
			v[n++] = (struct ranked){ &b->algo[i], big, small,
			    0, 0 };
			shaky |= !firm(r, &b->algo[i], MS_WL_ONESHOT_16M) ||
			    !firm(r, &b->algo[i], MS_WL_SMALL);
		}
	}
	if (n < 3)
		goto out;
	leaders(r, MS_WL_SMALL, is_any_class, false, lead, sizeof(lead));
	shaky2 = r->shaky;
	if (leaders(r, MS_WL_SMALL, is_secure, false, lead2, sizeof(lead2)))
		say(r, "Many small inputs (20000 x 1 KiB, a new state each): "
		    "fastest %s; fastest secure %s.%s", lead, lead2,
		    hedge(shaky2 || r->shaky));
	else
		say(r, "Many small inputs (20000 x 1 KiB, a new state each): "
		    "fastest %s.%s", lead, hedge(shaky2));
	qsort(v, n, sizeof(*v), by_small);
	for (size_t i = 0; i < n; i++)
		v[i].rank_small = i + 1;
	qsort(v, n, sizeof(*v), by_big);
	for (size_t i = 0; i < n; i++)
		v[i].rank_big = i + 1;
	qsort(v, n, sizeof(*v), by_kept);
	typical = kept(&v[n / 2]);
	for (size_t i = 0; i < n && kept(&v[i]) < typical / 2; i++) {
		size_t len = strlen(text);

		if (v[i].rank_small <= v[i].rank_big)
			continue;	/* loses speed, but not its place */
		snprintf(text + len, sizeof(text) - len, "%s%s falls from %s "
		    "to %s (%.1f %s of set-up a digest; %.0f%% of its 16 MiB "
		    "speed left)", shown ? "; " : "", v[i].a->name,
		    ordinal(o1, sizeof(o1), v[i].rank_big),
		    ordinal(o2, sizeof(o2), v[i].rank_small),
		    1024 / v[i].small - 1024 / v[i].big, us, 100 * kept(&v[i]));
		shown++;
	}
	if (shown > 0)
		say(r, "  Per-digest set-up reorders the ranking (typically "
		    "%.0f%% of the 16 MiB speed is kept): %s.%s",
		    100 * typical, text, hedge(shaky));
	else
		say(r, "  Every algorithm keeps %.0f%% to %.0f%% of its 16 MiB "
		    "speed: per-digest set-up does not reorder the ranking "
		    "much.%s",
		    100 * kept(&v[0]), 100 * kept(&v[n - 1]), hedge(shaky));
out:
	free(v);
}

/*
 * The digest a cold FILE's sentence names: the baseline where its FILE
 * row was measured, else the slowest selected algorithm's.
 */
static const struct ms_bench_cell *
cold_named(const struct ms_bench *b, size_t index)
{
	const struct ms_bench_cell *f = ms_bench_cell(b, b->baseline,
	    MS_BENCH_FILE, index), *slow = NULL;

	if (ms_bench_ok(f))
		return f;
	for (size_t k = 0; k < b->nalgo; k++) {
		f = ms_bench_cell(b, &b->algo[k], MS_BENCH_FILE, index);
		if (b->algo[k].selected && ms_bench_ok(f) &&
		    (slow == NULL || f->median < slow->median))
			slow = f;
	}
	return slow;
}

/*
 * Each FILE read cold: does the disk or the digest limit a run over it?
 * The digest's figure is its FILE row's (the engine hashing the file
 * from the page cache); the others selected on the far side are named.
 */
static void
verdict_cold(struct verdict *r)
{
	const struct ms_bench *b = r->b;

	for (size_t i = 0; i < b->ncell; i++) {
		const struct ms_bench_cell *cold = &b->cell[i], *f, *warm;
		char other[512] = "", v1[32], v2[32], v3[32];
		size_t n = 0, len;
		bool free_here, shaky;

		if (cold->kind != MS_BENCH_COLD || !ms_bench_ok(cold) ||
		    cold->median <= 0 ||
		    (f = cold_named(b, cold->index)) == NULL)
			continue;
		free_here = f->median >= cold->median;
		shaky = !ms_bench_firm(cold) || !ms_bench_firm(f);
		for (size_t k = 0; k < b->nalgo; k++) {
			const struct ms_bench_cell *g = ms_bench_cell(b,
			    &b->algo[k], MS_BENCH_FILE, cold->index);

			if (g == f || !b->algo[k].selected || !ms_bench_ok(g) ||
			    (g->median >= cold->median) == free_here)
				continue;
			len = strlen(other);
			snprintf(other + len, sizeof(other) - len, "%s%s",
			    n++ ? ", " : "", b->algo[k].name);
		}
		warm = ms_bench_cell(b, NULL, MS_BENCH_READ, cold->index);
		ms_bench_mbps(v1, sizeof(v1), f->median);
		ms_bench_mbps(v2, sizeof(v2), cold->median);
		snprintf(v3, sizeof(v3), "%s", "?");
		if (ms_bench_ok(warm))
			ms_bench_mbps(v3, sizeof(v3), warm->median);
		if (free_here)
			say(r, "%s, cold: %s at %s MB/s is faster than this "
			    "disk's %s MB/s (%s MB/s from the page cache): "
			    "hashing is free here, the disk limits a run%s%s%s."
			    "%s", cold->path, f->algo->name, v1, v2, v3,
			    n ? "; slower than the disk: " : "", other,
			    n ? ", which limit theirs" : "", hedge(shaky));
		else
			say(r, "%s, cold: this disk's %s MB/s (%s MB/s from "
			    "the page cache) is faster than %s at %s MB/s: "
			    "the digest limits a run here, not the disk%s%s%s."
			    "%s", cold->path, v2, v3, f->algo->name, v1,
			    n ? "; faster than the disk: " : "", other,
			    n ? ", for which the disk is the limit" : "",
			    hedge(shaky));
	}
}

static void
verdict_files(struct verdict *r)
{
	const struct ms_bench *b = r->b;

	for (size_t i = 0; i < b->ncell; i++) {
		const struct ms_bench_cell *rd = &b->cell[i];
		const struct ms_bench_algo *slow = NULL, *quick = NULL;
		char list[512] = "", v1[32], v2[32];
		size_t nio = 0, ncpu = 0;
		double vs = 0, vq = 0;
		const char *read;
		bool shaky;

		if (rd->kind != MS_BENCH_READ || !ms_bench_ok(rd) ||
		    rd->median <= 0)
			continue;
		shaky = !ms_bench_firm(rd);
		for (size_t k = 0; k < b->nalgo; k++) {
			const struct ms_bench_cell *f = ms_bench_cell(b,
			    &b->algo[k], MS_BENCH_FILE, rd->index);

			if (!ms_bench_ok(f) || !b->algo[k].selected)
				continue;
			shaky |= !ms_bench_firm(f);
			if (f->median >= IO_BOUND * rd->median) {
				size_t len = strlen(list);

				snprintf(list + len, sizeof(list) - len, "%s%s",
				    nio ? ", " : "", b->algo[k].name);
				nio++;
			} else {
				ncpu++;
				if (slow == NULL || f->median < vs) {
					slow = &b->algo[k];
					vs = f->median;
				}
				if (quick == NULL || f->median > vq) {
					quick = &b->algo[k];
					vq = f->median;
				}
			}
		}
		if (nio + ncpu == 0)
			continue;
		ms_bench_mbps(v1, sizeof(v1), rd->median);
		/* a tree is read by the workers: the read floor */
		read = b->trees[rd->index].n > 0 ? "the read floor" :
		    "a plain read";
		if (ncpu == 0)
			say(r, "%s: I/O-bound: every selected algorithm "
			    "hashes it as fast as %s (%s MB/s, page cache "
			    "warm); a faster algorithm would not help.%s",
			    rd->path, read, v1, hedge(shaky));
		else if (nio == 0)
			say(r, "%s: CPU-bound: %s runs at %s MB/s (page "
			    "cache warm), faster than any selected algorithm "
			    "hashes it (the fastest, %s, at %s MB/s).%s",
			    rd->path, read, v1, quick->name,
			    ms_bench_mbps(v2, sizeof(v2), vq), hedge(shaky));
		else
			say(r, "%s: I/O-bound for %s (within %.0f%% of %s, "
			    "%s MB/s, page cache warm); CPU-bound for the "
			    "other %zu (slowest: %s at %s MB/s).%s",
			    rd->path, list, (1 - IO_BOUND) * 100, read, v1,
			    ncpu, slow->name, ms_bench_mbps(v2, sizeof(v2), vs),
			    hedge(shaky));
		if (quick != NULL && vq < ENGINE_LOSS * ms_bench_median(b,
		    quick, MS_WL_ONESHOT_16M))
			say(r, "  Through the engine %s reaches %.0f%% of its "
			    "in-memory speed: reading into buffers and handing "
			    "them between threads, not the digest, limit it.%s",
			    quick->name, 100 * vq / ms_bench_median(b, quick,
			    MS_WL_ONESHOT_16M), hedge(shaky));
	}
}

static void
verdict_engine(struct verdict *r)
{
	const struct ms_bench_cell *e = ms_bench_cell(r->b, NULL,
	    MS_BENCH_ENGINE, 0);
	char v[32];

	if (!ms_bench_ok(e) || e->median <= 0 || ms_bench_disturbed(e))
		return;
	say(r, "Capacity: the %zu selected algorithms in one pass with -j %u "
	    "hash %s MB/s of input (%s), so 1 GB takes about %.1f s.%s",
	    r->b->sel.cnt, r->b->jobs, ms_bench_mbps(v, sizeof(v), e->median),
	    r->b->engine_input, 1000 / e->median, hedge(!ms_bench_firm(e)));
}

/*
 * The question --bench exists to answer was first asked about MD4 and
 * MD5: a 2003 Subversion thread timed MD4 10-25% faster than MD5 and
 * asked why Subversion used MD5.  Its answer on this machine, in the
 * thread's unit: milliseconds for a 100 MB file in the page cache, from
 * the 16 MiB one-shot speeds.  An algorithm this build lacks is left out.
 */
static const struct {
	const char	*name, *label;
} svn[] = {
	{ .name = "md4", .label = "MD4" },
	{ .name = "md5", .label = "MD5" },
	{ .name = "sha1", .label = "SHA-1" },
	{ .name = "sha256", .label = "SHA-256" },
	{ .name = "blake2b", .label = "BLAKE2b" },
	{ .name = "blake3", .label = "BLAKE3" },
};

static void
verdict_subversion(struct verdict *r)
{
	char text[512] = "", tail[160] = "", b4[32], b5[32];
	size_t len = 0, n = 0;
	double md4 = 0, md5 = 0;
	bool shaky = false;

	for (size_t k = 0; k < MS_ARRAY_LEN(svn) && len < sizeof(text); k++) {
		const struct ms_bench_algo *a = ms_bench_algo_named(r->b,
		    svn[k].name);
		double v = a ? ms_bench_median(r->b, a, MS_WL_ONESHOT_16M) : 0;
		double ms = 1e5 / v;	/* 10^8 bytes at v 10^6 bytes/s */

		if (v <= 0)
			continue;
		if (strcmp(svn[k].name, "md4") == 0)
			md4 = v;
		else if (strcmp(svn[k].name, "md5") == 0)
			md5 = v;
		shaky |= !firm(r, a, MS_WL_ONESHOT_16M);
		len += (size_t)snprintf(text + len, sizeof(text) - len,
		    ms >= 10 ? "%s%s %.0f ms" : "%s%s %.1f ms", n ? ", " : "",
		    svn[k].label, ms);
		n++;
	}
	/* the question is MD4 or MD5: without both, no answer */
	if (md4 <= 0 || md5 <= 0)
		return;
	/* from the table's figures, as shown */
	md4 = strtod(ms_bench_mbps(b4, sizeof(b4), md4), NULL);
	md5 = strtod(ms_bench_mbps(b5, sizeof(b5), md5), NULL);
	snprintf(tail, sizeof(tail), "; MD4 runs %.0f%% %s than MD5 (%s "
	    "and %s MB/s; the thread measured 10-25%% faster)",
	    md4 >= md5 ? 100 * (md4 / md5 - 1) : 100 * (1 - md4 / md5),
	    md4 >= md5 ? "faster" : "slower", b4, b5);
	say(r, "The 2003 Subversion question (MD4 or MD5?) here, for a "
	    "100 MB file in the page cache: %s%s.%s", text, tail,
	    hedge(shaky));
}

/* Does the verdict read c's figure (the 64 KiB to 16x1 MiB ones: no)? */
static bool
verdict_reads(const struct ms_bench_cell *c)
{
	return c->kind == MS_BENCH_FILE || c->kind == MS_BENCH_READ ||
	    c->kind == MS_BENCH_COLD || c->kind == MS_BENCH_ENGINE || (c->algo != NULL &&
	    (c->index == MS_WL_ONESHOT_16M || c->index == MS_WL_SMALL));
}

/* The figures the verdict left out: disturbed even when measured again. */
static void
verdict_left_out(struct verdict *r)
{
	const struct ms_bench *b = r->b;
	char text[400] = "";
	size_t len = 0, n = 0, more = 0;

	for (size_t i = 0; i < b->ncell; i++) {
		const struct ms_bench_cell *c = &b->cell[i];

		if (!ms_bench_disturbed(c) || !verdict_reads(c))
			continue;
		if (n == 6 || len + 80 > sizeof(text)) {
			more++;
			continue;
		}
		if (c->starved)
			len += (size_t)snprintf(text + len, sizeof(text) - len,
			    "%s%s %s (%.0f%% of a CPU)", n ? ", " : "",
			    c->algo ? c->algo->name : "the", c->workload,
			    100 * c->cpu);
		else
			len += (size_t)snprintf(text + len, sizeof(text) - len,
			    "%s%s %s (runs %.0f%% apart)", n ? ", " : "",
			    c->algo ? c->algo->name : "the", c->workload,
			    100 * c->spread);
		n++;
	}
	if (n == 0)
		return;
	if (more > 0)
		snprintf(text + len, sizeof(text) - len, " and %zu more", more);
	say(r, "Left out of this verdict, disturbed by other load even when "
	    "measured again: %s.", text);
}

static void
make_verdict(struct verdict *r)
{
	verdict_fastest(r);
	verdict_versus(r, "md5", "MD5");
	verdict_versus(r, "blake2b", "BLAKE2b-512");
	verdict_subversion(r);
	verdict_small(r);
	verdict_files(r);
	verdict_cold(r);
	verdict_engine(r);
	verdict_left_out(r);
	if (r->v->n == 0)
		say(r, "Too little was measured for a verdict within the "
		    "budget of %.3g s (the measuring thread had %.0f%% of a "
		    "CPU): give a longer --bench-time.", r->b->budget,
		    100 * r->b->share);
	if (r->b->failed > 0)
		say(r, "%zu algorithm(s) failed the self-test and were not "
		    "measured: do not trust this build with them.",
		    r->b->failed);
}

void
ms_bench_verdict(const struct ms_bench *b, bool utf8,
    struct ms_bench_verdict *v)
{
	struct verdict r = { .b = b, .utf8 = utf8, .v = v };

	make_verdict(&r);
}

void
ms_bench_verdict_free(struct ms_bench_verdict *v)
{
	ms_free_strings(v->line, v->n);
	v->line = NULL;
	v->n = 0;
}
