/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * shard.h - --shard=K/N: which paths a run keeps, by a stable hash of
 * each path relative to its operand; and sets of shards ("1-2,4/4"), as
 * a manifest's bookkeeping records them and --merge puts them together.
 */
#ifndef MS_SHARD_H
#define MS_SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ms_shard {
	uint32_t	 k, n;		/* shard k of n, 1 <= k <= n; n = 0: off */
};

/* Parse "K/N"; -1 if it is not 1 <= K <= N <= 2^31. */
int	 ms_shard_parse(struct ms_shard *s, const char *text);

/*
 * The key of path: the part below the operand it was found under (path
 * itself if it is the operand).
 */
const char *ms_shard_key(const char *operand, const char *path);

/* Does key fall into s?  Always true when sharding is off. */
bool	 ms_shard_keeps(const struct ms_shard *s, const char *key);
/* Does path, found under operand, fall into s?  Its key is looked for
 * only when sharding is on (a walk asks once a file). */
bool	 ms_shard_keeps_path(const struct ms_shard *s, const char *operand,
	    const char *path);

/* FNV-1a, 64 bits, of the bytes of key: the documented stable split. */
uint64_t ms_shard_hash(const char *key);

/*
 * Shards 1..n held by one manifest: ranges lo..hi, sorted, apart (never
 * touching).  n = 0: no shard bookkeeping.  Written "K/N" for one shard,
 * "LO-HI,K/N" for more (a --merge --partial of some of them).
 */
struct ms_shard_range {
	uint32_t	 lo, hi;
};

struct ms_shard_set {
	uint32_t	 n;
	struct ms_shard_range *r;	/* malloc'ed */
	size_t		 cnt;
};

/* The set {s->k} of s->n. */
void	 ms_shard_set_of(struct ms_shard_set *set, const struct ms_shard *s);
/* Parse the text up to a space, newline or end; -1 if it is no set. */
int	 ms_shard_set_parse(struct ms_shard_set *set, const char *text);
/* Its text, as parse reads it (buf of cap bytes; cut if too small). */
void	 ms_shard_set_text(const struct ms_shard_set *set, char *buf, size_t cap);
/* Do a and b (of one n) share a shard?  *first: the lowest they share. */
bool	 ms_shard_set_overlaps(const struct ms_shard_set *a,
	    const struct ms_shard_set *b, uint32_t *first);
/* Add b's shards to a (one n, apart: check with overlaps first). */
void	 ms_shard_set_add(struct ms_shard_set *a, const struct ms_shard_set *b);
/* Does the set hold all of 1..n? */
bool	 ms_shard_set_complete(const struct ms_shard_set *set);
/* Are the sets equal? */
bool	 ms_shard_set_equal(const struct ms_shard_set *a,
	    const struct ms_shard_set *b);
/* The shards of 1..n it lacks, as a set (of the same n). */
void	 ms_shard_set_missing(const struct ms_shard_set *set,
	    struct ms_shard_set *out);
void	 ms_shard_set_free(struct ms_shard_set *set);

#endif
