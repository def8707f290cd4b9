/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backend_xxhash.c - XXH32, XXH64, XXH3 (64-bit) and XXH128 through
 * libxxhash, with seed 0 and the canonical (big-endian) output that
 * xxhsum prints.
 *
 * Owns the lazy load of libxxhash: small as it is, mapping it costs every
 * run that does not use it some 25 us (4% of a bare start).  Each variant
 * exports its own operations table (ms_ops_xxh32 ...), called directly.
 */
#include <xxhash.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest/backend.h"
#include "base/lazylib.h"
#include "base/util.h"

/* The libxxhash functions this file calls, resolved on first use. */
#define XXH_FUNCS(X, t) \
	X(t, XXH_versionNumber) X(t, XXH32_createState) \
	X(t, XXH32_freeState) X(t, XXH32_reset) X(t, XXH32_update) \
	X(t, XXH32_digest) X(t, XXH32_canonicalFromHash) \
	X(t, XXH64_createState) X(t, XXH64_freeState) X(t, XXH64_reset) \
	X(t, XXH64_update) X(t, XXH64_digest) X(t, XXH64_canonicalFromHash) \
	X(t, XXH3_createState) X(t, XXH3_freeState) X(t, XXH3_64bits_reset) \
	X(t, XXH3_64bits_update) X(t, XXH3_64bits_digest) \
	X(t, XXH3_128bits_reset) X(t, XXH3_128bits_update) \
	X(t, XXH3_128bits_digest) X(t, XXH128_canonicalFromHash) \
	X(t, XXH32) X(t, XXH64) X(t, XXH3_64bits) X(t, XXH3_128bits)
MS_LAZY_LIB(libxxhash, MS_SONAME_XXHASH, xx, XXH_FUNCS);

/*
 * Each variant's state is the library's own; XXH3 and XXH128 share one
 * state type.  The library's calls cannot fail with a valid state.
 */
static int
load(const struct ms_algo *a)
{
	static bool dispatched;

	(void)a;
	if (ms_lazy_load(&libxxhash) == -1)
		return -1;
	if (!dispatched) {
		/*
		 * On x86 the library also exports XXH3 updates that pick AVX2
		 * or AVX-512 at run time; the plain ones are built for the
		 * baseline (SSE2).  Same state, same result, and faster
		 * wherever the CPU has the wider vectors.
		 */
		void *p64 = ms_lazy_optional(&libxxhash, "XXH3_64bits_update_dispatch");
		void *p128 = ms_lazy_optional(&libxxhash, "XXH3_128bits_update_dispatch");
		void *o64 = ms_lazy_optional(&libxxhash, "XXH3_64bits_dispatch");
		void *o128 = ms_lazy_optional(&libxxhash, "XXH3_128bits_dispatch");

		if (p64 != NULL && p128 != NULL) {
			*(void **)&xx.XXH3_64bits_update = p64;
			*(void **)&xx.XXH3_128bits_update = p128;
		}
		if (o64 != NULL && o128 != NULL) {
			*(void **)&xx.XXH3_64bits = o64;
			*(void **)&xx.XXH3_128bits = o128;
		}
		dispatched = true;
	}
	return 0;
}

static void
check(XXH_errorcode rc, const char *what)
{
	if (rc != XXH_OK)
		ms_bug(what);
}

/*
 * The create and destroy (st_create, st_destroy) of a library state
 * type S: XXH32, XXH64, XXH3 (which XXH3 and XXH128 share).  And a
 * variant v's stream through one: F names its calls (XXH3_64bits_update
 * ...), T its canonical (big-endian) form, RESET its reset of state s.
 */
#define XXH_STATE(st, S)						\
static void *								\
st##_create(const struct ms_digest_spec *spec)				\
{									\
	(void)spec;							\
	return xx.S##_createState();					\
}									\
									\
static void								\
st##_destroy(void *s)							\
{									\
	if (s != NULL)							\
		xx.S##_freeState(s);					\
}

#define XXH_STREAM(v, F, T, RESET)					\
static void								\
v##_init(void *s)							\
{									\
	check(RESET, #F "_reset");					\
}									\
									\
static void								\
v##_update(void *s, const void *p, size_t n)				\
{									\
	check(xx.F##_update(s, p, n), #F "_update");			\
}									\
									\
static void								\
v##_final(void *s, unsigned char *out)					\
{									\
	T##_canonical_t c;						\
									\
	xx.T##_canonicalFromHash(&c, xx.F##_digest(s));			\
	memcpy(out, &c, sizeof(c));					\
}

XXH_STATE(xxh32, XXH32)
XXH_STATE(xxh64, XXH64)
XXH_STATE(xxh3, XXH3)
XXH_STREAM(xxh32, XXH32, XXH32, xx.XXH32_reset(s, 0))
XXH_STREAM(xxh64, XXH64, XXH64, xx.XXH64_reset(s, 0))
XXH_STREAM(xxh3, XXH3_64bits, XXH64, xx.XXH3_64bits_reset(s))
XXH_STREAM(xxh128, XXH3_128bits, XXH128, xx.XXH3_128bits_reset(s))

static const char *
version(void)
{
	static char buf[16];
	unsigned v;

	if (ms_lazy_load(&libxxhash) == -1)
		return NULL;
	v = xx.XXH_versionNumber();

	snprintf(buf, sizeof(buf), "%u.%u.%u", v / 10000, v / 100 % 100, v % 100);
	return buf;
}

/*
 * Small files: the library's one-shot call for each, with none of a
 * state's reset and buffering (XXH3 of 1 KiB: 150 instructions instead of
 * 700, callgrind).
 */
#define XXH_MANY(v, T, HASH)						\
static void								\
v##_many(const struct ms_digest_spec *s, size_t cnt,			\
    const unsigned char *const msg[], const size_t len[],		\
    unsigned char *const out[], bool done[])				\
{									\
	(void)s;							\
	for (size_t i = 0; i < cnt; i++) {				\
		T##_canonical_t c;					\
									\
		xx.T##_canonicalFromHash(&c, HASH);			\
		memcpy(out[i], &c, sizeof(c));				\
		done[i] = true;						\
	}								\
}
XXH_MANY(xxh32, XXH32, xx.XXH32(msg[i], len[i], 0))
XXH_MANY(xxh64, XXH64, xx.XXH64(msg[i], len[i], 0))
XXH_MANY(xxh3, XXH64, xx.XXH3_64bits(msg[i], len[i]))
XXH_MANY(xxh128, XXH128, xx.XXH3_128bits(msg[i], len[i]))

#define XXH_OPS(st, v) {						\
	.backend = "libxxhash", .load = load, .create = st##_create,	\
	.init = v##_init, .update = v##_update, .final = v##_final,	\
	.destroy = st##_destroy, .version = version, .many = v##_many,	\
}

const struct ms_digest_ops ms_ops_xxh32 = XXH_OPS(xxh32, xxh32);
const struct ms_digest_ops ms_ops_xxh64 = XXH_OPS(xxh64, xxh64);
const struct ms_digest_ops ms_ops_xxh3 = XXH_OPS(xxh3, xxh3);
const struct ms_digest_ops ms_ops_xxh128 = XXH_OPS(xxh3, xxh128);
