/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * unit-whirlpool.c - the built-in Whirlpool's framing at every code level
 * whirlpool.c has on this machine: messages fed in two and three pieces
 * split at every place, so that a partial block meets a full one at
 * every offset, must give what one update gives; and every level must
 * agree with the portable one on every length 0..2048 and a few large
 * ones.  (The published vectors and the other tools' digests are
 * tests/whirlpool.sh's part.)
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/whirlpool.h"

#include "levels.h"
#include "tap.h"

#define MAXLEN	(256 * 1024 + 77)

static unsigned char msg[MAXLEN];

static void
digest(const unsigned char *p, size_t n, unsigned char out[MS_WHIRLPOOL_LEN])
{
	struct ms_whirlpool w;

	ms_whirlpool_init(&w);
	ms_whirlpool_update(&w, p, n);
	ms_whirlpool_final(&w, out);
}

/* Lengths 0..300 in two pieces at every split, one length in three. */
static bool
splits_agree(const char *level, char *what, size_t cap)
{
	unsigned char want[MS_WHIRLPOOL_LEN], got[MS_WHIRLPOOL_LEN];
	struct ms_whirlpool w;

	for (size_t n = 0; n <= 300; n++) {
		digest(msg, n, want);
		for (size_t i = 0; i <= n; i++) {
			ms_whirlpool_init(&w);
			ms_whirlpool_update(&w, msg, i);
			ms_whirlpool_update(&w, msg + i, n - i);
			ms_whirlpool_final(&w, got);
			if (memcmp(got, want, sizeof(got)) != 0) {
				snprintf(what, cap, "%s: %zu bytes split at %zu",
				    level, n, i);
				return false;
			}
		}
	}
	digest(msg, 200, want);
	for (size_t i = 0; i <= 200; i++)
		for (size_t j = i; j <= 200; j++) {
			ms_whirlpool_init(&w);
			ms_whirlpool_update(&w, msg, i);
			ms_whirlpool_update(&w, msg + i, j - i);
			ms_whirlpool_update(&w, msg + j, 200 - j);
			ms_whirlpool_final(&w, got);
			if (memcmp(got, want, sizeof(got)) != 0) {
				snprintf(what, cap, "%s: 200 bytes split at %zu "
				    "and %zu", level, i, j);
				return false;
			}
		}
	return true;
}

static const size_t large[] = {
	4095, 4096, 4097, 65535, 65536, 65537, MAXLEN - 1, MAXLEN,
};

/* The portable level's digests, to hold the others to. */
static unsigned char ref_small[2049][MS_WHIRLPOOL_LEN];
static unsigned char ref_large[sizeof(large) / sizeof(large[0])][MS_WHIRLPOOL_LEN];

static bool
matches_portable(const char *level, char *what, size_t cap)
{
	unsigned char got[MS_WHIRLPOOL_LEN];

	for (size_t n = 0; n <= 2048; n++) {
		digest(msg + n % 7, n, got);
		if (memcmp(got, ref_small[n], sizeof(got)) != 0) {
			snprintf(what, cap, "%s: %zu bytes", level, n);
			return false;
		}
	}
	for (size_t k = 0; k < sizeof(large) / sizeof(large[0]); k++) {
		digest(msg, large[k], got);
		if (memcmp(got, ref_large[k], sizeof(got)) != 0) {
			snprintf(what, cap, "%s: %zu bytes", level, large[k]);
			return false;
		}
	}
	return true;
}

int
main(void)
{
	const char *why;
	uint32_t x = 2463534242u;

	for (size_t i = 0; i < sizeof(msg); i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;	/* xorshift32 */
		msg[i] = (unsigned char)x;
	}
	if (ms_level_setup(&ms_whirlpool_levels, &why) == -1 ||
	    ms_level_force(&ms_whirlpool_levels, "portable") == -1) {
		tap_ok(0, "set-up: %s", why);
		return tap_done();
	}
	for (size_t n = 0; n <= 2048; n++)
		digest(msg + n % 7, n, ref_small[n]);
	for (size_t k = 0; k < sizeof(large) / sizeof(large[0]); k++)
		digest(msg, large[k], ref_large[k]);

	for (size_t l = 0; ms_whirlpool_levels.known[l] != NULL; l++) {
		const char *level = ms_whirlpool_levels.known[l];
		char what[128];
		bool ok;

		if (!level_force_or_skip(&ms_whirlpool_levels, level, "whirlpool"))
			continue;
		tap_ok(strcmp(ms_level_name(&ms_whirlpool_levels), level) == 0,
		    "%s: forced, it runs", level);
		ok = splits_agree(level, what, sizeof(what));
		tap_ok(ok, "%s: any split gives one update's digest", level);
		if (!ok)
			tap_diag("first difference: %s", what);
		if (l == 0)
			continue;	/* the reference itself */
		ok = matches_portable(level, what, sizeof(what));
		tap_ok(ok, "%s: agrees with portable on 0..2048 bytes and "
		    "large ones", level);
		if (!ok)
			tap_diag("first difference: %s", what);
	}
	return tap_done();
}
