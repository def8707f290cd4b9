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
	bool md5 = strcmp(r->row, "md5") == 0, sha1 = strcmp(r->row, "sha1") == 0;
	struct ms_level_family *f = md5 ? &ms_md5_levels : sha1 ?
	    &ms_sha1_levels : &ms_sha256_levels;
	const struct ms_md_shape *shape = md5 ? &ms_md5_shape : sha1 ?
	    &ms_sha1_shape : &ms_sha256_shape;

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
		const struct ms_md_kernel *k = ms_level_kernel(f);

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

/* Every level of the family any build has, but MD's libcrypto (no
 * lanes: its one stream is the right-hand columns). */
static void
row(const char *name, struct ms_level_family *f)
{
	const struct ms_algo *a = ms_algo_named(name);
	const struct ms_digest_spec spec = { .algo = a, .bits = a->bits };
	bool b3 = strcmp(name, "blake3") == 0;
	void *st = NULL;

	if (!b3) {
		if (ms_ops_openssl.load(a) == -1)
			return;
		st = ms_ops_openssl.create(&spec);
	}
	for (const char *const *l = f->known + !b3; *l != NULL; l++) {
		struct run one1 = { name, 1024, false }, one4 = { name, 4096, false };
		struct run many1 = { name, 1024, true }, many4 = { name, 4096, true };

		if (ms_level_force(f, *l) == -1) {
			printf("%-8s %-8s  (not on this CPU or in this build)\n",
			    name, *l);
			continue;
		}
		if (b3 && l == f->known)
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
	if (argc > 1)
		budget = atof(argv[1]) > 0 ? atof(argv[1]) : budget;
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 131 + (i >> 9));
	printf("MB/s of 16 messages side by side (lanes) and one by one "
	    "(libcrypto; the BLAKE3 hasher at that level)\n");
	printf("%-8s %-8s %9s %9s %9s %9s\n", "digest", "level", "lanes 1K",
	    "lanes 4K", "one 1K", "one 4K");
	row("md5", &ms_md5_levels);
	row("sha1", &ms_sha1_levels);
	row("sha256", &ms_sha256_levels);
	row("blake3", &ms_blake3_levels);
	return 0;
}
