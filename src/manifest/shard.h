/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * shard.h - --shard=K/N: which paths a run keeps, by a stable hash of
 * each path relative to its operand.
 */
#ifndef MS_SHARD_H
#define MS_SHARD_H

#include <stdbool.h>
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

/* FNV-1a, 64 bits, of the bytes of key: the documented stable split. */
uint64_t ms_shard_hash(const char *key);

#endif
