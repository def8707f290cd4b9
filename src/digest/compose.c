/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * compose.c - one file hashed as N parts by N runs (--part=K/N), for the
 * digests that compose (their rows' compose operations, algorithm.h).
 *
 * Owns the arithmetic of the parts: one size for all but the last, the
 * smallest that is a multiple of every digest's alignment (a power of two
 * times it if one digest is BLAKE3) and at least the file's N-th, so that
 * the parts are as even as their alignment allows and the last (maybe
 * several, empty) ends at the end of the file; and a digest set's states
 * begun at a part and saved, or joined from saved states.  Never reads a
 * file: the engine feeds the states.
 */
#include "digest/compose.h"

#include <string.h>

static uint64_t
gcd(uint64_t a, uint64_t b)
{
	while (b != 0) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

int
ms_compose_unit(const struct ms_selection *sel, uint64_t *unit, bool *pow2,
    const char **why, size_t *bad)
{
	uint64_t u = 1;
	bool p2 = false;

	for (size_t i = 0; i < sel->cnt; i++) {
		const struct ms_compose_ops *c = sel->spec[i].algo->compose;
		uint64_t a, g;

		if (c == NULL) {
			*bad = i;
			*why = "does not compose: its parts cannot be hashed "
			    "apart";
			return -1;
		}
		a = c->align(&sel->spec[i]);
		g = gcd(u, a);
		if (u / g > UINT64_MAX / a) {
			*bad = i;
			*why = "has parts no other digest's size divides";
			return -1;
		}
		u = u / g * a;
		p2 |= c->pow2;
	}
	if (p2 && (u & (u - 1)) != 0) {
		for (*bad = 0; *bad < sel->cnt &&
		    !sel->spec[*bad].algo->compose->pow2; (*bad)++)
			continue;
		*why = "has parts of a power of two KiB, which the other "
		    "digests' part sizes do not divide";
		return -1;
	}
	*unit = u;
	*pow2 = p2;
	return 0;
}

void
ms_compose_range(uint64_t unit, bool pow2, uint64_t size, uint32_t k,
    uint32_t n, uint64_t *off, uint64_t *len)
{
	uint64_t share = size / n + (size % n != 0), part, end;

	if (share < unit)
		share = unit;
	if (pow2) {
		for (part = unit; part < share && part <= UINT64_MAX / 2;)
			part *= 2;
	} else {
		part = share / unit * unit;
		if (part < share)
			part += unit;
	}
	*off = k - 1 > size / part ? size : (k - 1) * part;
	if (*off > size)
		*off = size;
	end = size - *off > part ? *off + part : size;
	*len = end - *off;
}

void
ms_digest_set_begin(struct ms_digest_set *set, uint64_t off)
{
	for (size_t i = 0; i < set->sel->cnt; i++)
		set->sel->spec[i].algo->compose->begin(set->state[i], off);
}

void
ms_digest_set_save(struct ms_digest_set *set, struct ms_bytes *saved)
{
	for (size_t i = 0; i < set->sel->cnt; i++)
		set->sel->spec[i].algo->compose->save(set->state[i], &saved[i]);
}

int
ms_digest_set_join(struct ms_digest_set *set, size_t i,
    const unsigned char *saved, size_t n, uint64_t off, uint64_t len)
{
	return set->sel->spec[i].algo->compose->join(set->state[i], saved, n,
	    off, len);
}
