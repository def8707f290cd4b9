/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * engine_members.c - the one pass over the members of an --archive: asks the mode
 * which members it wants and with which digests, submits each to the
 * engine as an open source (read in archive order on the calling thread),
 * and answers hard links from a memo of the members read, a hash table
 * by name so that n links cost O(n).
 */
#include "engine/engine_members.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/archive_source.h"
#include "base/util.h"

/* What is kept of a member read, for the hard links to it. */
struct kept {
	struct kept	*next;		/* in its bucket */
	size_t		 seq;		/* the latest of a name wins */
	char		*name;
	const struct ms_selection *sel;
	uint64_t	 size;
	int		 err;
	unsigned char	 digest[];
};

/* The memo: a chained hash table, doubled when as full as it has buckets. */
struct memo {
	struct kept	**bucket;
	size_t		 nbucket, nkept;
};

/* FNV-1a. */
static size_t
name_hash(const char *name)
{
	uint64_t h = 14695981039346656037u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 1099511628211u;
	return (size_t)h;
}

static void
grow(struct memo *m)
{
	size_t n = m->nbucket ? 2 * m->nbucket : 64;
	struct kept **bucket = ms_xcalloc(n, sizeof(*bucket));

	for (size_t i = 0; i < m->nbucket; i++)
		while (m->bucket[i] != NULL) {
			struct kept *k = m->bucket[i];
			size_t j = name_hash(k->name) % n;

			m->bucket[i] = k->next;
			k->next = bucket[j];
			bucket[j] = k;
		}
	free(m->bucket);
	m->bucket = bucket;
	m->nbucket = n;
}

static void
remember(struct memo *m, const struct ms_task *t)
{
	struct kept *k = ms_xmalloc(sizeof(*k) + t->sel->out_len);
	size_t j;

	if (m->nkept >= m->nbucket)
		grow(m);
	k->name = ms_xstrdup(t->path);
	k->seq = m->nkept++;
	k->sel = t->sel;
	k->size = t->size;
	k->err = t->err;
	memcpy(k->digest, t->digest, t->sel->out_len);
	j = name_hash(k->name) % m->nbucket;
	k->next = m->bucket[j];
	m->bucket[j] = k;
}

static const struct kept *
recall(const struct memo *m, const char *name)
{
	const struct kept *best = NULL;

	if (m->nbucket == 0)
		return NULL;
	for (const struct kept *k = m->bucket[name_hash(name) % m->nbucket];
	    k != NULL; k = k->next)
		if (strcmp(k->name, name) == 0 && (best == NULL || k->seq > best->seq))
			best = k;
	return best;
}

static void
forget(struct memo *m)
{
	for (size_t i = 0; i < m->nbucket; i++)
		while (m->bucket[i] != NULL) {
			struct kept *k = m->bucket[i];

			m->bucket[i] = k->next;
			free(k->name);
			free(k);
		}
	free(m->bucket);
}

int
ms_members_submit(const char *path, struct ms_engine *e, ms_member_fn *choose,
    ms_unread_link_fn *unread, void *arg)
{
	struct ms_archive *ar = ms_archive_open(path);
	struct memo memo = { 0 };
	struct ms_source src;
	const char *name, *link;
	int rc;

	if (ar == NULL)
		return -1;
	while ((rc = ms_archive_next(ar, &name, &link, &src)) == 1) {
		void *user = NULL;
		const struct ms_selection *sel = choose(arg, name, &user);
		const struct kept *target;
		struct ms_task *t;

		if (sel == NULL)
			continue;
		if (link == NULL) {
			t = ms_task_new(name, sel, user);
			ms_engine_read_source(e, t, &src);
			/* the memo before the emit, which frees t */
			remember(&memo, t);
			ms_engine_submit_done(e, t);
			continue;
		}
		/* A hard link carries no data: its target's digests. */
		if ((target = recall(&memo, link)) == NULL) {
			unread(arg, name, link, user);
			continue;
		}
		t = ms_task_new(name, target->sel, user);
		memcpy(t->digest, target->digest, target->sel->out_len);
		t->size = target->size;
		t->err = target->err;
		ms_engine_submit_done(e, t);
	}
	ms_archive_close(ar);
	forget(&memo);
	return rc == -1 ? -2 : 0;
}
