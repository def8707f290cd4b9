/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * digest_set.c - N digest states fed by one stream of buffers.
 *
 * Owns the creation and cycling of backend states for a selection, and
 * ms_digest_buffer, one digest of one buffer in a call.  It never reads files and never starts threads: the engine decides who
 * calls update, and on which buffer.
 */
#include "digest/digest_set.h"

#include <errno.h>
#include <string.h>

#include "base/util.h"

int
ms_selection_add(struct ms_selection *sel, const struct ms_digest_spec *spec)
{
	for (size_t i = 0; i < sel->cnt; i++)
		if (ms_spec_same(&sel->spec[i], spec))
			return 0;
	if (sel->cnt == MS_SET_MAX)
		return -1;
	sel->offset[sel->cnt] = sel->out_len;
	sel->spec[sel->cnt++] = *spec;
	sel->out_len += ms_spec_len(spec);
	sel->subject |= spec->algo->ops->subject != NULL;
	sel->many |= spec->algo->ops->many != NULL;
	return 0;
}

/*
 * "-a all": every row marked in_all that this build computes (a row whose
 * library configure left out has no create, see backend_missing.c).
 */
void
ms_selection_add_all(struct ms_selection *sel)
{
	for (size_t k = 0; k < ms_algo_count; k++) {
		const struct ms_algo *a = &ms_algos[k];
		struct ms_digest_spec s = { .algo = a, .bits = a->bits };

		if (a->in_all && a->ops->create != NULL)
			if (ms_selection_add(sel, &s) == -1)
				ms_bug("-a all has more rows than MS_SET_MAX");
	}
}

bool
ms_selection_equal(const struct ms_selection *a, const struct ms_selection *b)
{
	if (a->cnt != b->cnt)
		return false;
	for (size_t i = 0; i < a->cnt; i++)
		if (!ms_spec_same(&a->spec[i], &b->spec[i]))
			return false;
	return true;
}

void
ms_selection_set_params(struct ms_selection *sel,
    const struct ms_digest_params *p)
{
	for (size_t i = 0; i < sel->cnt; i++)
		ms_spec_set_params(&sel->spec[i], p);
}

int
ms_selection_load(const struct ms_selection *sel)
{
	for (size_t i = 0; i < sel->cnt; i++)
		if (ms_spec_load(&sel->spec[i]) == -1)
			return -1;
	return 0;
}

void
ms_digest_set_create(struct ms_digest_set *set, const struct ms_selection *sel)
{
	set->sel = sel;
	for (size_t i = 0; i < sel->cnt; i++) {
		const struct ms_digest_spec *s = &sel->spec[i];

		set->state[i] = s->algo->ops->create(s);
		if (set->state[i] == NULL)
			ms_die("%s", strerror(ENOMEM));
	}
}

void
ms_digest_set_destroy(struct ms_digest_set *set)
{
	if (set->sel == NULL)
		return;
	for (size_t i = 0; i < set->sel->cnt; i++)
		set->sel->spec[i].algo->ops->destroy(set->state[i]);
	set->sel = NULL;
}

void
ms_digest_set_init(struct ms_digest_set *set)
{
	for (size_t i = 0; i < set->sel->cnt; i++)
		set->sel->spec[i].algo->ops->init(set->state[i]);
}

void
ms_digest_set_subject(struct ms_digest_set *set, const char *path,
    uint64_t size)
{
	const char *base = strrchr(path, '/');

	base = base != NULL ? base + 1 : path;
	for (size_t i = 0; i < set->sel->cnt; i++) {
		const struct ms_digest_ops *ops = set->sel->spec[i].algo->ops;

		if (ops->subject != NULL)
			ops->subject(set->state[i], base, size);
	}
}

bool
ms_selection_has_subject(const struct ms_selection *sel)
{
	return sel->subject;
}

void
ms_digest_set_update(struct ms_digest_set *set, const void *p, size_t n)
{
	for (size_t i = 0; i < set->sel->cnt; i++)
		ms_digest_set_update_one(set, i, p, n);
}

void
ms_digest_set_final_one(struct ms_digest_set *set, size_t i, unsigned char *out)
{
	set->sel->spec[i].algo->ops->final(set->state[i], out + set->sel->offset[i]);
}

void
ms_digest_set_final(struct ms_digest_set *set, unsigned char *out)
{
	for (size_t i = 0; i < set->sel->cnt; i++)
		ms_digest_set_final_one(set, i, out);
}

bool
ms_selection_has_many(const struct ms_selection *sel)
{
	return sel->many;
}

void
ms_digest_set_many(struct ms_digest_set *set, size_t cnt,
    const unsigned char *const msg[], const size_t len[],
    unsigned char *const out[])
{
	const struct ms_selection *sel = set->sel;
	unsigned char *at[MS_MANY_MAX];
	bool done[MS_MANY_MAX];

	if (cnt > MS_MANY_MAX)
		ms_bug("digest set: more messages than MS_MANY_MAX");
	for (size_t i = 0; i < sel->cnt; i++) {
		const struct ms_digest_spec *s = &sel->spec[i];
		const struct ms_digest_ops *ops = s->algo->ops;

		for (size_t k = 0; k < cnt; k++) {
			at[k] = out[k] + sel->offset[i];
			done[k] = false;
		}
		if (ops->many != NULL)
			ops->many(s, cnt, msg, len, at, done);
		for (size_t k = 0; k < cnt; k++)
			if (!done[k]) {
				ops->init(set->state[i]);
				ops->update(set->state[i], msg[k], len[k]);
				ops->final(set->state[i], at[k]);
			}
	}
}

int
ms_digest_buffer(const char *name, unsigned bits, const void *p, size_t n,
    unsigned char *out)
{
	struct ms_selection sel = { 0 };
	struct ms_digest_set set;
	struct ms_digest_spec spec = { 0 };	/* no key, no parameter */
	const char *why;

	if (ms_algo_resolve(name, bits, &spec, &why) == -1) {
		ms_warn("%s-%u: %s", name, bits, why);
		return -1;
	}
	ms_selection_add(&sel, &spec);
	if (ms_selection_load(&sel) == -1)
		return -1;
	ms_digest_set_create(&set, &sel);
	ms_digest_set_init(&set);
	ms_digest_set_update(&set, p, n);
	ms_digest_set_final(&set, out);
	ms_digest_set_destroy(&set);
	return 0;
}
