/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * match_set.h - a set of known digests (--match, --unmatched): every digest
 * of one or more manifests, names ignored, looked up by (algorithm,
 * digest) in constant time.
 */
#ifndef MS_MATCH_SET_H
#define MS_MATCH_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "digest/digest_set.h"
#include "manifest/lines.h"

struct ms_match_set;

struct ms_match_set *ms_match_set_new(void);
void	 ms_match_set_free(struct ms_match_set *h);

/*
 * Add every digest of the manifest in (opened by the mode through the
 * door, io/text_input.h; closed here), read in one streaming pass: any
 * line multisum -c reads (given: -a, for untagged lines), and lines
 * holding a bare digest (a hash list, such as md5deep's -M sets or
 * NSRL's digest-only lists).  Lines that gave a digest are counted in
 * *got, lines of neither kind in *bad.  -1 with errno if it cannot be
 * read, EFBIG if a line is longer than any manifest's (lines.h), E2BIG
 * if the tables would take more than limit bytes (0: no limit).
 */
int	 ms_match_set_load(struct ms_match_set *h, const struct ms_manifest_input *in,
	    const struct ms_selection *given, size_t limit, size_t *bad,
	    size_t *got);

/*
 * A checksum (CRC, xxHash, a sum) is no evidence of identity: 4 bytes
 * forge a CRC-32, and among millions of values chance matches happen;
 * nor is a digest cut below 128 bits.  If the set holds a cryptographic
 * digest of 128 bits or more, its other tables are dropped, so that they can never make a file known; their names
 * are written to buf (cap bytes), which is returned, or NULL if none
 * was dropped.
 */
const char *ms_match_set_drop_weak(struct ms_match_set *h, char *buf, size_t cap);

/* Does the set hold digests, all of them checksums or short ones? */
bool	 ms_match_set_weak(const struct ms_match_set *h);

/* Is d, a digest of spec, in the set? */
bool	 ms_match_set_has(const struct ms_match_set *h,
	    const struct ms_digest_spec *spec, const unsigned char *d);

/* Add the set's algorithms to sel, in the order they were first met. */
void	 ms_match_set_algorithms(const struct ms_match_set *h,
	    struct ms_selection *sel);

/* Digests held, and the bytes of their tables (for --debug). */
size_t	 ms_match_set_count(const struct ms_match_set *h);
size_t	 ms_match_set_bytes(const struct ms_match_set *h);

#endif
