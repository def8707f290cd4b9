/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * engine_task.c - the memory of tasks: made and freed a file at a time,
 * and kept for reuse by the thread that freed them.
 */
#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/*
 * Tasks are made and freed a file at a time on the submitting thread: a
 * tree of small files made 20,000 calloc and free calls, 460
 * instructions a file (glibc's calloc bypasses its per-thread cache).
 * Freed tasks wait in a list of the thread's own, up to TASKS_KEPT, and
 * a new one reuses the first if its path fits; sizes are rounded up so
 * that paths of one tree fit each other's tasks.
 */
#define TASKS_KEPT	1024
#define TASK_ROUND	64

static _Thread_local struct {
	struct ms_task	*head;
	size_t		 n;
} kept;

struct ms_task *
ms_task_new(const char *path, const struct ms_selection *sel, void *user)
{
	size_t plen = strlen(path) + 1;
	size_t head = sizeof(struct ms_task) + sel->out_len;
	size_t need = head + plen;
	struct ms_task *t = kept.head;
	size_t cap;

	if (t != NULL && t->cap >= need) {
		kept.head = t->next;
		kept.n--;
		cap = t->cap;
	} else {
		cap = (need + 2 * TASK_ROUND - 1) / TASK_ROUND * TASK_ROUND;
		t = ms_xmalloc(cap);
	}
	memset(t, 0, head);
	t->cap = cap;
	/* One allocation: the digests, then a copy of the path. */
	t->path = memcpy((char *)t->digest + sel->out_len, path, plen);
	t->sel = sel;
	t->user = user;
	return t;
}

void
ms_task_found(struct ms_task *t, const struct ms_walked *found)
{
	t->walked = found != NULL;
	if (found != NULL) {
		t->dev = found->dev;
		t->ino = found->ino;
	}
}

void
ms_task_free(struct ms_task *t)
{
	if (t == NULL)
		return;
	if (kept.n == TASKS_KEPT) {
		free(t);
		return;
	}
	t->next = kept.head;
	kept.head = t;
	kept.n++;
}

void
ms_task_release(void)
{
	while (kept.head != NULL) {
		struct ms_task *t = kept.head;

		kept.head = t->next;
		free(t);
	}
	kept.n = 0;
}
