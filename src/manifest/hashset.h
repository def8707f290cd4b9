/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hashset.h - a set of known digests (--match, --unmatched): every digest
 * of one or more manifests, names ignored, looked up by (algorithm,
 * digest) in constant time.
 */
#ifndef MS_HASHSET_H
#define MS_HASHSET_H

#include <stdbool.h>
#include <stddef.h>

#include "digest/digest_set.h"
#include "manifest/lines.h"

struct ms_hashset;

struct ms_hashset *ms_hashset_new(void);
void	 ms_hashset_free(struct ms_hashset *h);

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
int	 ms_hashset_load(struct ms_hashset *h, const struct ms_manifest_input *in,
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
const char *ms_hashset_drop_weak(struct ms_hashset *h, char *buf, size_t cap);

/* Does the set hold digests, all of them checksums or short ones? */
bool	 ms_hashset_weak(const struct ms_hashset *h);

/* Is d, a digest of spec, in the set? */
bool	 ms_hashset_has(const struct ms_hashset *h,
	    const struct ms_digest_spec *spec, const unsigned char *d);

/* Add the set's algorithms to sel, in the order they were first met. */
void	 ms_hashset_algorithms(const struct ms_hashset *h,
	    struct ms_selection *sel);

/* Digests held, and the bytes of their tables (for --debug). */
size_t	 ms_hashset_count(const struct ms_hashset *h);
size_t	 ms_hashset_bytes(const struct ms_hashset *h);

#endif
