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

#include "backend.h"
#include "lazylib.h"
#include "util.h"

#ifndef MS_SONAME_B2
#error "configure must define MS_SONAME_B2"
#endif

static struct {
	__typeof__(blake2b_init)	*blake2b_init;
	__typeof__(blake2b_update)	*blake2b_update;
	__typeof__(blake2b_final)	*blake2b_final;
	__typeof__(blake2s_init)	*blake2s_init;
	__typeof__(blake2s_update)	*blake2s_update;
	__typeof__(blake2s_final)	*blake2s_final;
	__typeof__(blake2bp_init)	*blake2bp_init;
	__typeof__(blake2bp_update)	*blake2bp_update;
	__typeof__(blake2bp_final)	*blake2bp_final;
	__typeof__(blake2sp_init)	*blake2sp_init;
	__typeof__(blake2sp_update)	*blake2sp_update;
	__typeof__(blake2sp_final)	*blake2sp_final;
} b2;

static const struct ms_lazy_sym syms[] = {
	MS_LAZY_SYM(b2, blake2b_init), MS_LAZY_SYM(b2, blake2b_update),
	MS_LAZY_SYM(b2, blake2b_final), MS_LAZY_SYM(b2, blake2s_init),
	MS_LAZY_SYM(b2, blake2s_update), MS_LAZY_SYM(b2, blake2s_final),
	MS_LAZY_SYM(b2, blake2bp_init), MS_LAZY_SYM(b2, blake2bp_update),
	MS_LAZY_SYM(b2, blake2bp_final), MS_LAZY_SYM(b2, blake2sp_init),
	MS_LAZY_SYM(b2, blake2sp_update), MS_LAZY_SYM(b2, blake2sp_final),
};

static struct ms_lazy_lib libb2 = {
	.soname = MS_SONAME_B2, .syms = syms, .cnt = MS_ARRAY_LEN(syms),
};

/*
 * libb2 runs blake2bp and blake2sp over OpenMP threads of its own, which
 * read the caller's buffer.  When that buffer is a mapped window of a file
 * that shrinks, the SIGBUS comes on one of those threads, where source.c's
 * guard (one per hashing thread) cannot catch it, and kills the process.
 * So these two variants first copy their input, in the caller's guarded
 * thread, into a private buffer of this many bytes.
 */
#define BOUNCE		(64 * 1024)

struct state {
	/* First, so that the 64-byte alignment of the allocation holds. */
	union {
		blake2b_state	b;
		blake2s_state	s;
		blake2bp_state	bp;
		blake2sp_state	sp;
	} u;
	size_t		 len;
	unsigned char	*bounce;	/* BOUNCE bytes, for blake2bp and blake2sp */
};

static int
load(const struct ms_algo *a)
{
	(void)a;
	return ms_lazy_load(&libb2);
}

static struct state *
create_state(size_t len, bool bounce)
{
	struct state *s;

	if (posix_memalign((void **)&s, 64, sizeof(*s)) != 0)
		return NULL;
	s->len = len;
	s->bounce = NULL;
	if (bounce && (s->bounce = malloc(BOUNCE)) == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

static void *
create(const struct ms_algo *a, size_t len)
{
	(void)a;
	return create_state(len, false);
}

static void *
create_bounced(const struct ms_algo *a, size_t len)
{
	(void)a;
	return create_state(len, true);
}

static void
destroy(void *state)
{
	struct state *s = state;

	if (s != NULL)
		free(s->bounce);
	free(s);
}

static void
check(int rc, const char *what)
{
	if (rc != 0)
		ms_bug(what);
}

/*
 * One variant's init, update and final; MEMBER is its member of the
 * union.  The parallel variants feed the library from the bounce buffer.
 */
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

static void
b2_blake2b_update(void *state, const void *p, size_t n)
{
	struct state *s = state;

	check(b2.blake2b_update(&s->u.b, p, n), "blake2b_update");
}

static void
b2_blake2s_update(void *state, const void *p, size_t n)
{
	struct state *s = state;

	check(b2.blake2s_update(&s->u.s, p, n), "blake2s_update");
}

static void
b2_blake2bp_update(void *state, const void *p, size_t n)
{
	struct state *s = state;
	const unsigned char *in = p;

	for (size_t k; n > 0; in += k, n -= k) {
		k = n < BOUNCE ? n : BOUNCE;
		memcpy(s->bounce, in, k);
		check(b2.blake2bp_update(&s->u.bp, s->bounce, k),
		    "blake2bp_update");
	}
}

static void
b2_blake2sp_update(void *state, const void *p, size_t n)
{
	struct state *s = state;
	const unsigned char *in = p;

	for (size_t k; n > 0; in += k, n -= k) {
		k = n < BOUNCE ? n : BOUNCE;
		memcpy(s->bounce, in, k);
		check(b2.blake2sp_update(&s->u.sp, s->bounce, k),
		    "blake2sp_update");
	}
}

static const char *
version(void)
{
	return MS_LIBB2_VERSION;
}

#define B2_OPS(CREATE, v) {						\
	.backend = "libb2", .load = load, .create = CREATE,		\
	.init = b2_##v##_init, .update = b2_##v##_update,		\
	.final = b2_##v##_final,					\
	.destroy = destroy, .version = version,				\
}

const struct ms_digest_ops ms_ops_blake2b = B2_OPS(create, blake2b);
const struct ms_digest_ops ms_ops_blake2s = B2_OPS(create, blake2s);
const struct ms_digest_ops ms_ops_blake2bp = B2_OPS(create_bounced, blake2bp);
const struct ms_digest_ops ms_ops_blake2sp = B2_OPS(create_bounced, blake2sp);
