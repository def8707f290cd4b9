/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * update_keep.c - --update's entries written from the old ledger rather
 * than from a read: carried-over bytes, entries kept for files that
 * could not be read, and checkpoints.
 *
 * A checkpoint replaces the manifest, atomically and durably, with what
 * the run has written so far (under the run's stamp) followed by every
 * old entry it has not reached, so that a run killed at any moment
 * leaves a ledger that has lost no recorded digest, and the next run
 * reads again only what was not recorded.  An old entry is written with
 * its "#@" line only if that line was trusted under the old stamp (not
 * racily clean): the checkpoint's stamp is later, and would make a
 * racily clean entry look trustworthy.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "manifest/format.h"
#include "modes/update_int.h"
#include "base/portable.h"
#include "base/util.h"

void
ms_update_flush_copy(struct update *u)
{
	if (u->copy_len == 0)
		return;
	if (ms_ledger_copy(&u->l, u->copy_off, u->copy_len, u->out.fp) == -1) {
		ms_warn("%s: %s", u->o->update, strerror(errno));
		u->fatal++;
	}
	u->copy_len = 0;
	u->wrote = true;
}

/* Add a plain entry's bytes to the run to copy. */
static void
copy_span(struct update *u, const struct ms_ledger_entry *e)
{
	if (u->copy_len > 0 && u->copy_off + u->copy_len == e->off) {
		u->copy_len += e->span;
	} else {
		ms_update_flush_copy(u);
		u->copy_off = e->off;
		u->copy_len = e->span;
	}
}

static bool
legacy(const struct ms_selection *sel)
{
	for (size_t i = 0; i < sel->cnt; i++)
		if (sel->spec[i].algo->legacy != MS_LEGACY_NONE)
			return true;
	return false;
}

/*
 * e's lines, its "#@" line first with_stat; with the digests it has (an
 * entry of fewer algorithms than the run's: lines of those only).  False
 * if they cannot be written: a legacy sum's line holds the size, which
 * only the bookkeeping recorded.
 */
static bool
write_entry(FILE *fp, const struct update *u, const struct ms_ledger_entry *e,
    bool with_stat)
{
	const struct ms_selection *sel = &u->o->sel;
	struct ms_selection sub = { 0 };
	unsigned char *d;

	if (!(e->flags & MS_LEDGER_HAS_STAT) && legacy(sel))
		return false;
	if (with_stat) {
		ms_ledger_write_stat(fp, &e->st);
		ms_ledger_write_pieces(fp, &e->st);
	}
	if (ms_ledger_complete(&u->l, e)) {
		ms_format_result(fp, &u->o->fmt, e->name, sel, e->digest,
		    e->st.size);
		return true;
	}
	d = ms_xmalloc(sel->out_len);
	for (size_t i = 0; i < sel->cnt; i++)
		if (e->have >> i & 1) {
			ms_selection_add(&sub, &sel->spec[i]);
			memcpy(d + sub.offset[sub.cnt - 1], e->digest + sel->offset[i],
			    ms_spec_len(&sel->spec[i]));
		}
	ms_format_result(fp, &u->o->fmt, e->name, &sub, d, e->st.size);
	free(d);
	return true;
}

bool
ms_update_carry(struct update *u, struct ms_ledger_entry *e,
    const struct ms_file_stat *fs)
{
	e->flags |= MS_LEDGER_DONE;
	if (e->flags & MS_LEDGER_PLAIN) {
		copy_span(u, e);
		return true;
	}
	ms_update_flush_copy(u);
	u->wrote = true;
	ms_ledger_write_stat(u->out.fp, fs);
	ms_ledger_write_pieces(u->out.fp, &e->st);	/* they go with it */
	ms_format_result(u->out.fp, &u->o->fmt, e->name, &u->o->sel, e->digest,
	    fs->size);
	return true;
}

bool
ms_update_keep(struct update *u, struct ms_ledger_entry *e)
{
	bool trusted = ms_ledger_trusted(&u->l, e);

	e->flags |= MS_LEDGER_DONE;
	if ((e->flags & MS_LEDGER_PLAIN) && trusted) {
		copy_span(u, e);
		return true;
	}
	ms_update_flush_copy(u);
	u->wrote = true;
	return write_entry(u->out.fp, u, e, trusted);
}

/* The checkpoint after what the run wrote: the old entries not reached,
 * then the line that marks it unfinished. */
static int
unreached(FILE *fp, void *arg)
{
	struct update *u = arg;
	uint64_t off = 0, len = 0;

	for (size_t i = 0; i < u->l.cnt; i++) {
		const struct ms_ledger_entry *e = &u->l.e[i];
		bool trusted;

		if (e->flags & (MS_LEDGER_DONE | MS_LEDGER_DUP))
			continue;
		trusted = ms_ledger_trusted(&u->l, e);
		if ((e->flags & MS_LEDGER_PLAIN) && trusted) {
			if (len > 0 && off + len == e->off) {
				len += e->span;
				continue;
			}
			if (len > 0 && ms_ledger_copy(&u->l, off, len, fp) == -1)
				return -1;
			off = e->off;
			len = e->span;
			continue;
		}
		if (len > 0 && ms_ledger_copy(&u->l, off, len, fp) == -1)
			return -1;
		len = 0;
		write_entry(fp, u, e, trusted);
	}
	if (len > 0 && ms_ledger_copy(&u->l, off, len, fp) == -1)
		return -1;
	/* what the walk has not reached yet is not in it: it says so */
	fputs(MS_LEDGER_CHECKPOINT, fp);
	return ferror(fp) ? -1 : 0;
}

void
ms_update_checkpoint_start(struct update *u)
{
	u->interval_ns = (int64_t)u->o->checkpoint * 1000000000;
	u->due_ns = ms_monotonic_coarse_ns() + u->interval_ns;
}

void
ms_update_tick(struct update *u, bool hashed)
{
	int64_t now;

	if (u->interval_ns == 0)
		return;
	/* Only what was read is worth a checkpoint: the old ledger still
	 * holds what was carried over.  Between reads, the clock is looked
	 * at every 256 results. */
	if (hashed)
		u->fresh++;
	if (u->fresh == 0 || (!hashed && (++u->tick & 255) != 0))
		return;
	now = ms_monotonic_coarse_ns();
	if (now < u->due_ns)
		return;
	ms_update_flush_copy(u);
	if (ms_output_checkpoint(&u->out, unreached, u) == 0) {
		u->checkpoints++;
		if (u->o->debug)
			ms_warn("%s: checkpoint %zu written", u->o->update,
			    u->checkpoints);
	}
	u->fresh = 0;
	u->due_ns = now + u->interval_ns;
}
