/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backend_blake2.c - BLAKE2 through libb2: the lengths and the parallel
 * variants (blake2bp, blake2sp) that OpenSSL's EVP lacks.
 *
 * Owns the lazy load of libb2 (it drags in the OpenMP runtime, which no
 * run should pay for unless it hashes with libb2).  Each variant exports
 * its own operations table (ms_ops_blake2b ...), called directly.
 */
#include <blake2.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "digest/backend.h"
#include "base/lazylib.h"
#include "base/util.h"

/* The libb2 functions this file calls, resolved on first use. */
#define B2_FUNCS(X, t) \
	X(t, blake2b_init) X(t, blake2b_update) X(t, blake2b_final) \
	X(t, blake2s_init) X(t, blake2s_update) X(t, blake2s_final) \
	X(t, blake2bp_init) X(t, blake2bp_update) X(t, blake2bp_final) \
	X(t, blake2sp_init) X(t, blake2sp_update) X(t, blake2sp_final)
MS_LAZY_LIB(libb2, MS_SONAME_B2, b2, B2_FUNCS);

/*
 * libb2 runs blake2bp and blake2sp over OpenMP threads of its own, which
 * read the caller's buffer directly: a mapped window of a file that
 * shrinks faults on those threads, which source.c's process-wide SIGBUS
 * handler covers (it knows every live window), so no copy is needed.
 */
struct state {
	/* First, so that the 64-byte alignment of the allocation holds. */
	union {
		blake2b_state	b;
		blake2s_state	s;
		blake2bp_state	bp;
		blake2sp_state	sp;
	} u;
	size_t		 len;
};

static int
blake2_load(const struct ms_algo *a)
{
	(void)a;
	return ms_lazy_load(&libb2);
}

static void *
blake2_create(const struct ms_digest_spec *spec)
{
	struct state *s;

	if (posix_memalign((void **)&s, 64, sizeof(*s)) != 0)
		return NULL;
	s->len = ms_spec_len(spec);
	return s;
}

static void
blake2_destroy(void *state)
{
	free(state);
}

static void
check(int rc, const char *what)
{
	if (rc != 0)
		ms_bug(what);
}

/* One variant's init, update and final; MEMBER is its member of the union. */
#define B2_VARIANT(v, member)						\
static void								\
b2_##v##_init(void *state)							\
{									\
	struct state *s = state;					\
									\
	check(b2.v##_init(&s->u.member, s->len), #v "_init");		\
}									\
									\
static void								\
b2_##v##_update(void *state, const void *p, size_t n)			\
{									\
	struct state *s = state;					\
									\
	check(b2.v##_update(&s->u.member, p, n), #v "_update");		\
}									\
									\
static void								\
b2_##v##_final(void *state, unsigned char *out)				\
{									\
	struct state *s = state;					\
									\
	check(b2.v##_final(&s->u.member, out, s->len), #v "_final");	\
}

B2_VARIANT(blake2b, b)
B2_VARIANT(blake2s, s)
B2_VARIANT(blake2bp, bp)
B2_VARIANT(blake2sp, sp)

static const char *
blake2_version(void)
{
	return MS_LIBB2_VERSION;
}

#define B2_OPS(CREATE, v) {						\
	.backend = "libb2", .load = blake2_load, .create = CREATE,	\
	.init = b2_##v##_init, .update = b2_##v##_update,		\
	.final = b2_##v##_final,					\
	.destroy = blake2_destroy, .version = blake2_version,		\
}

const struct ms_digest_ops ms_ops_blake2b = B2_OPS(blake2_create, blake2b);
const struct ms_digest_ops ms_ops_blake2s = B2_OPS(blake2_create, blake2s);
const struct ms_digest_ops ms_ops_blake2bp = B2_OPS(blake2_create, blake2bp);
const struct ms_digest_ops ms_ops_blake2sp = B2_OPS(blake2_create, blake2sp);
