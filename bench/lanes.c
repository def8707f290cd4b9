/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lanes.c - how fast the built-in lanes hash many small messages at each
 * level this CPU runs, beside one message after another through the same
 * digest's one stream (libcrypto for MD5, SHA-1 and SHA-256 on
 * MULTISUM_SHA256_LEVEL=libcrypto; the BLAKE3 hasher):
 *
 *   bench/lanes [SECONDS]
 *
 * For 16 messages of 1 KiB and of 4 KiB in memory (a batch of small
 * files as the engine hands them over), the best of many timed runs, in
 * MB/s of input (10^6 bytes); BLAKE3's portable level has no lanes.
 * Built by `make bench` against the
 * program's library; a benchmark, never a test: on a shared machine the
 * figures move, and the best run is the one least disturbed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "digest/algorithm.h"
#include "digest/backend.h"
#include "kernels/blake3.h"
#include "kernels/md_lanes.h"

#define LANES	16

static unsigned char data[LANES * 4096 + 64];
static double budget = 0.2;	/* seconds per figure */

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One batch of LANES messages of len bytes: lanes, or one by one. */
struct run {
	const char	*row;		/* md5, sha1, sha256, blake3 */
	size_t		 len;
	bool		 lanes;
};

static void
once(const struct run *r, void *st)
{
	const unsigned char *msg[LANES];
	size_t len[LANES];
	unsigned char outb[LANES][32], *out[LANES];
	bool done[LANES];
	enum ms_md_family f = strcmp(r->row, "md5") == 0 ? MS_MD_MD5 :
	    strcmp(r->row, "sha1") == 0 ? MS_MD_SHA1 : MS_MD_SHA256;
	const struct ms_md_shape *shape = f == MS_MD_MD5 ? &ms_md5_shape :
	    f == MS_MD_SHA1 ? &ms_sha1_shape : &ms_sha256_shape;

	for (size_t i = 0; i < LANES; i++) {
		msg[i] = data + i * r->len;
		len[i] = r->len;
		out[i] = outb[i];
	}
	if (strcmp(r->row, "blake3") == 0) {
		struct ms_blake3 h;

		ms_blake3_init(&h);
		if (r->lanes) {
			ms_blake3_many(&h, LANES, msg, len, out, done);
			return;
		}
		for (size_t i = 0; i < LANES; i++) {
			ms_blake3_init(&h);
			ms_blake3_update(&h, msg[i], len[i]);
			ms_blake3_final(&h, out[i], 32);
		}
		return;
	}
	if (r->lanes) {
		const struct ms_md_kernel *k = ms_md_kernel(f);

		ms_md_lanes(shape, k->fn, k->lanes, LANES, msg, len, out, done);
		return;
	}
	for (size_t i = 0; i < LANES; i++) {
		ms_ops_openssl.init(st);
		ms_ops_openssl.update(st, msg[i], len[i]);
		ms_ops_openssl.final(st, out[i]);
	}
}

/* MB/s of the best run of a batch repeated for at least 1 ms. */
static double
rate(const struct run *r, void *st)
{
	double best = 0, end = now() + budget;
	unsigned reps = 1;

	while (now() < end) {
		double t0 = now(), t;

		for (unsigned i = 0; i < reps; i++)
			once(r, st);
		t = now() - t0;
		if (t < 1e-3) {
			reps *= 2;
			continue;
		}
		if (best == 0 || reps * LANES * r->len / t / 1e6 > best)
			best = reps * LANES * r->len / t / 1e6;
	}
	return best;
}

static void
row(const char *name, const char *const *levels)
{
	const struct ms_algo *a = ms_algo_named(name);
	void *st = NULL;

	if (strcmp(name, "blake3") != 0) {
		if (ms_ops_openssl.load(a) == -1)
			return;
		st = ms_ops_openssl.create(a, a->bits / 8);
	}
	for (const char *const *l = levels; *l != NULL; l++) {
		struct run one1 = { name, 1024, false }, one4 = { name, 4096, false };
		struct run many1 = { name, 1024, true }, many4 = { name, 4096, true };
		enum ms_md_family f = strcmp(name, "md5") == 0 ? MS_MD_MD5 :
		    strcmp(name, "sha1") == 0 ? MS_MD_SHA1 : MS_MD_SHA256;
		int ok = strcmp(name, "blake3") == 0 ?
		    ms_blake3_simd_force((enum ms_blake3_simd)(l - levels)) :
		    ms_md_level_force(f, *l);

		if (ok == -1) {
			printf("%-8s %-8s  (not on this CPU)\n", name, *l);
			continue;
		}
		if (strcmp(name, "blake3") == 0 && l == levels)
			printf("%-8s %-8s %9s %9s", name, *l, "-", "-");
		else
			printf("%-8s %-8s %9.0f %9.0f", name, *l,
			    rate(&many1, st), rate(&many4, st));
		printf(" %9.0f %9.0f\n", rate(&one1, st), rate(&one4, st));
	}
	if (st != NULL)
		ms_ops_openssl.destroy(st);
}

int
main(int argc, char **argv)
{
	static const char *const md[] = { "avx2", "avx512", NULL };
	static const char *const sha256[] = { "avx2", "shani", "avx512", NULL };
	static const char *const b3[] = { "portable", "sse41", "avx2", "avx512",
	    NULL };

	if (argc > 1)
		budget = atof(argv[1]) > 0 ? atof(argv[1]) : budget;
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 131 + (i >> 9));
	printf("MB/s of 16 messages side by side (lanes) and one by one "
	    "(libcrypto; the BLAKE3 hasher at that level)\n");
	printf("%-8s %-8s %9s %9s %9s %9s\n", "digest", "level", "lanes 1K",
	    "lanes 4K", "one 1K", "one 4K");
	row("md5", md);
	row("sha1", md);
	row("sha256", sha256);
	row("blake3", b3);
	return 0;
}
