/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * update.c - --update=MANIFEST: bring a manifest in line with a tree.
 *
 * Owns the fate of each file (unchanged, added, changed, removed), the
 * rewrite of the manifest with its bookkeeping (atomically, through
 * output.c) and the summary.  An entry is carried over unread only when
 * the ledger vouches for it (ledger.c); everything else is hashed.  The
 * lines are format.c's, so that the manifest equals what -o writes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifest/format.h"
#include "manifest/ledger.h"
#include "modes/scope.h"
#include "modes/update.h"
#include "modes/update_int.h"
#include "engine/engine_pieces.h"
#include "modes/update_walk.h"
#include "base/exit_status.h"
#include "io/text_input.h"
#include "base/quote.h"
#include "base/util.h"

static const char *const fate_name[FATE_CNT] = {
	"unchanged", "added", "changed", "removed", "kept", "corrupt",
};

/*
 * The shape of this run's lines (ledger.h): format.c's lines for the
 * plain name "x" and a digest of every nibble, read back.  MS_SHAPE_NONE
 * when they are not hex "HEX  x" or "TAG (x) = HEX" lines (-b, --base64,
 * legacy sums, a row with a text form of its own): then every entry is
 * formatted anew.
 */
static void
probe_shape(const struct ms_options *o, struct ms_ledger_shape *sh)
{
	const struct ms_selection *sel = &o->sel;
	unsigned char *d = ms_xmalloc(sel->out_len ? sel->out_len : 1);
	char hex[2 * MS_DIGEST_MAX + 1], want[2 * MS_DIGEST_MAX + 64];
	char *buf = NULL, *p;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);

	memset(sh, 0, sizeof(*sh));
	for (size_t i = 0; i < sel->out_len; i++)
		d[i] = (unsigned char)(i * 37 + 0x1f);
	if (fp == NULL) {
		free(d);
		return;
	}
	ms_format_result(fp, &o->fmt, "x", sel, d, 0);
	if (fclose(fp) != 0)
		size = 0;
	for (size_t i = 0; i < sel->cnt; i++)
		if (sel->spec[i].algo->ops->text != NULL)
			size = 0;
	p = buf;
	if (size > 0 && o->fmt.format == MS_FORMAT_GNU && sel->cnt == 1) {
		ms_hex(hex, d, ms_spec_len(&sel->spec[0]));
		snprintf(want, sizeof(want), "%s  x\n", hex);
		if (strlen(want) == size && memcmp(want, buf, size) == 0)
			sh->kind = MS_SHAPE_GNU;
	} else if (size > 0 && o->fmt.format == MS_FORMAT_BSD) {
		sh->kind = MS_SHAPE_BSD;
		for (size_t i = 0; i < sel->cnt && sh->kind != MS_SHAPE_NONE; i++) {
			const char *end = memchr(p, '\n', size - (size_t)(p - buf));
			size_t tl = strcspn(p, " ");

			ms_hex(hex, d + sel->offset[i], ms_spec_len(&sel->spec[i]));
			snprintf(want, sizeof(want), " (x) = %s\n", hex);
			if (end == NULL || tl == 0 || tl >= sizeof(sh->tag[i]) ||
			    (size_t)(end + 1 - p) != tl + strlen(want) ||
			    memcmp(p + tl, want, strlen(want)) != 0) {
				sh->kind = MS_SHAPE_NONE;
				break;
			}
			memcpy(sh->tag[i], p, tl);
			sh->tag[i][tl] = '\0';
			p = (char *)end + 1;
		}
		if (p != buf + size)
			sh->kind = MS_SHAPE_NONE;
	}
	free(buf);
	free(d);
}

static void
report(struct update *u, const char *path, enum fate f, bool read, int err)
{
	u->cnt[f]++;
	if (f == FATE_UNCHANGED && read)
		u->rehashed++;
	if (!u->ndjson)
		return;
	fputs("{\"path\":", stdout);
	ms_json_string(stdout, path);
	printf(",\"fate\":\"%s\"", fate_name[f]);
	if (f == FATE_UNCHANGED && read)
		fputs(",\"rehashed\":true", stdout);
	if (err != 0) {
		fputs(",\"error\":", stdout);
		ms_json_string(stdout, ms_strerror(err));
	}
	fputs("}\n", stdout);
}

static bool
need_hash(void *arg, const struct ms_ledger_entry *e,
    const struct ms_file_stat *fs)
{
	struct update *u = arg;

	/* --piece-size: an entry without its pieces is read once for them */
	return e == NULL || !ms_ledger_vouches(&u->l, e, fs) ||
	    (u->o->piece_size != 0 && e->st.piece != u->o->piece_size);
}

/* Does e list digests (one at least), each equal to the one just read? */
static bool
same_content(const struct update *u, const struct ms_ledger_entry *e,
    const unsigned char *d)
{
	const struct ms_selection *sel = &u->o->sel;

	for (size_t i = 0; i < sel->cnt; i++)
		if ((e->have >> i & 1) && memcmp(e->digest + sel->offset[i],
		    d + sel->offset[i], ms_spec_len(&sel->spec[i])) != 0)
			return false;
	return e->have != 0;
}

static void missed(void *arg, const char *path, struct ms_ledger_entry *e,
    enum ms_update_walk_miss how, int err, bool operand);

/*
 * Is the file just read as t, of entry e, corrupt: other content than e
 * lists, with the size and modification time e recorded (--audit's
 * "corrupt")?  Then it is said, naming the first digest that differs,
 * and its entry is kept as it was (true: the result is dealt with), or,
 * with --accept-corrupt, said and recorded as changed (false).
 */
static bool
keep_corrupt(struct update *u, const char *path, struct ms_ledger_entry *e,
    const struct ms_file_stat *fs, const struct ms_task *t)
{
	const struct ms_selection *sel = &u->o->sel;
	char was[2 * MS_DIGEST_MAX + 1], now[2 * MS_DIGEST_MAX + 1], name[32];
	size_t i;

	if (e == NULL || e->have == 0 || same_content(u, e, t->digest) ||
	    !ms_ledger_unmodified(&u->l, e, fs))
		return false;
	for (i = 0; i < sel->cnt; i++)
		if ((e->have >> i & 1) && memcmp(e->digest + sel->offset[i],
		    t->digest + sel->offset[i], ms_spec_len(&sel->spec[i])) != 0)
			break;
	ms_hex(was, e->digest + sel->offset[i], ms_spec_len(&sel->spec[i]));
	ms_hex(now, t->digest + sel->offset[i], ms_spec_len(&sel->spec[i]));
	ms_warn("%s: corrupt: other content, same size and modification time; "
	    "%s recorded %s, read %s; %s", ms_quotef(path),
	    ms_spec_name(&sel->spec[i], name, sizeof(name)), was, now,
	    u->o->accept_corrupt ? "the new content is recorded "
	    "(--accept-corrupt)" : "its entry is kept");
	if (u->o->accept_corrupt)
		return false;
	if (!ms_update_keep(u, e))	/* a legacy sum without its size */
		u->fatal++;
	ms_outcome_note(MS_OUTCOME_FAIL);	/* corruption: no retry */
	report(u, path, FATE_CORRUPT, true, 0);
	ms_update_tick(u, true);
	return true;
}

static void
result(void *arg, const char *path, struct ms_ledger_entry *e,
    const struct ms_file_stat *fs, struct ms_task *t)
{
	struct update *u = arg;

	if (t == NULL) {
		ms_update_carry(u, e, fs);
		report(u, path, FATE_UNCHANGED, false, 0);
		ms_update_tick(u, false);
		return;
	}
	if (keep_corrupt(u, path, e, fs, t))
		return;
	ms_update_flush_copy(u);
	u->wrote = true;
	if (u->o->piece_size != 0) {
		struct ms_file_stat with = *fs;
		char *hex;

		/* the pieces: the file read again, unchanged since; if it
		 * changed, it failed as an unreadable file does */
		if (ms_pieces_of(path, u->o->piece_size, fs, &hex) == -1) {
			ms_warn("%s: %s", ms_quotef(path), errno == EAGAIN ?
			    "changed while it was read" : ms_strerror(errno));
			ms_outcome_note(MS_OUTCOME_RETRY);
			u->failed++;
			/* its old entry kept, said and counted as kept */
			missed(u, path, e, MS_MISS_BELOW, 0, false);
			return;
		}
		if (e != NULL)
			e->flags |= MS_LEDGER_DONE;
		with.piece = u->o->piece_size;
		with.pieces = hex;
		ms_ledger_write_stat(u->out.fp, &with);
		ms_ledger_write_pieces(u->out.fp, &with);
		free(hex);
	} else {
		if (e != NULL)
			e->flags |= MS_LEDGER_DONE;
		ms_ledger_write_stat(u->out.fp, fs);
	}
	ms_format_result(u->out.fp, &u->o->fmt, path, &u->o->sel, t->digest,
	    fs->size);
	report(u, path, e == NULL ? FATE_ADDED : same_content(u, e, t->digest) ?
	    FATE_UNCHANGED : FATE_CHANGED, true, 0);
	ms_update_tick(u, true);
}

/* Is path one of the operands of the command line (or the default .)? */
static bool
command_line_operand(const struct ms_options *o, const char *path)
{
	for (size_t i = 0; i < o->nfiles; i++)
		if (strcmp(o->files[i], path) == 0)
			return true;
	return o->nfiles == 0 && o->files_from == NULL && strcmp(path, ".") == 0;
}

static void
missed(void *arg, const char *path, struct ms_ledger_entry *e,
    enum ms_update_walk_miss how, int err, bool operand)
{
	struct update *u = arg;

	switch (how) {
	case MS_MISS_GONE:
		/* the entry, no longer seen, is reported removed at the end */
		ms_walk_vanished(path, e != NULL ? "removed" : "not listed");
		return;
	case MS_MISS_FAILED:
		ms_warn("%s: %s", ms_quotef(path), ms_strerror(err));
		if (operand && command_line_operand(u->o, path))
			u->fatal++;
		else
			u->failed++;
		break;
	case MS_MISS_BELOW:
		break;
	}
	if (e == NULL)
		return;
	if (ms_update_keep(u, e)) {
		report(u, path, FATE_KEPT, false, err);
	} else {
		ms_warn("%s: its entry cannot be kept (no size recorded for "
		    "its line)", ms_quotef(path));
		u->fatal++;
	}
}

static bool
is_self(void *arg, const struct stat *st)
{
	struct update *u = arg;

	return ms_output_is_self(&u->out, st);
}

/* Skip fp's first line; false at the end of the file. */
static bool
skip_line(FILE *fp)
{
	int c;

	while ((c = getc(fp)) != EOF && c != '\n')
		;
	return c != EOF;
}

/* Do files a and b hold the same bytes after their first lines? */
static bool
same_after_header(const char *a, const char *b)
{
	FILE *f = fopen(a, "r"), *g = fopen(b, "r");
	bool same = f != NULL && g != NULL && skip_line(f) == skip_line(g);
	static char x[1 << 16], y[1 << 16];

	while (same) {
		size_t n = fread(x, 1, sizeof(x), f);

		same = fread(y, 1, sizeof(y), g) == n && memcmp(x, y, n) == 0 &&
		    !ferror(f) && !ferror(g);
		if (n < sizeof(x))
			break;
	}
	if (f != NULL)
		fclose(f);
	if (g != NULL)
		fclose(g);
	return same;
}

/* The ledger's lines that were no entry: said, with their numbers. */
static void
report_bad(const struct update *u)
{
	const struct ms_ledger *l = &u->l;
	char list[16 * 12 + 16];
	size_t used = 0, shown = l->bad < MS_ARRAY_LEN(l->bad_line) ? l->bad :
	    MS_ARRAY_LEN(l->bad_line);

	if (l->bad == 0)
		return;
	for (size_t i = 0; i < shown; i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%lu",
		    i ? ", " : "", l->bad_line[i]);
	if (shown < l->bad)
		snprintf(list + used, sizeof(list) - used, ", ...");
	ms_warn("%s: %zu improperly formatted line%s (line%s %s): not "
	    "kept", u->o->update, l->bad, l->bad == 1 ? "" : "s",
	    l->bad == 1 ? "" : "s", list);
}

/*
 * A ledger of other shards than this run's would lose theirs: refused.
 * One without shard bookkeeping is taken (written before multisum kept
 * it, or by --update of a whole tree when this run is not a shard).
 */
static bool
wrong_shard(const struct update *u)
{
	const struct ms_ledger_head *h = &u->l.head;
	char mine[64], theirs[64];

	/* A whole run takes any ledger: it drops nothing it had. */
	if (u->o->shard.n == 0 || ms_shard_set_equal(&h->shards, &u->head.shards))
		return false;
	ms_shard_set_text(&u->head.shards, mine, sizeof(mine));
	if (h->shards.n > 0) {
		ms_shard_set_text(&h->shards, theirs, sizeof(theirs));
		ms_warn("%s: the ledger of shard %s, this run is shard %s: "
		    "not updated", u->o->update, theirs, mine);
		return true;
	}
	/* No shard recorded: a ledger of this multisum's, of a whole tree,
	 * is refused; an older one (no scope recorded) is taken. */
	if (h->algorithms == NULL)
		return false;
	ms_warn("%s: the ledger of a whole tree, this run is shard %s: not "
	    "updated (the other shards' entries would be dropped)",
	    u->o->update, mine);
	return true;
}

/* Entries not found (nor kept): removed. */
static void
report_removed(struct update *u)
{
	for (size_t i = 0; i < u->l.cnt; i++) {
		const struct ms_ledger_entry *e = &u->l.e[i];

		if (!(e->flags & (MS_LEDGER_SEEN | MS_LEDGER_DUP)))
			report(u, e->name, FATE_REMOVED, false, 0);
	}
}

static void
summary(const struct update *u)
{
	char rehashed[48] = "", kept[48] = "", corrupt[48] = "";

	if (u->rehashed > 0)
		snprintf(rehashed, sizeof(rehashed), " (%zu rehashed)",
		    u->rehashed);
	if (u->cnt[FATE_KEPT] > 0)
		snprintf(kept, sizeof(kept), ", %zu kept", u->cnt[FATE_KEPT]);
	if (u->cnt[FATE_CORRUPT] > 0)
		snprintf(corrupt, sizeof(corrupt), ", %zu corrupt (entry kept)",
		    u->cnt[FATE_CORRUPT]);
	fprintf(stderr, "%zu unchanged%s, %zu added, %zu changed, %zu removed%s%s\n",
	    u->cnt[FATE_UNCHANGED], rehashed, u->cnt[FATE_ADDED],
	    u->cnt[FATE_CHANGED], u->cnt[FATE_REMOVED], kept, corrupt);
}

/* Did the command line ask for the lines --update writes (a conversion)? */
static bool
converts(const struct ms_options *o)
{
	return o->tag || (o->format_name != NULL &&
	    (strcmp(o->format_name, "gnu") == 0 ||
	    strcmp(o->format_name, "bsd") == 0));
}

/* Load the ledger at path (none yet: an empty one); -1 after a message. */
static int
load(struct update *u, const char *path)
{
	const struct ms_options *o = u->o;
	struct ms_manifest_input in;

	if (ms_text_input(&in, path) == -1 ||
	    ms_ledger_load_shaped(&u->l, &in, &o->sel, &u->shape) == -1) {
		if (errno != ENOENT) {
			ms_warn("%s: %s", path, ms_text_strerror(errno));
			ms_outcome_note(ms_text_outcome(errno));
			return -1;
		}
		ms_ledger_empty(&u->l, &o->sel);	/* the first run */
		return 0;
	}
	report_bad(u);
	if (u->l.hashdeep && !converts(o)) {
		ms_warn("%s: a hashdeep audit file: --update would rewrite it as "
		    "a multisum ledger, which hashdeep cannot load: not updated "
		    "(--format=bsd or gnu converts it; --format=hashdeep -o "
		    "writes a new one for hashdeep)", path);
		ms_ledger_free(&u->l);
		return -1;
	}
	if (u->l.hashdeep && !o->quiet)
		ms_warn("%s: hashdeep's audit file converted to a multisum ledger "
		    "of %s lines: hashdeep can no longer load it", path,
		    o->fmt.format == MS_FORMAT_BSD ? "BSD" : "GNU");
	if (u->l.cnt == 0 && u->l.bad > 0 && u->l.head.algorithms == NULL &&
	    !u->l.versioned) {
		ms_warn("%s: holds no checksum line: not replaced", path);
		ms_outcome_note(MS_OUTCOME_FAIL);
		ms_ledger_free(&u->l);
		return -1;
	}
	if (u->l.cnt > 0 && !u->l.versioned && !o->quiet)
		ms_warn("%s: no multisum bookkeeping (written by another tool?): "
		    "every file is hashed again", path);
	if (u->l.foreign > 0 && !o->quiet)
		ms_warn("%s: %zu line%s of algorithms not selected dropped",
		    path, u->l.foreign, u->l.foreign == 1 ? "" : "s");
	return 0;
}

/*
 * o's selection and line format were settled by main (without -a, the
 * manifest's algorithms); --format=ndjson reports the fates.
 */
int
ms_update_main(const struct ms_options *o)
{
	struct update u = { .o = o };
	const char *path = o->update;
	bool same, untouched;
	int status = MS_EXIT_OK;

	u.ndjson = o->format_name != NULL && strcmp(o->format_name, "ndjson") == 0;
	if (ms_selection_load(&o->sel) == -1)
		return MS_EXIT_USAGE;
	/* A missing or unreadable operand (an unmounted tree) leaves the
	 * ledger as it is, before anything is read. */
	if (ms_update_walk_probe(o) > 0) {
		ms_warn("%s: not updated", path);
		return MS_EXIT_FAIL;
	}
	probe_shape(o, &u.shape);
	ms_scope_head(o, &u.head);
	if (load(&u, path) == -1) {
		ms_ledger_head_free(&u.head);
		return MS_EXIT_FAIL;
	}
	if (wrong_shard(&u) || ms_output_replace(&u.out, path) == -1) {
		ms_ledger_free(&u.l);
		ms_ledger_head_free(&u.head);
		return MS_EXIT_FAIL;
	}
	/* --sign: the key unlocked before anything is hashed; the ledger and
	 * its signature are then written together, at each checkpoint too */
	if (o->signing.sign != NULL && ms_sign_prepare(&o->signing, &u.out) == -1) {
		ms_output_close(&u.out, false);
		ms_ledger_free(&u.l);
		ms_ledger_head_free(&u.head);
		return MS_EXIT_FAIL;
	}
	u.head.has_stamp = true;
	u.head.stamp_ns = ms_ledger_stamp(fileno(u.out.fp));
	ms_ledger_head_write(u.out.fp, &u.head);
	ms_update_checkpoint_start(&u);
	if (ms_update_walk_run(o, &u.l, &(struct ms_update_walk_ops){
	    need_hash, result, missed, is_self }, &u) == -1)
		u.fatal++;
	report_removed(&u);
	/*
	 * Nothing changed: the old manifest stands, with its older (and so
	 * no less safe) stamp, and the disk is spared a sync.  Known without
	 * reading anything when the new lines are the old ones copied, in
	 * one run from its first entry to its end, under the same scope.
	 * With --sign the ledger is written all the same: the signature
	 * asked for is made, never left out or an old one trusted.
	 */
	untouched = o->signing.sign == NULL && u.fatal == 0 &&
	    u.failed == 0 && u.l.foreign == 0 && u.l.bad == 0 && u.cnt[FATE_UNCHANGED] == u.l.cnt &&
	    u.rehashed == 0 && u.l.head.algorithms != NULL &&
	    ms_ledger_head_differs(&u.head, &u.l.head) == NULL &&
	    ms_shard_set_equal(&u.head.shards, &u.l.head.shards);
	same = untouched && !u.wrote && u.copy_len > 0 &&
	    u.copy_off == u.l.body && u.copy_off + u.copy_len == u.l.size;
	if (!same)
		ms_update_flush_copy(&u);
	if (u.fatal > 0) {
		status = MS_EXIT_FAIL;
		ms_warn("%s: not updated", path);
		ms_output_close(&u.out, false);
	} else {
		if (u.cnt[FATE_CORRUPT] > 0) {
			status = MS_EXIT_FAIL;
			ms_warn("%s: %zu corrupt file%s: %s kept (--accept-corrupt "
			    "records the new content)", path, u.cnt[FATE_CORRUPT],
			    u.cnt[FATE_CORRUPT] == 1 ? "" : "s",
			    u.cnt[FATE_CORRUPT] == 1 ? "its entry" : "their entries");
		}
		if (u.failed > 0) {
			status = MS_EXIT_FAIL;
			ms_warn("%s: %zu file%s could not be read: %s", path,
			    u.failed, u.failed == 1 ? "" : "s",
			    u.cnt[FATE_KEPT] > 0 ? "previous entries kept" :
			    "not listed");
		}
		if (same || (untouched && fflush(u.out.fp) == 0 &&
		    same_after_header(u.out.tmp, path))) {
			ms_output_close(&u.out, false);
		} else if (ms_output_close(&u.out, true) == -1) {
			/* (a full disk): the old manifest stands */
			status = MS_EXIT_FAIL;
			ms_warn("%s: not updated", path);
			u.fatal++;
		}
	}
	if (ms_update_walk_flush() == -1)
		status = MS_EXIT_FAIL;
	/* after "not updated", no count claims to have been applied */
	if (!o->quiet && u.fatal == 0)
		summary(&u);
	ms_ledger_free(&u.l);
	ms_ledger_head_free(&u.head);
	return status;
}
