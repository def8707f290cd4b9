/*
 * backend_blake2.c - BLAKE2 through libb2: the lengths and the parallel
 * variants (blake2bp, blake2sp) that OpenSSL's EVP lacks.
 *
 * Owns the lazy load of libb2 (it drags in the OpenMP runtime, which no
 * run should pay for unless it hashes with libb2).  A row's impl field
 * names the variant: "blake2b", "blake2s", "blake2bp" or "blake2sp".
 */
#include <blake2.h>

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

enum variant { B2B, B2S, B2BP, B2SP };

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
	enum variant	 v;
	size_t		 len;
	unsigned char	*bounce;	/* BOUNCE bytes, for B2BP and B2SP */
};

static int
load(const struct ms_algo *a)
{
	(void)a;
	return ms_lazy_load(&libb2);
}

static void *
create(const struct ms_algo *a, size_t len)
{
	static const char *const names[] = {
		[B2B] = "blake2b", [B2S] = "blake2s",
		[B2BP] = "blake2bp", [B2SP] = "blake2sp",
	};
	struct state *s;
	size_t v;

	for (v = 0; v < MS_ARRAY_LEN(names); v++)
		if (strcmp(a->impl, names[v]) == 0)
			break;
	if (v == MS_ARRAY_LEN(names))
		ms_bug("blake2: unknown variant");
	if (posix_memalign((void **)&s, 64, sizeof(*s)) != 0)
		return NULL;
	s->v = (enum variant)v;
	s->len = len;
	s->bounce = NULL;
	if ((s->v == B2BP || s->v == B2SP) &&
	    (s->bounce = malloc(BOUNCE)) == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

static void
init(void *state)
{
	struct state *s = state;
	int rc = -1;

	switch (s->v) {
	case B2B:  rc = b2.blake2b_init(&s->u.b, s->len); break;
	case B2S:  rc = b2.blake2s_init(&s->u.s, s->len); break;
	case B2BP: rc = b2.blake2bp_init(&s->u.bp, s->len); break;
	case B2SP: rc = b2.blake2sp_init(&s->u.sp, s->len); break;
	}
	if (rc != 0)
		ms_bug("blake2 init");
}

static void
update(void *state, const void *p, size_t n)
{
	struct state *s = state;
	const unsigned char *in = p;
	int rc = 0;

	switch (s->v) {
	case B2B:  rc = b2.blake2b_update(&s->u.b, p, n); break;
	case B2S:  rc = b2.blake2s_update(&s->u.s, p, n); break;
	case B2BP:
	case B2SP:
		for (size_t k; n > 0 && rc == 0; in += k, n -= k) {
			k = n < BOUNCE ? n : BOUNCE;
			memcpy(s->bounce, in, k);
			rc = s->v == B2BP ? b2.blake2bp_update(&s->u.bp, s->bounce, k)
			    : b2.blake2sp_update(&s->u.sp, s->bounce, k);
		}
		break;
	}
	if (rc != 0)
		ms_bug("blake2 update");
}

static void
final(void *state, unsigned char *out)
{
	struct state *s = state;
	int rc = -1;

	switch (s->v) {
	case B2B:  rc = b2.blake2b_final(&s->u.b, out, s->len); break;
	case B2S:  rc = b2.blake2s_final(&s->u.s, out, s->len); break;
	case B2BP: rc = b2.blake2bp_final(&s->u.bp, out, s->len); break;
	case B2SP: rc = b2.blake2sp_final(&s->u.sp, out, s->len); break;
	}
	if (rc != 0)
		ms_bug("blake2 final");
}

static void
destroy(void *state)
{
	struct state *s = state;

	if (s != NULL)
		free(s->bounce);
	free(s);
}

static const char *
version(void)
{
	return MS_LIBB2_VERSION;
}

const struct ms_digest_ops ms_ops_blake2 = {
	"libb2", load, create, init, update, final, destroy, version,
};
