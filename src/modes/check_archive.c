/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_archive.c - check mode with --archive: which members the queued
 * entries name, which digests each member is read through, and which
 * entry takes which member when several members share a name.
 *
 * The n-th member of a name is checked by the n-th line naming it (of
 * each manifest and list of digests), as hash mode writes them: in
 * archive order.  The pass over the archive is engine_members.c's;
 * reporting is check.c's, once the pass is over.
 */
#include "modes/check_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "modes/check_explain.h"
#include "engine/engine_members.h"
#include "base/util.h"

/* What a chosen member carries to its task: its entries, and which it is. */
struct claim {
	struct rec	**first;	/* the first entry of its name in idx */
	size_t		 member;	/* the entries it took: rec->member */
};

static int
by_name(const void *a, const void *b)
{
	const struct rec *x = *(struct rec *const *)a;
	const struct rec *y = *(struct rec *const *)b;
	int c = strcmp(x->task->path, y->task->path);

	/* Stable: equal names keep manifest order. */
	return c != 0 ? c : (x->place > y->place) - (x->place < y->place);
}

/* Copy t's digests from what sel computed; false if sel lacks one of them. */
static bool
from_member(struct ms_task *t, const struct ms_selection *sel,
    const unsigned char *digest)
{
	for (size_t j = 0; j < t->sel->cnt; j++) {
		size_t k;

		for (k = 0; k < sel->cnt; k++)
			if (sel->spec[k].algo == t->sel->spec[j].algo &&
			    sel->spec[k].bits == t->sel->spec[j].bits)
				break;
		if (k == sel->cnt)
			return false;
		memcpy(t->digest + t->sel->offset[j], digest + sel->offset[k],
		    ms_spec_len(&t->sel->spec[j]));
	}
	return true;
}

/* The queued entries of name: idx[*first] up to idx[*end]. */
static bool
entries_of(const struct run *r, const char *name, size_t *first, size_t *end)
{
	size_t lo = 0, hi = r->nidx;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(r->idx[mid]->task->path, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = *end = lo;
	while (*end < r->nidx && strcmp(r->idx[*end]->task->path, name) == 0)
		(*end)++;
	return *end > *first;
}

/* Has this member taken an entry of rec's manifest and digests already? */
static bool
taken(const struct run *r, size_t first, size_t i, size_t member)
{
	const struct rec *rec = r->idx[i];

	for (size_t k = first; k < i; k++)
		if (r->idx[k]->member == member && r->idx[k]->m == rec->m &&
		    r->idx[k]->task->sel == rec->task->sel)
			return true;
	return false;
}

/*
 * A member takes, of the entries naming it that no member took, the first
 * of each manifest and list of digests, and is read through every digest
 * they need.
 */
static const struct ms_selection *
choose_member(void *arg, const char *name, void **user)
{
	struct run *r = arg;
	struct ms_selection want = { 0 };
	struct claim *c;
	size_t first, end, member;

	if (!entries_of(r, name, &first, &end))
		return NULL;
	member = ++r->members;
	for (size_t i = first; i < end; i++) {
		struct rec *rec = r->idx[i];

		rec->namesakes++;
		if (rec->done || rec->member != 0 || taken(r, first, i, member))
			continue;
		rec->member = member;
		for (size_t k = 0; !rec->done && k < rec->task->sel->cnt; k++)
			if (ms_selection_add(&want, &rec->task->sel->spec[k]) == -1) {
				/* Never compared with a digest not computed
				 * (B5): refused, with a reason. */
				rec->task->err = MS_ERR_TOO_MANY;
				rec->done = true;
			}
	}
	if (want.cnt == 0)
		return NULL;
	c = ms_xmalloc(sizeof(*c));
	c->first = &r->idx[first];
	c->member = member;
	*user = c;
	return ms_check_selection_for(&r->reg, want.spec, want.cnt);
}

/* The entries a member took, one by one: *p on, NULL at the end. */
static struct rec *
next_taken(const struct run *r, const struct claim *c, struct rec ***p,
    const char *name)
{
	for (; *p < r->idx + r->nidx && strcmp((**p)->task->path, name) == 0;
	    (*p)++)
		if (!(**p)->done && (**p)->member == c->member)
			return *(*p)++;
	return NULL;
}

/* A link whose target went unread (B17): its entries say so. */
static void
unread_link(void *arg, const char *name, const char *link, void *user)
{
	struct run *r = arg;
	struct claim *c = user;
	struct rec **p = c->first, *rec;

	(void)link;
	while ((rec = next_taken(r, c, &p, name)) != NULL) {
		rec->task->err = MS_ERR_LINK_UNLISTED;
		rec->done = true;
	}
	free(c);
}

/* A member read (or a link answered): the entries it took take it. */
static void
member_emit(void *arg, struct ms_task *t)
{
	struct run *r = arg;
	struct claim *c = t->user;
	struct rec **p = c->first, *rec;

	while ((rec = next_taken(r, c, &p, t->path)) != NULL) {
		rec->done = true;
		if (!from_member(rec->task, t->sel, t->digest)) {
			/* a hard link, its target read for other entries */
			rec->task->err = MS_ERR_LINK_DIGESTS;
			continue;
		}
		rec->task->err = t->err;
		rec->task->size = t->size;
	}
	free(c);
	ms_task_free(t);
}

/*
 * Look every queued entry up among the members, in one pass.  Entries
 * not in the archive are missing (ENOENT); those of a name the archive
 * holds, but fewer times than lines name it, say so.
 */
void
ms_check_archive(struct run *r)
{
	struct ms_engine *e;
	size_t place = 0;

	for (struct rec *rec = r->head; rec != NULL; rec = rec->next)
		if (rec->kind == REC_ENTRY && !rec->done) {
			r->idx = ms_xrealloc(r->idx, (r->nidx + 1) * sizeof(*r->idx));
			r->idx[r->nidx++] = rec;
			rec->place = place++;
			rec->task->err = ENOENT;
		}
	qsort(r->idx, r->nidx, sizeof(*r->idx), by_name);
	e = ms_engine_start(&r->cfg, member_emit, r);
	if (ms_members_submit(r->o->archive, e, choose_member, unread_link,
	    r) != 0)
		r->failed = true;
	ms_engine_finish(e);
	for (size_t i = 0; i < r->nidx; i++) {
		struct rec *rec = r->idx[i];

		if (!rec->done && rec->member == 0 && rec->namesakes > 0)
			rec->task->err = MS_ERR_NAMESAKES;
		rec->done = true;
	}
	free(r->idx);
}
