/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * compose.h - --part=K/N over a selection (compose.c): the parts of a
 * file that every digest of it can hash apart, and a digest set begun at
 * a part and saved, or joined from the parts' saved states.
 */
#ifndef MS_COMPOSE_H
#define MS_COMPOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "digest/digest_set.h"
#include "base/util.h"

/* One part of a file and, once hashed, each digest's saved state. */
struct ms_part {
	uint64_t	 off, len;	/* [off, off + len) */
	struct ms_bytes	 saved[MS_SET_MAX];
};

/*
 * Where the parts of a selection may start: every part but the last
 * starts and ends at a multiple of *unit, and with *pow2 its length is
 * *unit times a power of two.  -1 with *why (one line's end) if spec
 * *bad does not compose, or the selection's digests have no part size in
 * common.
 */
int	 ms_compose_unit(const struct ms_selection *sel, uint64_t *unit,
	    bool *pow2, const char **why, size_t *bad);

/* Part k of n (1 <= k <= n) of a file of size bytes, in *off and *len:
 * aligned parts as even as the unit allows (those past the end are
 * empty). */
void	 ms_compose_range(uint64_t unit, bool pow2, uint64_t size, uint32_t k,
	    uint32_t n, uint64_t *off, uint64_t *len);

/* The set (initialised) is to hash the part that starts at off; then
 * save appends each digest's state to saved[i]. */
void	 ms_digest_set_begin(struct ms_digest_set *set, uint64_t off);
void	 ms_digest_set_save(struct ms_digest_set *set, struct ms_bytes *saved);

/* Digest i of the set (initialised, every part before joined) joins the
 * saved state of part [off, off + len); -1 if it cannot be that part's. */
int	 ms_digest_set_join(struct ms_digest_set *set, size_t i,
	    const unsigned char *saved, size_t n, uint64_t off, uint64_t len);

#endif
