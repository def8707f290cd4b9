/*
 * bench_report.c - what a bench run found, as a table, CSV or JSON.
 *
 * Owns the machine facts (CPU model and the features that matter to
 * digests, library versions, the build), the table with its bar chart,
 * the verdict derived from the figures, and the CSV and JSON writers.
 * It measures nothing: every number comes from struct ms_bench.
 */
#include "bench.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>	/* NAN, isfinite: macros only; no libm */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "format.h"
#include "util.h"

#define CHART_WIDTH	48	/* columns of the longest bar */
#define MULTI_CPU	1.2	/* CPU seconds per second that mean threads */
#define IO_BOUND	0.85	/* hashing at this share of a plain read */
#define ENGINE_LOSS	0.5	/* less of the in-memory speed: say so */
#define TIE		0.03	/* medians this close are one speed */
#define WRAP		78	/* columns of the table's prose */
#define MAX_LIBS	8

/* CPU features that change which digest wins; arch is 'x' or 'a'. */
static const struct {
	char		 arch;
	const char	*token;		/* as /proc/cpuinfo spells it */
	const char	*label;
} features[] = {
	{ 'x', "sha_ni", "SHA-NI" },
	{ 'x', "avx2", "AVX2" },
	{ 'x', "avx512f", "AVX-512" },
	{ 'x', "sse4_2", "SSE4.2" },
	{ 'x', "pclmulqdq", "PCLMUL" },
	{ 'a', "sha2", "SHA2" },
	{ 'a', "sha512", "SHA512" },
	{ 'a', "sha3", "SHA3" },
	{ 'a', "crc32", "CRC32" },
	{ 'a', "pmull", "PMULL" },
	{ 'a', "asimd", "NEON" },
};

struct machine {
	char		 cpu[160];
	long		 cores;
	char		 arch;		/* 'x', 'a', or 0: features unknown */
	bool		 has[MS_ARRAY_LEN(features)];
	size_t		 nlibs;
	char		*lib[MAX_LIBS];		/* "openssl" */
	const char	*libname[MAX_LIBS];	/* "OpenSSL" */
	const char	*version[MAX_LIBS];
	char		 compiler[160];
};

struct report {
	const struct ms_bench *b;
	FILE		*out;
	bool		 utf8;
	struct machine	 m;
	char		**verdict;
	size_t		 nverdict;
};

static const char *const oneshot16 = "oneshot-16MiB";
static const char *const small_id = "small-20000x1KiB";

/* ------------------------------------------------------------ machine */

static char *
trim(char *s)
{
	char *e = s + strlen(s);

	while (isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static bool
has_token(const char *list, const char *tok)
{
	size_t tl = strlen(tok);

	for (const char *p = list; (p = strstr(p, tok)) != NULL; p += tl)
		if ((p == list || p[-1] == ' ') &&
		    (p[tl] == '\0' || p[tl] == ' '))
			return true;
	return false;
}

/* CPU model and features from /proc/cpuinfo; uname when there is none. */
static void
read_cpuinfo(struct machine *m)
{
	FILE *fp = fopen("/proc/cpuinfo", "r");
	char line[8192];
	bool model = false, flags = false;

	while (fp != NULL && fgets(line, sizeof(line), fp) != NULL) {
		char *colon = strchr(line, ':'), *key, *val;

		if (colon == NULL)
			continue;
		*colon = '\0';
		key = trim(line);
		val = trim(colon + 1);
		if (!model && *val && (strcmp(key, "model name") == 0 ||
		    strcmp(key, "Hardware") == 0 ||
		    strcmp(key, "cpu model") == 0 || strcmp(key, "cpu") == 0)) {
			snprintf(m->cpu, sizeof(m->cpu), "%s", val);
			model = true;
		}
		if (!flags && (strcmp(key, "flags") == 0 ||
		    strcmp(key, "Features") == 0)) {
			m->arch = strcmp(key, "flags") == 0 ? 'x' : 'a';
			for (size_t i = 0; i < MS_ARRAY_LEN(features); i++)
				m->has[i] = features[i].arch == m->arch &&
				    has_token(val, features[i].token);
			flags = true;
		}
	}
	if (fp != NULL)
		fclose(fp);
	if (!model) {
		struct utsname u;

		snprintf(m->cpu, sizeof(m->cpu), "%s",
		    uname(&u) == 0 ? u.machine : "unknown");
	}
}

static void
gather(struct machine *m)
{
	memset(m, 0, sizeof(*m));
	read_cpuinfo(m);
	m->cores = sysconf(_SC_NPROCESSORS_ONLN);
	for (size_t i = 0; i < ms_algo_count; i++) {
		const struct ms_digest_ops *ops = ms_algos[i].ops;
		size_t k;

		for (k = 0; k < m->nlibs; k++)
			if (strcmp(m->libname[k], ops->backend) == 0)
				break;
		if (k < m->nlibs || ops->version == NULL ||
		    m->nlibs == MAX_LIBS)
			continue;
		m->libname[k] = ops->backend;
		m->version[k] = ops->version();
		if (m->version[k] == NULL)
			continue;
		/* JSON keys are lower case: "openssl", "libb2". */
		m->lib[k] = ms_xstrdup(ops->backend);
		for (char *p = m->lib[k]; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		m->nlibs++;
	}
#ifdef __VERSION__
	snprintf(m->compiler, sizeof(m->compiler), "%s", __VERSION__);
#endif
}

static bool
has_feature(const struct machine *m, const char *token)
{
	for (size_t i = 0; i < MS_ARRAY_LEN(features); i++)
		if (strcmp(features[i].token, token) == 0)
			return m->has[i];
	return false;
}

/* ------------------------------------------------------------ helpers */

static bool
ok(const struct ms_bench_cell *c)
{
	return c != NULL && c->measured;
}

static const struct ms_bench_cell *
cell_of(const struct report *r, const struct ms_bench_algo *a, const char *wl)
{
	return ms_bench_find(r->b, a, wl);
}

static double
median_of(const struct report *r, const struct ms_bench_algo *a, const char *wl)
{
	const struct ms_bench_cell *c = cell_of(r, a, wl);

	return ok(c) ? c->median : 0;
}

static const struct ms_bench_algo *
algo_named(const struct ms_bench *b, const char *name)
{
	for (size_t i = 0; i < b->nalgo; i++)
		if (strcmp(b->algo[i].name, name) == 0 &&
		    b->algo[i].kat != MS_KAT_FAIL)
			return &b->algo[i];
	return NULL;
}

/* The most CPU seconds per second any in-memory workload of a used. */
static double
cpu_of(const struct report *r, const struct ms_bench_algo *a)
{
	double most = 0;

	for (size_t i = 0; i < r->b->ncell; i++) {
		const struct ms_bench_cell *c = &r->b->cell[i];

		if (c->algo == a && ok(c) && c->kind != MS_BENCH_FILE &&
		    c->cpu > most)
			most = c->cpu;
	}
	return most;
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

/* MB/s with as many digits as mean something. */
static const char *
mbps(char *buf, size_t cap, double v)
{
	snprintf(buf, cap, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
	return buf;
}

static const char *
io_name(enum ms_io io)
{
	return io == MS_IO_MMAP ? "mmap" : io == MS_IO_READ ? "read" : "auto";
}

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

static void
say(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Add a line to the verdict. */
static void
say(struct report *r, const char *fmt, ...)
{
	va_list ap;
	char *line;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) == -1)
		ms_die("%s", strerror(ENOMEM));
	va_end(ap);
	r->verdict = ms_xrealloc(r->verdict,
	    (r->nverdict + 1) * sizeof(*r->verdict));
	r->verdict[r->nverdict++] = line;
}

/* ------------------------------------------------------------ verdict */

/* May algorithm a (measured at wl) stand in a verdict about want? */
static bool
eligible(const struct report *r, const struct ms_bench_algo *a, const char *wl,
    bool (*want)(enum ms_class), bool one_cpu)
{
	return median_of(r, a, wl) > 0 && want(a->spec.algo->class) &&
	    (!one_cpu || cpu_of(r, a) < MULTI_CPU);
}

/*
 * The fastest eligible algorithm at wl, and into text the names of all
 * that are within TIE of it ("sha224 and sha256 tie at 2066-2083 MB/s"),
 * fastest first.  NULL if none is eligible.
 */
static const struct ms_bench_algo *
leaders(const struct report *r, const char *wl, bool (*want)(enum ms_class),
    bool one_cpu, char *text, size_t cap)
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
		for (size_t k = i; k > 0 && median_of(r, v[k], wl) >
		    median_of(r, v[k - 1], wl); k--) {
			const struct ms_bench_algo *t = v[k];
			v[k] = v[k - 1];
			v[k - 1] = t;
		}
	best = n > 0 ? v[0] : NULL;
	while (n > 1 && median_of(r, v[n - 1], wl) < (1 - TIE) *
	    median_of(r, best, wl))
		n--;
	text[0] = '\0';
	for (size_t i = 0; i < n && len < cap; i++)
		len += (size_t)snprintf(text + len, cap - len, "%s%s",
		    i == 0 ? "" : i + 1 == n ? " and " : ", ", v[i]->name);
	if (best != NULL && len < cap) {
		mbps(v1, sizeof(v1), median_of(r, best, wl));
		if (n == 1)
			snprintf(text + len, cap - len, " at %s MB/s", v1);
		else
			snprintf(text + len, cap - len, " tie at %s-%s MB/s "
			    "(within %.0f%%)", mbps(v2, sizeof(v2),
			    median_of(r, v[n - 1], wl)), v1, TIE * 100);
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
verdict_fastest(struct report *r)
{
	const struct ms_bench_algo *base = r->b->baseline, *best, *one;
	char text[512], text1[512], ratio[64] = "";

	best = leaders(r, oneshot16, is_secure, false, text, sizeof(text));
	if (best != NULL) {
		/* A tie has its numbers; one winner gets its ratio. */
		if (cell_of(r, best, oneshot16)->ratio > 0 && best != base &&
		    strstr(text, " tie at ") == NULL)
			snprintf(ratio, sizeof(ratio), " (%.2fx %s)",
			    cell_of(r, best, oneshot16)->ratio, base->name);
		say(r, "Fastest secure digest at 16 MiB: %s%s.", text, ratio);
		one = leaders(r, oneshot16, is_secure, true, text1,
		    sizeof(text1));
		if (cpu_of(r, best) >= MULTI_CPU && one != NULL)
			say(r, "  %s ran on %.1f CPUs (its library starts "
			    "threads); on one CPU: %s.", best->name,
			    cpu_of(r, best), text1);
	}
	if ((best = leaders(r, oneshot16, is_noncrypto, false, text,
	    sizeof(text)))) {
		ratio[0] = '\0';
		if (cell_of(r, best, oneshot16)->ratio > 0 &&
		    strstr(text, " tie at ") == NULL)
			snprintf(ratio, sizeof(ratio), " (%.2fx %s)",
			    cell_of(r, best, oneshot16)->ratio, base->name);
		say(r, "Fastest non-cryptographic checksum at 16 MiB: %s%s; it "
		    "catches accidents, not tampering.", text, ratio);
	}
}

/* How name compares with SHA-256 on this machine. */
static void
verdict_versus(struct report *r, const char *name, const char *label)
{
	const struct ms_bench_algo *a = algo_named(r->b, name);
	const struct ms_bench_algo *ref = algo_named(r->b, "sha256");
	double va = a ? median_of(r, a, oneshot16) : 0;
	double vr = ref ? median_of(r, ref, oneshot16) : 0;
	bool shani = has_feature(&r->m, "sha_ni") || has_feature(&r->m, "sha2");
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
	say(r, "%s runs at %s MB/s, %.2fx SHA-256 (%s MB/s): %s.", label,
	    mbps(b1, sizeof(b1), va), va / vr, mbps(b2, sizeof(b2), vr), why);
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
verdict_small(struct report *r)
{
	const struct ms_bench *b = r->b;
	struct ranked *v = ms_xcalloc(b->nalgo, sizeof(*v));
	size_t n = 0, shown = 0;
	char o1[24], o2[24], text[1024] = "", lead[512], lead2[512];
	const char *us = r->utf8 ? "\u00b5s" : "us";
	double typical;

	for (size_t i = 0; i < b->nalgo; i++) {
		double big = median_of(r, &b->algo[i], oneshot16);
		double small = median_of(r, &b->algo[i], small_id);

		if (big > 0 && small > 0)
			v[n++] = (struct ranked){ &b->algo[i], big, small,
			    0, 0 };
	}
	if (n < 3)
		goto out;
	leaders(r, small_id, is_any_class, false, lead, sizeof(lead));
	if (leaders(r, small_id, is_secure, false, lead2, sizeof(lead2)))
		say(r, "Many small inputs (20000 x 1 KiB, a new state each): "
		    "fastest %s; fastest secure %s.", lead, lead2);
	else
		say(r, "Many small inputs (20000 x 1 KiB, a new state each): "
		    "fastest %s.", lead);
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
		    "%.0f%% of the 16 MiB speed is kept): %s.", 100 * typical,
		    text);
	else
		say(r, "  Every algorithm keeps %.0f%% to %.0f%% of its 16 MiB "
		    "speed: per-digest set-up does not reorder the ranking "
		    "much.",
		    100 * kept(&v[0]), 100 * kept(&v[n - 1]));
out:
	free(v);
}

static void
verdict_files(struct report *r)
{
	const struct ms_bench *b = r->b;

	for (size_t i = 0; i < b->ncell; i++) {
		const struct ms_bench_cell *rd = &b->cell[i];
		const struct ms_bench_algo *slow = NULL, *quick = NULL;
		char list[512] = "", v1[32], v2[32];
		size_t nio = 0, ncpu = 0;
		double vs = 0, vq = 0;

		if (rd->kind != MS_BENCH_READ || !ok(rd) || rd->median <= 0)
			continue;
		for (size_t k = 0; k < b->nalgo; k++) {
			const struct ms_bench_cell *f;
			char wl[4096];

			snprintf(wl, sizeof(wl), "file:%s", rd->path);
			f = cell_of(r, &b->algo[k], wl);
			if (!ok(f) || !b->algo[k].selected)
				continue;
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
		mbps(v1, sizeof(v1), rd->median);
		if (ncpu == 0)
			say(r, "%s: I/O-bound: every selected algorithm "
			    "hashes it as fast as a plain read (%s MB/s, page "
			    "cache warm); a faster algorithm would not help.",
			    rd->path, v1);
		else if (nio == 0)
			say(r, "%s: CPU-bound: a plain read runs at %s MB/s "
			    "(page cache warm), faster than any selected "
			    "algorithm hashes it (the fastest, %s, at %s "
			    "MB/s).",
			    rd->path, v1,
			    quick->name, mbps(v2, sizeof(v2), vq));
		else
			say(r, "%s: I/O-bound for %s (within %.0f%% of a "
			    "plain read, %s MB/s, page cache warm); CPU-bound "
			    "for the other %zu (slowest: %s at %s MB/s).",
			    rd->path, list, (1 - IO_BOUND) * 100, v1, ncpu,
			    slow->name,
			    mbps(v2, sizeof(v2), vs));
		if (quick != NULL && vq < ENGINE_LOSS * median_of(r, quick,
		    oneshot16))
			say(r, "  Through the engine %s reaches %.0f%% of its "
			    "in-memory speed: reading into buffers and handing "
			    "them between threads, not the digest, limit it.",
			    quick->name,
			    100 * vq / median_of(r, quick, oneshot16));
	}
}

static void
verdict_engine(struct report *r)
{
	const struct ms_bench_cell *e = cell_of(r, NULL, "engine");
	char v[32];

	if (!ok(e) || e->median <= 0)
		return;
	say(r, "Capacity: the %zu selected algorithms in one pass with -j %u "
	    "hash %s MB/s of input (%s), so 1 GB takes about %.1f s.",
	    r->b->sel.cnt, r->b->jobs, mbps(v, sizeof(v), e->median),
	    r->b->engine_input, 1000 / e->median);
}

static void
make_verdict(struct report *r)
{
	verdict_fastest(r);
	verdict_versus(r, "md5", "MD5");
	verdict_versus(r, "blake2b", "BLAKE2b-512");
	verdict_small(r);
	verdict_files(r);
	verdict_engine(r);
	if (r->b->failed > 0)
		say(r, "%zu algorithm(s) failed the self-test and were not "
		    "measured: do not trust this build with them.",
		    r->b->failed);
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
bar(const struct report *r, double frac)
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
chart(const struct report *r, int namew)
{
	const struct ms_bench *b = r->b;
	const struct ms_bench_cell **v = ms_xcalloc(b->nalgo, sizeof(*v));
	size_t n = 0;
	char buf[32];

	for (size_t i = 0; i < b->nalgo; i++) {
		const struct ms_bench_cell *c = cell_of(r, &b->algo[i],
		    oneshot16);

		if (ok(c))
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
			    mbps(buf, sizeof(buf), v[i]->median));
		}
	}
	free(v);
}

static void
header(const struct report *r)
{
	const struct ms_bench *b = r->b;
	const struct ms_options *o = b->o;
	const struct machine *m = &r->m;
	size_t pass = 0, novec = 0;

	fprintf(r->out, "multisum %s --bench: %zu algorithms, budget %.3g s, "
	    "took %.1f s, -j %u, --io=%s, %zu KiB reads\n", PACKAGE_VERSION,
	    b->nalgo, b->budget, b->elapsed, b->jobs, io_name(o->engine.io),
	    o->engine.buffer_size / 1024);
	fprintf(r->out, "CPU        %s, %ld online CPU%s\n", m->cpu, m->cores,
	    m->cores == 1 ? "" : "s");
	fputs("Features  ", r->out);
	if (m->arch == 0)
		fputs(" unknown (no /proc/cpuinfo)", r->out);
	for (int want = 1; want >= 0 && m->arch != 0; want--) {
		bool any = false;

		for (size_t i = 0; i < MS_ARRAY_LEN(features); i++)
			if (features[i].arch == m->arch && m->has[i] == want) {
				fprintf(r->out, "%s%s", any ? " " : want ? " " :
				    "; absent: ", features[i].label);
				any = true;
			}
	}
	if (b->loadavg >= 0)
		fprintf(r->out, "\nLoad       %.2f (the 1-minute load average "
		    "as the run began)", b->loadavg);
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

/* The column heading of a workload: "16MiB", or a file's base name. */
static void
heading(char *buf, size_t cap, const char *wl)
{
	const char *p = strchr(wl, '-');

	if (strncmp(wl, "file:", 5) == 0)
		snprintf(buf, cap, "%.10s", base_name(wl + 5));
	else
		snprintf(buf, cap, "%s", p ? p + 1 : wl);
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

/* The widest distance of a run from its median, in % of the median. */
static double
spread(const struct ms_bench_cell *c)
{
	return c->median > 0 ? 100 * ms_dmax(c->max - c->median,
	    c->median - c->min) / c->median : 0;
}

static void
table_row(const struct report *r, const struct ms_bench_algo *a, int namew,
    int cw)
{
	const struct ms_bench *b = r->b;
	const struct ms_bench_cell *c16 = cell_of(r, a, oneshot16);
	unsigned rmin = 0, rmax = 0;
	double widest = 0;
	char buf[48];

	snprintf(buf, sizeof(buf), "%s%s", a->name,
	    cpu_of(r, a) >= MULTI_CPU ? "*" : "");
	fprintf(r->out, "%-*s %-10s", namew, buf,
	    short_class(a->spec.algo->class));
	if (a->kat == MS_KAT_FAIL) {
		fprintf(r->out, " self-test FAILED: %s\n", a->why);
		return;
	}
	for (size_t k = 0; k < b->ncolumn; k++) {
		const struct ms_bench_cell *c = cell_of(r, a, b->column[k]);

		if (!ok(c)) {
			fprintf(r->out, " %*s", cw,
			    c && c->err ? "error" : "-");
			continue;
		}
		fprintf(r->out, " %*s", cw, mbps(buf, sizeof(buf), c->median));
		if (rmin == 0 || c->runs < rmin)
			rmin = c->runs;
		if (c->runs > rmax)
			rmax = c->runs;
		widest = ms_dmax(widest, spread(c));
	}
	if (ok(c16) && c16->ratio > 0)
		fprintf(r->out, " %8.2f", c16->ratio);
	else
		fprintf(r->out, " %8s", "-");
	if (rmin == rmax)
		snprintf(buf, sizeof(buf), "%u", rmin);
	else
		snprintf(buf, sizeof(buf), "%u-%u", rmin, rmax);
	fprintf(r->out, " %5s %3.0f\n", buf, widest);
}

/* The engine and read rows: one figure each, under the table. */
static void
single_rows(const struct report *r)
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
		else
			what = ms_xasprintf("read: %s, read and not hashed:",
			    c->path);
		fputc('\n', r->out);
		wrap(r->out, "", "  ", what);
		free(what);
		if (ok(c))
			fprintf(r->out, "  %s MB/s of input (min %s, max %s; "
			    "%u runs; %.1f CPUs busy)\n",
			    mbps(v1, sizeof(v1), c->median),
			    mbps(v2, sizeof(v2), c->min),
			    mbps(v3, sizeof(v3), c->max), c->runs, c->cpu);
		else
			fprintf(r->out, "  %s\n", c->err ? strerror(c->err) :
			    "not measured");
	}
}

static void
table(struct report *r)
{
	const struct ms_bench *b = r->b;
	int namew = 9, cw = 10;
	char buf[64], *note;
	int rw;
	bool threads = false;
	unsigned disturbed = 0;

	for (size_t i = 0; i < b->nalgo; i++) {
		int w = (int)strlen(b->algo[i].name) + 1;	/* and a '*' */

		if (w > namew)
			namew = w;
		threads |= cpu_of(r, &b->algo[i]) >= MULTI_CPU;
	}
	for (size_t i = 0; i < b->ncell; i++)
		disturbed += b->cell[i].disturbed;
	header(r);
	fprintf(r->out, "\nMB/s (1 MB = 10^6 bytes): the median of the timed "
	    "runs, after a warm-up\n");
	fprintf(r->out, "%-*s %-10s", namew, "algorithm", "class");
	for (size_t k = 0; k < b->ncolumn; k++) {
		heading(buf, sizeof(buf), b->column[k]);
		fprintf(r->out, " %*s", cw, buf);
	}
	/* "\u00d7" is one column in two bytes: printf counts bytes. */
	snprintf(buf, sizeof(buf), "%s%s", r->utf8 ? "\u00d7" : "x",
	    b->baseline->name);
	rw = r->utf8 ? 9 : 8;
	fprintf(r->out, " %*.*s %5s %3s\n", rw, rw, buf, "runs", "+-%");
	for (size_t i = 0; i < b->nalgo; i++)
		table_row(r, &b->algo[i], namew, cw);
	note = ms_xasprintf("%s%s: the 16 MiB one-shot speed over %s's%s.  "
	    "runs: the timed runs of each cell.  +-%%: how far the farthest "
	    "run of the row lies from its median.", r->utf8 ? "\u00d7" : "x",
	    b->baseline->name, b->baseline->name, b->baseline->selected ? "" :
	    " (not selected: measured for the ratios)");
	wrap(r->out, "", "", note);
	free(note);
	if (threads)
		fputs("* ran on more than one CPU: its library starts "
		    "threads.\n", r->out);
	if (disturbed > 0)
		fprintf(r->out, "%u run%s lost the CPU to other load and %s "
		    "repeated; the figures leave %s out.\n", disturbed,
		    disturbed == 1 ? "" : "s", disturbed == 1 ? "was" : "were",
		    disturbed == 1 ? "it" : "them");
	single_rows(r);
	chart(r, namew);
	if (r->nverdict > 0)
		fputs("\nVerdict\n", r->out);
	for (size_t i = 0; i < r->nverdict; i++) {
		bool more = r->verdict[i][0] == ' ';

		wrap(r->out, more ? "  " : "- ", "  ",
		    r->verdict[i] + (more ? 2 : 0));
	}
}

/* ------------------------------------------------------------ csv, json */

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

/* v with the given decimals; null if it is not a number. */
static void
json_number(FILE *out, int decimals, double v)
{
	if (isfinite(v))
		fprintf(out, "%.*f", decimals, v);
	else
		fputs("null", out);
}

/* The present features, as /proc/cpuinfo spells them, space separated. */
static char *
flag_list(const struct machine *m)
{
	char buf[256] = "";

	for (size_t i = 0; i < MS_ARRAY_LEN(features); i++)
		if (m->has[i]) {
			size_t len = strlen(buf);

			snprintf(buf + len, sizeof(buf) - len, "%s%s",
			    len ? " " : "", features[i].token);
		}
	return ms_xstrdup(buf);
}

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
csv(const struct report *r)
{
	const struct ms_bench *b = r->b;
	const struct machine *m = &r->m;
	char *flags = flag_list(m);
	static const char *const cols[] = {
		"algorithm", "class", "workload", "bytes", "repeat", "runs",
		"mbps_median", "mbps_min", "mbps_max", "cpu_per_wall",
		"disturbed", "ratio",
		"baseline", "cpu", "cores", "flags", "loadavg",
	};
	char cores[32], load[32];

	snprintf(cores, sizeof(cores), "%ld", m->cores);
	if (b->loadavg >= 0)
		snprintf(load, sizeof(load), "%.2f", b->loadavg);
	else
		load[0] = '\0';
	for (size_t i = 0; i < MS_ARRAY_LEN(cols); i++)
		csv_field(r->out, cols[i], false);
	for (size_t i = 0; i < m->nlibs; i++)
		csv_field(r->out, m->lib[i], false);
	csv_field(r->out, "cc", false);
	csv_field(r->out, "cflags", true);
	for (size_t i = 0; i < b->ncell; i++) {
		const struct ms_bench_cell *c = &b->cell[i];
		char algos[2048], num[64];

		if (!ok(c))
			continue;
		csv_field(r->out, algo_field(b, c, algos, sizeof(algos)),
		    false);
		csv_field(r->out, c->algo ?
		    ms_class_name(c->algo->spec.algo->class) : NULL, false);
		csv_field(r->out, c->workload, false);
		fprintf(r->out, "%ju,%u,%u,%.2f,%.2f,%.2f,%.2f,%u,",
		    (uintmax_t)c->bytes, c->repeat, c->runs, c->median, c->min,
		    c->max, c->cpu, c->disturbed);
		if (c->ratio > 0)
			snprintf(num, sizeof(num), "%.3f", c->ratio);
		else
			num[0] = '\0';
		csv_field(r->out, num, false);
		csv_field(r->out, b->baseline->name, false);
		csv_field(r->out, m->cpu, false);
		csv_field(r->out, cores, false);
		csv_field(r->out, flags, false);
		csv_field(r->out, load, false);
		for (size_t k = 0; k < m->nlibs; k++)
			csv_field(r->out, m->version[k], false);
		csv_field(r->out, MS_BUILD_CC, false);
		csv_field(r->out, MS_BUILD_CFLAGS, true);
	}
	free(flags);
}

static void
json(const struct report *r)
{
	const struct ms_bench *b = r->b;
	const struct ms_options *o = b->o;
	const struct machine *m = &r->m;
	bool first = true;

	fputs("{\"machine\": {\"cpu\": ", r->out);
	ms_json_string(r->out, m->cpu);
	fprintf(r->out, ", \"cores\": %ld, \"flags\": [", m->cores);
	for (size_t i = 0; i < MS_ARRAY_LEN(features); i++)
		if (m->has[i]) {
			fprintf(r->out, "%s\"%s\"", first ? "" : ", ",
			    features[i].token);
			first = false;
		}
	fputs("],\n  \"libraries\": {", r->out);
	for (size_t i = 0; i < m->nlibs; i++) {
		fprintf(r->out, "%s\"%s\": ", i ? ", " : "", m->lib[i]);
		ms_json_string(r->out, m->version[i]);
	}
	fputs("},\n  \"build\": {\"cc\": ", r->out);
	ms_json_string(r->out, MS_BUILD_CC);
	fputs(", \"compiler\": ", r->out);
	ms_json_string(r->out, m->compiler);
	fputs(", \"cflags\": ", r->out);
	ms_json_string(r->out, MS_BUILD_CFLAGS);
	fprintf(r->out, "}},\n \"settings\": {\"multisum\": \"%s\", "
	    "\"bench_time\": ", PACKAGE_VERSION);
	json_number(r->out, 3, b->budget);
	fputs(", \"elapsed\": ", r->out);
	json_number(r->out, 3, b->elapsed);
	fputs(", \"loadavg\": ", r->out);
	json_number(r->out, 2, b->loadavg >= 0 ? b->loadavg : NAN);
	fprintf(r->out, ", \"jobs\": %u, \"io\": \"%s\", \"buffer_size\": "
	    "%zu},\n", b->jobs, io_name(o->engine.io), o->engine.buffer_size);
	fputs(" \"baseline\": ", r->out);
	ms_json_string(r->out, b->baseline->name);
	fputs(",\n \"self_test\": [", r->out);
	for (size_t i = 0; i < b->nalgo; i++) {
		const struct ms_bench_algo *a = &b->algo[i];

		fprintf(r->out, "%s\n  {\"algorithm\": ", i ? "," : "");
		ms_json_string(r->out, a->name);
		fprintf(r->out, ", \"result\": \"%s\"",
		    a->kat == MS_KAT_PASS ? "pass" :
		    a->kat == MS_KAT_NO_VECTOR ? "consistent" : "fail");
		if (a->kat == MS_KAT_FAIL) {
			fputs(", \"why\": ", r->out);
			ms_json_string(r->out, a->why);
		}
		fputs("}", r->out);
	}
	fputs("],\n \"results\": [", r->out);
	first = true;
	for (size_t i = 0; i < b->ncell; i++) {
		const struct ms_bench_cell *c = &b->cell[i];
		char algos[2048];
		const char *an = algo_field(b, c, algos, sizeof(algos));

		if (!ok(c))
			continue;
		fprintf(r->out, "%s\n  {\"algorithm\": ", first ? "" : ",");
		first = false;
		if (an != NULL)
			ms_json_string(r->out, an);
		else
			fputs("null", r->out);
		fputs(", \"class\": ", r->out);
		if (c->algo != NULL)
			fprintf(r->out, "\"%s\"",
			    ms_class_name(c->algo->spec.algo->class));
		else
			fputs("null", r->out);
		fputs(", \"workload\": ", r->out);
		ms_json_string(r->out, c->workload);
		fprintf(r->out, ", \"bytes\": %ju, \"repeat\": %u, \"runs\": "
		    "%u, \"mbps_median\": ", (uintmax_t)c->bytes, c->repeat,
		    c->runs);
		json_number(r->out, 2, c->median);
		fputs(", \"mbps_min\": ", r->out);
		json_number(r->out, 2, c->min);
		fputs(", \"mbps_max\": ", r->out);
		json_number(r->out, 2, c->max);
		fputs(", \"cpu_per_wall\": ", r->out);
		json_number(r->out, 2, c->cpu);
		fprintf(r->out, ", \"disturbed\": %u, \"ratio\": ",
		    c->disturbed);
		json_number(r->out, 3, c->ratio > 0 ? c->ratio : NAN);
		fputs("}", r->out);
	}
	fputs("],\n \"verdict\": [", r->out);
	for (size_t i = 0; i < r->nverdict; i++) {
		fputs(i ? ",\n  " : "\n  ", r->out);
		ms_json_string(r->out, r->verdict[i][0] == ' ' ?
		    r->verdict[i] + 2 : r->verdict[i]);
	}
	fputs("]}\n", r->out);
}

void
ms_bench_report(const struct ms_bench *b, FILE *out, const char *format,
    bool utf8)
{
	struct report r = { .b = b, .out = out, .utf8 = utf8 };

	gather(&r.m);
	make_verdict(&r);
	if (strcmp(format, "json") == 0)
		json(&r);
	else if (strcmp(format, "csv") == 0)
		csv(&r);
	else
		table(&r);
	for (size_t i = 0; i < r.nverdict; i++)
		free(r.verdict[i]);
	free(r.verdict);
	for (size_t i = 0; i < r.m.nlibs; i++)
		free(r.m.lib[i]);
}
