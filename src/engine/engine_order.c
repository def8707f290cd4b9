/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * engine_order.c - the order files are read in, per device (io/device.c
 * says which device seeks): tasks on a device that may seek are held as
 * they are submitted, then handed to the queue sorted by where they lie
 * on it (FIEMAP's first extent, else the inode), and marked for its one
 * reader (engine.c's gate); held until HOLD_MAX are, for HOLD_NS at
 * most, or until the submitter would wait for one of them.  A device the
 * flag cannot decide is probed when its first file comes (files around
 * it), so that nothing is held on a device that does not seek.  Their place in the output is their
 * submission's (seq): only the reading moves.  The submitter's thread
 * alone calls these (engine_submit.c), and they call nothing back.
 */
#include "engine/engine_impl.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "io/device.h"

/* Tasks held at most before they go to the queue, sorted. */
#define HOLD_MAX	1024
/* The held go at the next submission after this long: operands that
 * come slowly (a list from a pipe) are not kept from the workers. */
#define HOLD_NS		20000000u

struct held {
	struct ms_task	*t;
	struct ms_device *d;
	ino_t		 ino;
	uint64_t	 key;
};

struct ms_order {
	bool		 debug;
	struct held	*v;
	size_t		 n;
	uint64_t	 since;		/* when v[0] was held */
	/* the folder of the last file looked at, and its device: the files
	 * of a solid device's folder cost no stat */
	char		*dir;
	size_t		 dir_len;
	struct ms_device *dir_dev;
};

struct ms_order *
ms_order_new(bool debug)
{
	enum ms_read_order order;
	enum ms_dev_class cls;
	struct ms_order *o;

	if (ms_device_settings(&order, &cls) == 0 && order == MS_ORDER_WALK &&
	    !debug)
		return NULL;	/* nothing to look up */
	o = ms_xcalloc(1, sizeof(*o));
	o->debug = debug;
	o->v = ms_xmalloc(HOLD_MAX * sizeof(*o->v));
	return o;
}

void
ms_order_free(struct ms_order *o)
{
	if (o == NULL)
		return;
	free(o->v);
	free(o->dir);
	free(o);
}

/* t's device: where the walk or the caller saw it (t->ino), else its
 * folder's if that was looked at last, else a stat's; *ino is t's inode
 * if one of those gave it, else 0. */
static struct ms_device *
device_of(struct ms_order *o, const struct ms_task *t, ino_t *ino)
{
	const char *slash;
	size_t len;
	struct stat st;

	*ino = t->ino;
	if (t->ino != 0)
		return ms_device_of(t->dev);
	slash = strrchr(t->path, '/');
	len = slash != NULL ? (size_t)(slash - t->path) : 0;
	if (o->dir_dev != NULL && len == o->dir_len &&
	    memcmp(t->path, o->dir, len) == 0)
		return o->dir_dev;
	if (stat(t->path, &st) == -1)
		return NULL;	/* open will say why */
	*ino = st.st_ino;
	free(o->dir);
	o->dir = ms_xstrndup(t->path, len);
	o->dir_len = len;
	o->dir_dev = ms_device_of(st.st_dev);
	return o->dir_dev;
}

bool
ms_order_hold(struct ms_order *o, struct ms_task *t)
{
	struct ms_device *d;
	struct stat st;
	ino_t ino;

	t->gated = false;
	if (t->stream || t->part != NULL ||
	    (d = device_of(o, t, &ino)) == NULL)
		return false;
	if (d->cls == MS_DEV_UNDECIDED)
		ms_device_probe_at(d, t->path, t->walked);
	if (o->debug)
		ms_device_say(d);
	if (d->order == MS_ORDER_WALK) {
		t->gated = d->cls == MS_DEV_SEEKING;
		return false;
	}
	if (ino == 0) {
		if (stat(t->path, &st) == -1)
			return false;
		ino = st.st_ino;
	}
	if (o->n == 0)
		o->since = ms_now_ns();
	o->v[o->n++] = (struct held){ .t = t, .d = d, .ino = ino };
	return true;
}

bool
ms_order_ready(const struct ms_order *o)
{
	return o->n == HOLD_MAX || (o->n > 0 && ms_now_ns() - o->since >= HOLD_NS);
}

bool
ms_order_holds(const struct ms_order *o)
{
	return o != NULL && o->n > 0;
}

/* Read order: files read in walk order first, as submitted; then per
 * device, by where they lie, then as submitted. */
static int
by_place(const void *a, const void *b)
{
	const struct held *x = a, *y = b;
	bool xw = x->d->order == MS_ORDER_WALK, yw = y->d->order == MS_ORDER_WALK;

	if (xw != yw)
		return xw ? -1 : 1;
	if (!xw && x->d != y->d)
		return x->d->dev < y->d->dev ? -1 : 1;
	if (!xw && x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->t->seq < y->t->seq ? -1 : x->t->seq > y->t->seq;
}

struct ms_task *
ms_order_release(struct ms_order *o)
{
	struct ms_task *head = NULL, **tail = &head;

	if (o->n == 0)
		return NULL;
	for (size_t i = 0; i < o->n; i++) {
		struct held *h = &o->v[i];

		if (o->debug)
			ms_device_say(h->d);
		h->t->gated = h->d->cls == MS_DEV_SEEKING;
		if (h->d->order != MS_ORDER_WALK)
			h->key = ms_device_key(h->d, h->t->path, h->ino);
	}
	qsort(o->v, o->n, sizeof(*o->v), by_place);
	for (size_t i = 0; i < o->n; i++) {
		*tail = o->v[i].t;
		tail = &o->v[i].t->next;
	}
	*tail = NULL;
	o->n = 0;
	return head;
}
