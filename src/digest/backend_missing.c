/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backend_missing.c - stand-ins for the backends configure left out.
 *
 * configure --without-libb2 or --without-libxxhash drops backend_blake2.c
 * or backend_xxhash.c from the build.  The algorithm rows stay as they
 * are; what they point to is here instead: an operation table whose
 * backend name says which library is missing (--list-algorithms shows
 * it) and whose load refuses with one line naming the algorithm and the
 * library.  (--without-libarchive's stand-in is io/archive_missing.c.)
 */
#include <stddef.h>

#include "base/util.h"

#if !MS_HAVE_LIBB2 || !MS_HAVE_LIBXXHASH
#include <string.h>

#include "digest/backend.h"

/* The load of every stand-in: its backend name, "(no LIB)", says which
 * library the row needs. */
static int
refuse(const struct ms_algo *a)
{
	const char *lib = a->ops->backend + strlen("(no ");
	int len = (int)strcspn(lib, ")");

	ms_warn("%s: this multisum was built without %.*s (configure "
	    "--without-%.*s)", a->name, len, lib, len, lib);
	return -1;
}

#define MISSING(lib)	{ .backend = "(no " lib ")", .load = refuse }
#endif

#if !MS_HAVE_LIBB2
const struct ms_digest_ops ms_ops_blake2b = MISSING("libb2");
const struct ms_digest_ops ms_ops_blake2s = MISSING("libb2");
const struct ms_digest_ops ms_ops_blake2bp = MISSING("libb2");
const struct ms_digest_ops ms_ops_blake2sp = MISSING("libb2");
#endif

#if !MS_HAVE_LIBXXHASH
const struct ms_digest_ops ms_ops_xxh32 = MISSING("libxxhash");
const struct ms_digest_ops ms_ops_xxh64 = MISSING("libxxhash");
const struct ms_digest_ops ms_ops_xxh3 = MISSING("libxxhash");
const struct ms_digest_ops ms_ops_xxh128 = MISSING("libxxhash");
#endif
