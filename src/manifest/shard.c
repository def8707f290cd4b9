/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * shard.c - the split of a tree into N shards.
 *
 * Owns the stable hash that assigns a path to a shard.  The hash sees
 * only the path below its operand, so a shard does not depend on where
 * the tree is mounted, and adding or removing files never moves another
 * file to a different shard.  FNV-1a is specified in a few lines, so a
 * script can reproduce the split; it needs no key because shards only
 * balance work, they guard nothing.
 */
#include "manifest/shard.h"

#include <stdlib.h>
#include <string.h>

int
ms_shard_parse(struct ms_shard *s, const char *text)
{
	char *end;
	unsigned long k, n;

	if (*text < '0' || *text > '9')
		return -1;
	k = strtoul(text, &end, 10);
	if (*end != '/' || end[1] < '0' || end[1] > '9')
		return -1;
	n = strtoul(end + 1, &end, 10);
	if (*end != '\0' || k < 1 || n < 1 || k > n || n > (1ul << 31))
		return -1;
	s->k = (uint32_t)k;
	s->n = (uint32_t)n;
	return 0;
}

const char *
ms_shard_key(const char *operand, const char *path)
{
	size_t len = strlen(operand);

	if (strncmp(path, operand, len) != 0)
		return path;
	if (path[len] == '/')
		return path + len + 1;
	/* an operand "dir/" already ends with the separator */
	if (path[len] != '\0' && len > 0 && operand[len - 1] == '/')
		return path + len;
	return path;
}

uint64_t
ms_shard_hash(const char *key)
{
	uint64_t h = 0xcbf29ce484222325u;

	for (const unsigned char *p = (const unsigned char *)key; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3u;
	}
	return h;
}

bool
ms_shard_keeps(const struct ms_shard *s, const char *key)
{
	return s->n == 0 || ms_shard_hash(key) % s->n == s->k - 1;
}
