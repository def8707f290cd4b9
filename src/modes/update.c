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
#include "modes/update.h"
#include "io/output.h"
#include "modes/update_walk.h"
#include "base/util.h"

enum fate { FATE_UNCHANGED, FATE_ADDED, FATE_CHANGED, FATE_REMOVED, FATE_CNT };

static const char *const fate_name[FATE_CNT] = {
	"unchanged", "added", "changed", "removed",
};

struct update {
	const struct ms_options *o;
	struct ms_ledger l;
	struct ms_ledger_shape shape;	/* of the lines this run writes */
	struct ms_output out;
	bool		 ndjson;	/* fates on standard output */
	size_t		 cnt[FATE_CNT];
	size_t		 failed;
	/* Plain entries carried over: bytes of the old manifest still to
	 * copy, and whether anything else was written. */
	uint64_t	 copy_off, copy_len;
	bool		 wrote;
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

/* Write the old manifest's bytes still to copy. */
static void
flush_copy(struct update *u)
{
	if (u->copy_len == 0)
		return;
	if (ms_ledger_copy(&u->l, u->copy_off, u->copy_len, u->out.fp) == -1) {
		ms_warn("%s: %s", u->o->update, strerror(errno));
		u->failed++;
	}
	u->copy_len = 0;
	u->wrote = true;
}

static void
report(struct update *u, const char *path, enum fate f)
{
	u->cnt[f]++;
	if (!u->ndjson)
		return;
	fputs("{\"path\":", stdout);
	ms_json_string(stdout, path);
	printf(",\"fate\":\"%s\"}\n", fate_name[f]);
}

static bool
need_hash(void *arg, const struct ms_ledger_entry *e,
    const struct ms_file_stat *fs)
{
	struct update *u = arg;

	return e == NULL || !ms_ledger_vouches(&u->l, e, fs);
}

static void
result(void *arg, const char *path, struct ms_ledger_entry *e,
    const struct ms_file_stat *fs, struct ms_task *t)
{
	struct update *u = arg;
	const unsigned char *digest = e != NULL ? e->digest : NULL;

	/* Carried over and plain: the bytes it was, copied in runs. */
	if (t == NULL && e != NULL && (e->flags & MS_LEDGER_PLAIN)) {
		if (u->copy_len > 0 && u->copy_off + u->copy_len == e->off) {
			u->copy_len += e->span;
		} else {
			flush_copy(u);
			u->copy_off = e->off;
			u->copy_len = e->span;
		}
		report(u, path, FATE_UNCHANGED);
		return;
	}
	flush_copy(u);
	u->wrote = true;
	if (t != NULL) {
		if (t->err != 0) {
			ms_warn("%s: %s", path, strerror(t->err));
			u->failed++;
			return;
		}
		digest = t->digest;
	}
	ms_ledger_write_stat(u->out.fp, fs);
	ms_format_result(u->out.fp, &u->o->fmt, path, &u->o->sel, digest,
	    fs->size);
	report(u, path, t == NULL ? FATE_UNCHANGED : e == NULL ? FATE_ADDED :
	    FATE_CHANGED);
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

/*
 * o's selection and line format were settled by main (without -a, the
 * manifest's algorithms); --format=ndjson reports the fates.
 */
int
ms_update_main(const struct ms_options *o)
{
	struct update u = { .o = o };
	const char *path = o->update;
	bool fresh = false, same;
	size_t errors;
	int status = MS_EXIT_OK;

	u.ndjson = o->format_name != NULL && strcmp(o->format_name, "ndjson") == 0;
	if (ms_selection_load(&o->sel) == -1)
		return MS_EXIT_USAGE;
	probe_shape(o, &u.shape);
	if (ms_ledger_load_shaped(&u.l, path, &o->sel, &u.shape) == -1) {
		if (errno != ENOENT) {
			ms_warn("%s: %s", path, strerror(errno));
			return MS_EXIT_FAIL;
		}
		fresh = true;	/* the first run hashes everything */
		ms_ledger_empty(&u.l, &o->sel);
	}
	if (!fresh && u.l.cnt > 0 && !u.l.versioned && !o->quiet)
		ms_warn("%s: no multisum bookkeeping (written by another tool?): "
		    "every file is hashed again", path);
	if (u.l.foreign > 0 && !o->quiet)
		ms_warn("%s: %zu line%s of algorithms not selected dropped",
		    path, u.l.foreign, u.l.foreign == 1 ? "" : "s");
	if (ms_output_open(&u.out, path) == -1) {
		ms_ledger_free(&u.l);
		return MS_EXIT_FAIL;
	}
	ms_ledger_write_header(u.out.fp, ms_ledger_stamp(fileno(u.out.fp)));
	errors = ms_survey_run(o, &u.l, path, fileno(u.out.fp),
	    &(struct ms_survey_ops){ need_hash, result }, &u);
	for (size_t i = 0; i < u.l.cnt; i++) {
		const struct ms_ledger_entry *e = &u.l.e[i];

		if (!(e->flags & (MS_LEDGER_SEEN | MS_LEDGER_DUP)))
			report(&u, e->name, FATE_REMOVED);
	}
	/*
	 * Nothing changed: the old manifest stands, with its older (and so
	 * no less safe) stamp, and the disk is spared a sync.  Known without
	 * reading anything when the new lines are the old ones copied, in
	 * one run from its second line to its end.
	 */
	same = errors == 0 && u.failed == 0 && u.l.foreign == 0 &&
	    u.cnt[FATE_UNCHANGED] == u.l.cnt && !u.wrote && u.copy_len > 0 &&
	    u.copy_off == u.l.body && u.copy_off + u.copy_len == u.l.size;
	if (!same)
		flush_copy(&u);
	u.failed += errors;
	if (u.failed > 0) {
		status = MS_EXIT_FAIL;
		ms_warn("%s: not updated: %zu input%s could not be read", path,
		    u.failed, u.failed == 1 ? "" : "s");
	}
	if (same || (u.failed == 0 && u.cnt[FATE_UNCHANGED] == u.l.cnt &&
	    u.l.foreign == 0 && fflush(u.out.fp) == 0 &&
	    same_after_header(u.out.tmp, path)))
		ms_output_close(&u.out, false);
	else if (ms_output_close(&u.out, u.failed == 0) == -1)
		status = MS_EXIT_FAIL;
	if (ms_survey_flush() == -1)
		status = MS_EXIT_FAIL;
	if (!o->quiet)
		fprintf(stderr, "%zu unchanged, %zu added, %zu changed, "
		    "%zu removed\n", u.cnt[FATE_UNCHANGED], u.cnt[FATE_ADDED],
		    u.cnt[FATE_CHANGED], u.cnt[FATE_REMOVED]);
	ms_ledger_free(&u.l);
	return status;
}
