/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend_kernels.c - the rows on the small built-in kernels that have
 * a single code level: GOST R 34.11-94 (gost94.c), Streebog
 * (streebog.c), EDON-R (edonr.c) and Snefru (snefru.c).
 *
 * A family's rows share its table, as the CRC rows do: the digest length
 * picks the width, and for GOST 94 the row's impl names the parameter
 * set ("gost94-cryptopro" for CryptoPro's S-boxes).
 */
#include <stdlib.h>
#include <string.h>

#include "digest/backend.h"
#include "digest/state_create.h"
#include "kernels/edonr.h"
#include "kernels/gost94.h"
#include "kernels/snefru.h"
#include "kernels/streebog.h"

/* What a family's init takes: a digest length in bytes, or the set. */
static size_t
out_bytes(const struct ms_digest_spec *s)
{
	return s->bits / 8;
}

static size_t
gost_set(const struct ms_digest_spec *s)
{
	return strcmp(s->algo->impl, "gost94-cryptopro") == 0;
}

/* One family's state (the kernel's and the argument of its init) and
 * its operations. */
#define KERNEL_OPS(fam, arg_of)						\
struct fam##_state {							\
	struct ms_##fam	 k;						\
	size_t		 arg;						\
};									\
									\
static bool								\
fam##_make(void *p, const struct ms_digest_spec *s)			\
{									\
	struct fam##_state *st = p;					\
									\
	st->arg = arg_of(s);						\
	return true;							\
}									\
									\
static void								\
fam##_init(void *p)							\
{									\
	struct fam##_state *st = p;					\
									\
	ms_##fam##_init(&st->k, st->arg);				\
}									\
									\
static void								\
fam##_update(void *p, const void *d, size_t n)				\
{									\
	struct fam##_state *st = p;					\
									\
	ms_##fam##_update(&st->k, d, n);				\
}									\
									\
static void								\
fam##_final(void *p, unsigned char *out)				\
{									\
	struct fam##_state *st = p;					\
									\
	ms_##fam##_final(&st->k, out);					\
}									\
									\
const struct ms_digest_ops ms_ops_##fam = {				\
	.backend = "built-in", .create = ms_state_create,		\
	.state_size = sizeof(struct fam##_state), .make = fam##_make,	\
	.init = fam##_init, .update = fam##_update,			\
	.final = fam##_final, .destroy = free,				\
};

KERNEL_OPS(gost94, gost_set)
KERNEL_OPS(streebog, out_bytes)
KERNEL_OPS(edonr, out_bytes)
KERNEL_OPS(snefru, out_bytes)
