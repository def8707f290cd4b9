/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * unit-blake3.c - the official BLAKE3 test vectors (tests/blake3-vectors.txt,
 * from the BLAKE3 team's test_vectors.json) through hash, keyed_hash and
 * derive_key with 131-byte extended output, whole and in odd splits, at
 * every SIMD level this CPU has, and split into parts hashed apart and
 * joined as the engine does; every level's many-input compression
 * against the portable one for every count up to 40 inputs; and whole
 * messages side by side in lanes (BLAKE3 across files).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/blake3.h"
#include "kernels/blake3_impl.h"
#include "base/util.h"

#include "levels.h"
#include "tap.h"

#define XOF_LEN		131
#define INPUT_MAX	102400

static const char key[] = "whats the Elvish word for friend";
static const char context[] = "BLAKE3 2019-12-27 16:29:52 test vectors context";

struct vector {
	size_t	 len;
	char	 hex[3][2 * XOF_LEN + 1];	/* hash, keyed, derive */
};

static const char *const mode_name[3] = { "hash", "keyed_hash", "derive_key" };

static uint8_t input[INPUT_MAX];

static void
start(struct ms_blake3 *h, int mode)
{
	switch (mode) {
	case 0: ms_blake3_init(h); break;
	case 1: ms_blake3_init_keyed(h, (const uint8_t *)key); break;
	default: ms_blake3_init_derive_key(h, context, strlen(context)); break;
	}
}

/* Hash len input bytes fed in pieces from splits (0 ends, then repeats). */
static void
digest(int mode, size_t len, const size_t *splits, uint8_t *out, size_t out_len)
{
	struct ms_blake3 h;
	size_t off = 0, i = 0;

	start(&h, mode);
	while (splits != NULL && off < len) {
		size_t n = splits[i++];

		if (n == 0) {
			i = 0;
			continue;
		}
		if (n > len - off)
			n = len - off;
		ms_blake3_update(&h, input + off, n);
		off += n;
	}
	ms_blake3_update(&h, input + off, len - off);
	ms_blake3_final(&h, out, out_len);
}

static int
read_vectors(struct vector *v, size_t cap)
{
	const char *dir = getenv("TESTS_SRCDIR");
	char path[4096], line[2048];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/blake3-vectors.txt", dir ? dir : "tests");
	if ((f = fopen(path, "r")) == NULL) {
		perror(path);
		exit(1);
	}
	while (n < cap && fgets(line, sizeof(line), f) != NULL) {
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%zu %262s %262s %262s", &v[n].len, v[n].hex[0],
		    v[n].hex[1], v[n].hex[2]) == 4)
			n++;
	}
	fclose(f);
	return (int)n;
}

static void
test_vectors(const struct vector *v, int cnt)
{
	/* Splits cross the 64-byte blocks, the 1 KiB chunks and the
	 * batches of whole chunks at odd offsets; 799 ends a chunk at
	 * 16 KiB, held whole until 20000 more join it in a kernel call. */
	static const size_t odd[] = { 1, 63, 64, 65, 1023, 1, 1024, 1025, 4097,
	    31, 8191, 799, 20000, 0 };
	static const size_t bytes[] = { 1, 0 };

	for (const char *const *l = ms_blake3_levels.known; *l; l++) {
		const char *name = *l;

		if (!level_force_or_skip(&ms_blake3_levels, name, "vectors"))
			continue;
		for (int i = 0; i < cnt; i++)
			for (int mode = 0; mode < 3; mode++) {
				uint8_t out[XOF_LEN], split[XOF_LEN], shrt[32];
				char hex[2 * XOF_LEN + 1];
				bool ok;

				digest(mode, v[i].len, NULL, out, sizeof(out));
				ms_hex(hex, out, sizeof(out));
				ok = strcmp(hex, v[i].hex[mode]) == 0;
				digest(mode, v[i].len, odd, split, sizeof(split));
				ok = ok && memcmp(out, split, sizeof(out)) == 0;
				if (v[i].len <= 8193) {
					digest(mode, v[i].len, bytes, split, sizeof(split));
					ok = ok && memcmp(out, split, sizeof(out)) == 0;
				}
				digest(mode, v[i].len, NULL, shrt, sizeof(shrt));
				ok = ok && memcmp(out, shrt, sizeof(shrt)) == 0;
				tap_ok(ok, "%s: %s of %zu bytes", name, mode_name[mode],
				    v[i].len);
				if (!ok)
					tap_diag("got  %s\n# want %s", hex, v[i].hex[mode]);
			}
	}
}

/* The engine's split: parts hashed apart, joined in order, the end fed. */
static void
test_parts(const struct vector *v, int cnt)
{
	static const size_t sizes[] = { 1024, 4096, 16384, 32768 };

	for (int i = 0; i < cnt; i++) {
		if (v[i].len < 8192)
			continue;
		for (size_t k = 0; k < MS_ARRAY_LEN(sizes); k++)
			for (int mode = 0; mode < 3; mode++) {
				size_t ps = sizes[k], off = ps;
				struct ms_blake3 h, proto;
				uint8_t out[XOF_LEN], cv[32];
				char hex[2 * XOF_LEN + 1];

				if (ps >= v[i].len)
					continue;
				start(&h, mode);
				start(&proto, mode);
				ms_blake3_update(&h, input, ps);
				for (; off + ps < v[i].len; off += ps) {
					ms_blake3_part(&proto, input + off, ps, off, cv);
					ms_blake3_join(&h, cv, off, ps);
				}
				ms_blake3_update(&h, input + off, v[i].len - off);
				ms_blake3_final(&h, out, sizeof(out));
				ms_hex(hex, out, sizeof(out));
				tap_is_str(hex, v[i].hex[mode], "parts");
				tap_diag("%s of %zu bytes in parts of %zu", mode_name[mode],
				    v[i].len, ps);
			}
	}
}

/* final does not end the hasher: more input may follow. */
static void
test_final_midway(void)
{
	uint8_t whole[XOF_LEN], mid[XOF_LEN], midway[32];
	struct ms_blake3 h;

	digest(0, 70001, NULL, whole, sizeof(whole));
	ms_blake3_init(&h);
	ms_blake3_update(&h, input, 33333);
	ms_blake3_final(&h, midway, sizeof(midway));
	ms_blake3_update(&h, input + 33333, 70001 - 33333);
	ms_blake3_final(&h, mid, sizeof(mid));
	tap_ok(memcmp(whole, mid, sizeof(mid)) == 0,
	    "final midway leaves the hasher usable");
}

/* The SIMD kernels, for chunks and for parents, any count. */
static void
test_many(void)
{
	static uint8_t want[40 * 32], got[40 * 32];
	uint32_t k[8];

	memcpy(k, ms_b3_iv, sizeof(k));
	k[3] ^= 0x5a5a5a5a;
	/* the portable kernel is the reference: the SIMD ones */
	for (const char *const *l = ms_blake3_levels.known + 1; *l; l++) {
		const struct ms_b3_kernel *kern;
		bool ok = true;

		if (!level_force_or_skip(&ms_blake3_levels, *l,
		    "many-input kernel"))
			continue;
		kern = ms_level_kernel(&ms_blake3_levels);
		for (size_t cnt = 1; cnt <= 40; cnt++)
			for (size_t blocks = 1; blocks <= 16; blocks += 15) {
				uint64_t ctr = 0xfffffffaULL;	/* carries into the high word */

				ms_b3_many_portable(input + 7, cnt, blocks, k, ctr, blocks > 1,
				    B3_KEYED_HASH, B3_CHUNK_START, B3_CHUNK_END, want);
				kern->many(input + 7, cnt, blocks, k, ctr, blocks > 1,
				    B3_KEYED_HASH, B3_CHUNK_START, B3_CHUNK_END, got);
				ok = ok && memcmp(want, got, cnt * 32) == 0;
			}
		tap_ok(ok, "%s kernel matches the portable one for 1..40 inputs",
		    *l);
	}
}

/*
 * BLAKE3 across files (ms_blake3_many): at every level, against the
 * official vectors (their first 32 bytes) in every mode, the vectors' own
 * lengths side by side in one call, then random mixes of 1 to 40
 * messages of 0 to 17,000 bytes against the hasher, among them a short
 * and a long one in one group of lanes.  A level without lanes (the
 * portable one) hashes none and says so.
 */
static void
test_many_messages(const struct vector *v, int cnt)
{
	static uint8_t outb[64][32];
	const uint8_t *msg[64];
	size_t len[64];
	uint8_t *out[64];
	bool done[64];

	for (int i = 0; i < 64; i++)
		out[i] = outb[i];
	for (const char *const *l = ms_blake3_levels.known; *l; l++) {
		const char *name = *l;
		size_t hashed = 0, wrong = 0, n = 0;
		unsigned seed = 7;

		if (!level_force_or_skip(&ms_blake3_levels, name,
		    "many messages"))
			continue;
		for (int mode = 0; mode < 3; mode++) {
			struct ms_blake3 proto;

			n = 0;
			for (int i = 0; i < cnt && n < 64; i++) {
				msg[n] = input;
				len[n++] = v[i].len;
			}
			start(&proto, mode);
			ms_blake3_many(&proto, n, msg, len, out, done);
			for (size_t i = 0; i < n; i++) {
				char hex[65];

				if (!done[i])
					continue;
				hashed++;
				ms_hex(hex, out[i], 32);
				wrong += strncmp(hex, v[i].hex[mode], 64) != 0;
			}
		}
		for (size_t c = 1; c <= 40; c++)
			for (int rep = 0; rep < 4; rep++) {
				struct ms_blake3 proto;
				size_t off = 0;

				for (size_t i = 0; i < c; i++) {
					seed = seed * 1103515245 + 12345;
					len[i] = rep == 0 && i % 2 ? 3 : rep == 0 ?
					    16384 : seed % 17001;
					msg[i] = input + off;
					off = (off + 4099) % (INPUT_MAX - 17001);
				}
				start(&proto, rep % 3);
				ms_blake3_many(&proto, c, msg, len, out, done);
				for (size_t i = 0; i < c; i++) {
					struct ms_blake3 h;
					uint8_t want[32];

					if (!done[i])
						continue;
					hashed++;
					start(&h, rep % 3);
					ms_blake3_update(&h, msg[i], len[i]);
					ms_blake3_final(&h, want, 32);
					wrong += memcmp(want, out[i], 32) != 0;
				}
			}
		if (l == ms_blake3_levels.known)
			tap_ok(hashed == 0, "portable: no lanes, every message "
			    "left to the hasher");
		else
			tap_ok(hashed > 1000 && wrong == 0, "%s: %zu messages side "
			    "by side, %zu wrong", name, hashed, wrong);
	}
}

int
main(void)
{
	static struct vector v[64];
	int cnt;

	for (size_t i = 0; i < sizeof(input); i++)
		input[i] = (uint8_t)(i % 251);
	cnt = read_vectors(v, 64);
	tap_ok(cnt == 35, "read the 35 official vectors (got %d)", cnt);
	test_vectors(v, cnt);
	test_many();
	test_final_midway();
	test_parts(v, cnt);
	test_many_messages(v, cnt);
	return tap_done();
}
