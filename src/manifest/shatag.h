/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * shatag.h - a digest kept in a file's extended attributes, as cshatag
 * and shatag keep it: the attribute names, the values' text, and how a
 * stored tag and a fresh reading of the file compare (cshatag's classes,
 * with a tolerance for timestamps that lost precision on the way).
 */
#ifndef MS_SHATAG_H
#define MS_SHATAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "digest/digest_set.h"

/* "user.shatag.ts": the modification time the digests were taken at. */
#define MS_SHATAG_TS		"user.shatag.ts"
#define MS_SHATAG_PREFIX	"user.shatag."

/* Room for a ts value: 20 digits, '.', 9 digits, NUL. */
#define MS_SHATAG_TS_MAX	32

/* "user.shatag.sha256", "user.shatag.blake2b-256": the digest's name. */
void	 ms_shatag_name(const struct ms_digest_spec *spec, char *buf, size_t cap);

/*
 * The spec an attribute name stands for (a digest this build knows), or
 * false: user.shatag.ts, another tool's attribute, an unknown algorithm.
 */
bool	 ms_shatag_spec(const char *attr, struct ms_digest_spec *spec);

/*
 * ns as cshatag writes it, "%010llu.%09u" (SECONDS.NANOSECONDS); false
 * for a time before the Epoch, which cshatag cannot read.
 */
bool	 ms_shatag_ts_format(int64_t ns, char buf[MS_SHATAG_TS_MAX]);

/*
 * A ts value (n bytes, not NUL-terminated) into nanoseconds: decimal
 * seconds, then optionally '.' and a fraction of any length (shatag's
 * float has fewer than nine digits; beyond nine they are dropped).  An
 * old cshatag's trailing NUL or a newline is allowed.  False if it is
 * no such value.
 */
bool	 ms_shatag_ts_parse(const char *v, size_t n, int64_t *ns);

/*
 * Do two times name the same modification?  A time's precision is the
 * power of ten its zeroed last digits show (a time kept by an SMB server
 * ends in 00, by the macOS SMB client in 000000000).  Equal when both,
 * cut down to the coarser of their precisions, are equal (file systems
 * and clients truncate), or when the stored time is the coarser one and
 * the actual time rounds to it (shatag's float time rounds).  A tag taken
 * on ext4 still matches on such a share; two full-precision times must
 * be equal to the nanosecond, and a time one second later is never the
 * same.
 */
bool	 ms_shatag_ts_same(int64_t stored, int64_t actual);

/*
 * A hex digest value of len bytes (an old cshatag's trailing NUL or a
 * newline allowed); false if the value is no such digest.
 */
bool	 ms_shatag_digest_parse(const char *v, size_t n, unsigned char *out,
	    size_t len);

/* What the stored part says against the fresh one. */
enum ms_shatag_status { MS_SHATAG_SAME, MS_SHATAG_DIFF, MS_SHATAG_MISS };

/* cshatag's classes of a file (decision.go's table). */
enum ms_shatag_class {
	MS_SHATAG_OK,		/* time and digest as stored */
	MS_SHATAG_TIMECHANGE,	/* the time moved, the content did not */
	MS_SHATAG_OUTDATED,	/* modified: new time, new content */
	MS_SHATAG_CORRUPT,	/* same time, other content */
	MS_SHATAG_NEW,		/* no digest stored */
	MS_SHATAG_CLASSES
};

extern const char *const ms_shatag_class_name[MS_SHATAG_CLASSES];

enum ms_shatag_class ms_shatag_classify(enum ms_shatag_status ts,
	    enum ms_shatag_status digest);

#endif
