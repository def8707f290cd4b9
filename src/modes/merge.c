/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * merge.c - --merge: shard manifests into the manifest one run over the
 * whole tree would have written.
 *
 * Owns the order of a whole run rebuilt from names alone (a walk visits
 * the entries of a directory in byte order, so comparing paths component
 * by component, with '/' below every other byte, gives walk order), the
 * check that the inputs are the shards of one run, all of them, once
 * each (their bookkeeping says which, of what, over what: ledger.h), the
 * refusal of conflicting entries and the merged bookkeeping.  Lines are
 * copied byte for byte, never reformatted: their escaping stays as the
 * shards wrote it.  Parsing a line is manifest.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifest/ledger.h"
#include "manifest/manifest.h"
#include "modes/part.h"
#include "modes/update.h"
#include "io/output.h"
#include "base/exit_status.h"
#include "io/text_input.h"
#include "base/quote.h"
#include "base/util.h"

struct item {
	char		*name;		/* unescaped */
	char		*stat;		/* its "#@" line, or NULL */
	char		*text;		/* its manifest line(s), verbatim */
	size_t		 len;
	size_t		 input;		/* which manifest */
	size_t		 seq;		/* order inside it */
	bool		 tagged;	/* its first line a tag ("SHA256 (") */
};

struct merge {
	const struct ms_options *o;
	struct item	*it;
	size_t		 cnt, cap;
	struct ms_ledger_head *head;	/* each input's bookkeeping */
	bool		*unread;	/* each input that could not be read */
	bool		*unfinished;	/* each input that is a checkpoint */
	bool		 stamped;	/* some input carried bookkeeping */
	int64_t		 stamp;		/* the oldest stamp: the safe one */
	size_t		 failed;
	size_t		 unreadable;	/* of failed: a shard not read (exit 3) */
};

static void
append(struct item *it, const char *line, size_t n)
{
	it->text = ms_xrealloc(it->text, it->len + n + 1);
	memcpy(it->text + it->len, line, n + 1);
	it->len += n;
}

/* A new item named name, of input's, after its bookkeeping line stat
 * (or NULL), which it takes. */
static struct item *
new_item(struct merge *m, const char *name, char *stat, size_t input)
{
	struct item *it;

	if (m->cnt == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 1024;
		m->it = ms_xrealloc(m->it, m->cap * sizeof(*m->it));
	}
	it = &m->it[m->cnt++];
	memset(it, 0, sizeof(*it));
	it->name = ms_xstrdup(name);
	it->stat = stat;
	it->input = input;
	it->seq = m->cnt;
	return it;
}

static void
read_input(struct merge *m, size_t input)
{
	const char *path = m->o->files[input];
	struct ms_manifest_rules rules = { .dialect = MS_DIALECT_NATIVE,
	    .given = m->o->sel_given ? &m->o->sel : NULL };
	struct ms_manifest_state st = { 0 };
	struct ms_manifest_input in;
	struct ms_lines r;
	char *line, *copy = NULL, *pending = NULL;
	uint64_t at;
	ssize_t n;
	struct item *cur = NULL;
	struct ms_ledger_head *h = &m->head[input];

	/* through the door, as -c reads lists (UTF-16 decoded) */
	if (ms_text_input(&in, path) == -1) {
		ms_warn("%s: %s", path, strerror(errno));
		/* a shard that is not there is missing, as a job that
		 * failed leaves it (1); one that cannot be read, a retry */
		if (errno != ENOENT)
			m->unreadable++;
		m->failed++;
		m->unread[input] = true;
		return;
	}
	ms_lines_init(&r, &in);
	ms_manifest_begin(&rules, &st, path);
	while ((n = ms_lines_next(&r, &line, &at)) > 0) {
		struct ms_manifest_entry e;

		if (st.line == 0 && ms_ledger_head_parse(h, line)) {
			if (h->has_stamp && (!m->stamped || h->stamp_ns < m->stamp)) {
				m->stamp = h->stamp_ns;
				m->stamped = true;
			}
		} else if (h->scope_read < h->nscope &&
		    st.line == h->scope_read + 1 && ms_ledger_head_scope(h, line)) {
			st.line++;
			continue;
		}
		if (strcmp(line, MS_LEDGER_CHECKPOINT) == 0) {
			m->unfinished[input] = true;
			st.line++;
			continue;
		}
		if (strncmp(line, MS_LEDGER_ENTRY, strlen(MS_LEDGER_ENTRY)) == 0) {
			free(pending);
			pending = ms_xstrdup(line);
			st.line++;
			continue;
		}
		copy = ms_xrealloc(copy, (size_t)n + 1);
		memcpy(copy, line, (size_t)n + 1);
		switch (ms_manifest_parse(&rules, &st, copy, (size_t)n, &e)) {
		case MS_LINE_SKIP:
			free(pending);
			pending = NULL;
			continue;
		case MS_LINE_UNSUPPORTED:
			/* an algorithm this build lacks: kept as written */
			if (e.name != NULL)
				break;
			/* FALLTHROUGH */
		case MS_LINE_BAD:
			ms_warn("%s: %lu: improperly formatted checksum line",
			    path, st.line);
			m->failed++;
			continue;
		case MS_LINE_ENTRY:
			break;
		}
		if (cur == NULL || pending != NULL || strcmp(cur->name, e.name) != 0) {
			cur = new_item(m, e.name, pending, input);
			cur->tagged = e.how == MS_BY_TAG;
			pending = NULL;
		}
		append(cur, line, (size_t)n);
		if (line[n - 1] != '\n')
			append(cur, "\n", 1);
	}
	if (n == -1) {
		ms_warn("%s: %s", path, ms_text_strerror(errno));
		if (ms_text_outcome(errno) == MS_OUTCOME_RETRY)
			m->unreadable++;
		m->failed++;
	}
	if (ms_manifest_input_close(&in) == -1 && n != -1) {
		ms_warn("%s: %s", path, strerror(errno));
		m->unreadable++;
		m->failed++;
	}
	ms_lines_free(&r);
	ms_manifest_end(&st);
	free(pending);
	free(copy);
}

/*
 * What a run's options make of a line: tagged (--tag) or not, the digest
 * in hex or base64 (--base64), a GNU line's '*' (--binary).  Lines of
 * one run all have the same.
 */
enum { SHAPE_TAG = 1, SHAPE_BASE64 = 2, SHAPE_BINARY = 4 };

static unsigned
shape_of(const struct item *it)
{
	const char *d = it->text, *end;
	unsigned shape = it->tagged ? SHAPE_TAG : 0;

	if (it->tagged) {
		const char *eq = strstr(d, ") = ");

		d = eq != NULL ? eq + 4 : d;
	} else if (*d == '\\') {
		d++;
	}
	end = d + strcspn(d, " \n");
	for (const char *c = d; c < end; c++)
		if (strchr("0123456789abcdefABCDEF", *c) == NULL)
			shape |= SHAPE_BASE64;
	if (!it->tagged && end[0] == ' ' && end[1] == '*')
		shape |= SHAPE_BINARY;
	return shape;
}

static const char *
shape_text(unsigned shape, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s lines%s%s", shape & SHAPE_TAG ?
	    "tagged (--tag)" : "GNU", shape & SHAPE_BASE64 ?
	    " in base64 (--base64)" : "", shape & SHAPE_BINARY ?
	    " marked binary (--binary)" : "");
	return buf;
}

/*
 * Can a run over h's operands have listed name?  Its names are below an
 * operand (or the operand itself), and nothing after the operand climbs
 * out again by "..".  Names read from a list (--files-from) may be any;
 * with no operands recorded, a name with ".." is refused.
 */
static bool
in_scope(const struct ms_ledger_head *h, const char *name)
{
	bool operands = false;

	for (size_t i = 0; i < h->scope_read; i++) {
		const char *op = h->scope[i];
		size_t n;

		if (strncmp(op, "operand ", 8) != 0) {
			if (strncmp(op, "exclude ", 8) != 0)
				return true;	/* names from a list */
			continue;
		}
		op += 8;
		operands = true;
		n = strlen(op);
		while (n > 1 && op[n - 1] == '/')
			n--;
		if (strncmp(name, op, n) != 0)
			continue;
		if (name[n] == '\0')
			return true;
		if (name[n] != '/' && !(n == 1 && op[0] == '/'))
			continue;
		name += n + strspn(name + n, "/");
		return !ms_path_leaves(name);
	}
	return !operands && (name[0] == '/' || !ms_path_leaves(name));
}

/*
 * Could one run have written every entry: each inside its shard's
 * operands, each line of the same shape as the first input's?  Every
 * refusal is said, naming the shard, and counted in m->failed.
 */
static void
check_entries(struct merge *m)
{
	const struct ms_options *o = m->o;
	unsigned *shape = ms_xcalloc(o->nfiles, sizeof(*shape));
	bool *seen = ms_xcalloc(o->nfiles, sizeof(*seen));
	size_t first = SIZE_MAX;
	char a[96], b[96];

	for (size_t i = 0; i < m->cnt; i++) {
		const struct item *it = &m->it[i];
		unsigned sh = shape_of(it);

		if (!in_scope(&m->head[it->input], it->name)) {
			ms_warn("%s: %s %s: no shard of the run holds it",
			    o->files[it->input], ms_quotef(it->name),
			    it->name[0] != '/' && ms_path_leaves(it->name) ?
			    "has a '..' component" : "is outside the operands "
			    "its bookkeeping records");
			m->failed++;
		}
		if (!seen[it->input]) {
			seen[it->input] = true;
			shape[it->input] = sh;
			if (first == SIZE_MAX)
				first = it->input;
			else if (sh != shape[first]) {
				ms_warn("%s: %s, but %s has %s: not shards of "
				    "one run", o->files[it->input],
				    shape_text(sh, a, sizeof(a)), o->files[first],
				    shape_text(shape[first], b, sizeof(b)));
				m->failed++;
			}
		} else if (sh != shape[it->input]) {
			ms_warn("%s: %s: %s among %s", o->files[it->input],
			    ms_quotef(it->name), shape_text(sh, a, sizeof(a)),
			    shape_text(shape[it->input], b, sizeof(b)));
			m->failed++;
		}
	}
	free(shape);
	free(seen);
}

/* Walk order: byte order, component by component. */
static int
walk_order(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;

	for (; *x != '\0' && *x == *y; x++, y++)
		;
	if (*x == *y)
		return 0;
	if (*x == '/' || *y == '/')
		return *x == '/' ? (*y == '\0' ? 1 : -1) : (*x == '\0' ? -1 : 1);
	return *x < *y ? -1 : 1;
}

static int
by_walk_order(const void *p, const void *q)
{
	const struct item *a = p, *b = q;
	int c = walk_order(a->name, b->name);

	if (c != 0)
		return c;
	if (a->input != b->input)
		return a->input < b->input ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* A shard set's text, for messages. */
static const char *
set_text(const struct ms_shard_set *set, char *buf, size_t cap)
{
	ms_shard_set_text(set, buf, cap);
	return buf;
}

/*
 * Are the inputs the shards of one run, each once, all of them?  Refusals
 * are counted in m->failed, each after a message; *all gets the union of
 * the shards, or n = 0 when some input has no shard bookkeeping.
 */
static void
check_set(struct merge *m, struct ms_shard_set *all)
{
	const struct ms_options *o = m->o;
	size_t first = SIZE_MAX;
	char a[64], b[64];

	memset(all, 0, sizeof(*all));
	for (size_t i = 0; i < o->nfiles; i++) {
		const struct ms_ledger_head *h = &m->head[i];

		if (m->unread[i])
			continue;	/* said; its shards count as missing */
		if (h->shards.n == 0) {
			ms_warn("%s: no shard bookkeeping (not written with "
			    "--shard): %s", o->files[i], o->partial ?
			    "merged unchecked" : "cannot tell whether the set is "
			    "complete (--partial merges it unchecked)");
			if (!o->partial)
				m->failed++;
			continue;
		}
		if (m->unfinished[i]) {
			/* its run was killed or failed after a checkpoint */
			ms_warn("%s: a checkpoint of shard %s whose run did not "
			    "finish (its --update, run again, finishes it): %s",
			    o->files[i], set_text(&h->shards, a, sizeof(a)),
			    o->partial ? "its entries merged, its shards "
			    "counted missing" : "not a whole shard");
			if (!o->partial)
				m->failed++;
			if (first == SIZE_MAX)
				all->n = h->shards.n;	/* until a whole one */
			continue;
		}
		if (first == SIZE_MAX) {
			first = i;
			all->n = h->shards.n;
		}
		const struct ms_ledger_head *f = &m->head[first];
		const char *why = ms_ledger_head_differs(f, h);
		uint32_t k;

		if (h->shards.n != f->shards.n) {
			ms_warn("%s: shard %s, but %s is shard %s: not shards of "
			    "one split", o->files[i], set_text(&h->shards, a,
			    sizeof(a)), o->files[first], set_text(&f->shards, b,
			    sizeof(b)));
			m->failed++;
		} else if (why != NULL) {
			ms_warn("%s: other %s than %s (%s)", o->files[i], why,
			    o->files[first], strcmp(why, "algorithms") == 0 ?
			    h->algorithms : "not shards of one run");
			m->failed++;
		} else if (ms_shard_set_overlaps(all, &h->shards, &k)) {
			size_t other = first;

			/* the earlier input that holds shard k */
			for (size_t j = i; j-- > 0;)
				if (m->head[j].shards.n == h->shards.n &&
				    ms_shard_set_overlaps(&m->head[j].shards,
				    &h->shards, &k))
					other = j;
			ms_warn("%s: shard %u/%u given twice (%s and %s)",
			    o->files[i], k, h->shards.n, o->files[other],
			    o->files[i]);
			m->failed++;
		} else {
			ms_shard_set_add(all, &h->shards);
		}
	}
	for (size_t i = 0; i < o->nfiles; i++)
		if (m->head[i].shards.n == 0 && !m->unread[i])
			all->n = 0;	/* unknown coverage */
}

/* The merged manifest's bookkeeping: what one run over them all writes. */
static void
write_head(struct merge *m, FILE *fp, const struct ms_shard_set *all)
{
	struct ms_ledger_head h = { 0 };
	const struct ms_ledger_head *f = &m->head[0];

	for (size_t i = 0; i < m->o->nfiles && f->shards.n == 0; i++)
		f = &m->head[i];	/* the first shard's */
	if (all->n > 0) {
		/* one run of the whole, or (--partial) of the shards there are */
		h = *f;
		memset(&h.shards, 0, sizeof(h.shards));
		if (!ms_shard_set_complete(all))
			h.shards = *all;
		else if (!m->stamped)
			return;		/* -o of the whole has no bookkeeping */
	}
	h.has_stamp = m->stamped;
	h.stamp_ns = m->stamp;
	ms_ledger_head_write(fp, &h);
}

/* o->files are the shard manifests, one at least (main saw to it). */
int
ms_merge_main(const struct ms_options *o)
{
	struct merge m = { .o = o };
	struct ms_shard_set all, missing;
	struct ms_output out;
	int status = MS_EXIT_OK;
	char a[64];

	/* part records of one file, not shard manifests (part.c) */
	if (ms_part_is_record(o->files[0]))
		return ms_part_merge(o);
	if (o->sel_given && ms_selection_load(&o->sel) == -1)
		return MS_EXIT_USAGE;
	m.head = ms_xcalloc(o->nfiles, sizeof(*m.head));
	m.unread = ms_xcalloc(o->nfiles, sizeof(*m.unread));
	m.unfinished = ms_xcalloc(o->nfiles, sizeof(*m.unfinished));
	for (size_t i = 0; i < o->nfiles; i++)
		read_input(&m, i);
	check_entries(&m);
	check_set(&m, &all);
	if (all.n > 0 && !ms_shard_set_complete(&all)) {
		ms_shard_set_missing(&all, &missing);
		ms_warn("missing shard%s: %s%s", missing.cnt == 1 &&
		    missing.r[0].lo == missing.r[0].hi ? "" : "s",
		    set_text(&missing, a, sizeof(a)), o->partial ?
		    " (the merged manifest is partial, and says so)" :
		    " (--partial merges the others)");
		if (!o->partial)
			m.failed++;
		/* a shard not read may be the one missing: read it next time */
		if (!o->partial && m.unreadable > 0)
			m.unreadable++;
		ms_shard_set_free(&missing);
	}
	if (m.cnt > 1)
		qsort(m.it, m.cnt, sizeof(*m.it), by_walk_order);
	/* The same name twice: the same lines, or a conflict. */
	for (size_t i = 1, keep = 0; i < m.cnt; i++) {
		struct item *a = &m.it[keep], *b = &m.it[i];

		if (strcmp(a->name, b->name) != 0) {
			keep = i;
			continue;
		}
		if (a->len != b->len || memcmp(a->text, b->text, a->len) != 0) {
			ms_warn("%s: conflicting entries in %s and %s",
			    ms_quotef(b->name), o->files[a->input],
			    o->files[b->input]);
			m.failed++;
		}
		free(b->text);
		b->text = NULL;		/* printed once */
	}
	if (m.failed > 0) {
		/* a shard not read may be read next time; the others will not */
		ms_outcome_note(m.failed > m.unreadable ? MS_OUTCOME_FAIL :
		    MS_OUTCOME_RETRY);
		if (o->output != NULL)
			ms_warn("%s: not written", o->output);
		status = MS_EXIT_FAIL;
	} else if (ms_output_open(&out, o->output) == -1) {
		status = MS_EXIT_FAIL;
	} else if (o->signing.sign != NULL &&
	    ms_sign_prepare(&o->signing, &out) == -1) {
		/* --sign: the merged manifest is written signed or not at all */
		ms_output_close(&out, false);
		ms_warn("%s: not written", o->output);
		status = MS_EXIT_FAIL;
	} else {
		write_head(&m, out.fp, &all);
		for (size_t i = 0; i < m.cnt; i++) {
			if (m.it[i].text == NULL)
				continue;
			if (m.stamped && m.it[i].stat != NULL)
				fputs(m.it[i].stat, out.fp);
			fwrite(m.it[i].text, 1, m.it[i].len, out.fp);
		}
		if (ms_output_close(&out, true) == -1)
			status = MS_EXIT_FAIL;
	}
	for (size_t i = 0; i < m.cnt; i++) {
		free(m.it[i].name);
		free(m.it[i].stat);
		free(m.it[i].text);
	}
	free(m.it);
	for (size_t i = 0; i < o->nfiles; i++)
		ms_ledger_head_free(&m.head[i]);
	free(m.head);
	free(m.unread);
	free(m.unfinished);
	ms_shard_set_free(&all);
	return status;
}
