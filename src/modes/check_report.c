/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_report.c - the words of check mode: a verdict per entry ("NAME:
 * OK", "FAILED"), a word per bad or unverifiable line and the closing
 * warnings per manifest, in the style of the face that runs (multisum,
 * coreutils 9.1, b3sum 1.2: struct ms_check_style), and the exit status
 * they add up to.
 *
 * Owns that wording and the counting behind it.  It is handed one record
 * at a time, in manifest order, by check.c's queue; it never reads a
 * manifest or a file.  Explaining how an algorithm was chosen is
 * check_explain.c's.
 */
#include "modes/check_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modes/check_explain.h"
#include "io/output.h"
#include "io/text_input.h"
#include "manifest/format.h"
#include "base/exit_status.h"
#include "base/quote.h"
#include "base/rust_text.h"
#include "base/util.h"

/* A message on standard error, after what standard output holds. */
static __attribute__((format(printf, 2, 3))) void
say(struct run *r, const char *fmt, ...)
{
	va_list ap;

	ms_output_flush(&r->out);
	va_start(ap, fmt);
	ms_vwarn(fmt, ap);
	va_end(ap);
}

/* The text of an errno in the style's words. */
static const char *
cause(const struct run *r, int err)
{
	if (err < 0)
		return ms_explain_err(err);
	return r->style->rust_words ? ms_rust_os_error(err) : ms_strerror(err);
}

static void
print_name(const struct run *r, const struct rec *rec, const char *name)
{
	FILE *fp = r->out.fp;
	bool esc;

	switch (r->style->names) {
	case MS_CHECK_NAMES_AS_WRITTEN:
		/* b3sum's unescaping is undone exactly by its escaping */
		if (rec->escaped) {
			char *shown = ms_rust_lossy(name, true, NULL);

			fprintf(fp, "\\%s", shown);
			free(shown);
		} else {
			fputs(name, fp);
		}
		return;
	case MS_CHECK_NAMES_NEWLINE:
		esc = strchr(name, '\n') != NULL;
		break;
	case MS_CHECK_NAMES_NATIVE:
	default:
		esc = ms_name_needs_escape(name);
		break;
	}
	if (esc) {
		putc('\\', fp);
		ms_write_escaped(fp, name);
	} else {
		fputs(name, fp);
	}
}

static void
verdict(const struct run *r, const struct rec *rec, const char *what)
{
	print_name(r, rec, rec->task->path);
	fprintf(r->out.fp, ": %s\n", what);
}

/* An entry whose file could not be read, for the reason given. */
static void
unreadable(struct run *r, struct rec *rec, const char *why)
{
	rec->m->unreadable++;
	/* a file not there is an entry missing, a refusal (err < 0) is
	 * multisum's: a retry will not change them */
	ms_outcome_note(rec->task->err < 0 || rec->task->err == ENOENT ||
	    rec->task->err == EBUSY ? MS_OUTCOME_FAIL : MS_OUTCOME_RETRY);
	if (r->style->inline_causes) {
		char *what = ms_xasprintf("FAILED (%s)", why);

		verdict(r, rec, what);
		free(what);
		return;
	}
	say(r, "%s: %s", ms_quotef(rec->task->path), why);
	if (!r->o->status)
		verdict(r, rec, "FAILED open or read");
}

/* Does the file match every digest of the line? */
static bool
matches(const struct ms_task *t, const struct rec *rec)
{
	const unsigned char *want = rec->want;

	for (size_t i = 0; i < rec->n; i++) {
		const struct ms_digest_spec *s = &t->sel->spec[i];

		if (rec->len[i] > ms_spec_len(s) ||
		    memcmp(t->digest + t->sel->offset[i], want, rec->len[i]) != 0)
			return false;
		want += rec->len[i];
	}
	return rec->n > 0;
}

/* Once per manifest: the hint after a guessed FAILED, the note on a
 * non-cryptographic default (check_explain.c). */
static void
explain(struct run *r, struct manifest *m, const struct rec *rec, bool ok)
{
	struct ms_output *out = &r->out;
	const struct ms_task *t = rec->task;
	const char *mname = m->summary ? m->name : NULL;

	if (rec->n != 1)
		return;
	if (!ok && !m->hinted &&
	    ms_explain_hint(out, mname, &t->sel->spec[0], rec->how, m->tried))
		m->hinted = true;
	if (ok && !m->noted &&
	    ms_explain_note(out, mname, &t->sel->spec[0], rec->how))
		m->noted = true;
}

static void
report_entry(struct run *r, struct rec *rec)
{
	struct manifest *m = rec->m;
	struct ms_task *t = rec->task;
	const struct ms_options *o = r->o;
	bool ok;

	m->any_entry = true;
	if (rec->why != NULL && !m->pathed) {
		/* a Windows path: once a manifest, before its first entry */
		say(r, "%s: %s", ms_quotef(m->name), rec->why);
		m->pathed = true;
	}
	if (t->err == ENOENT && o->ignore_missing)
		return;
	/* a Release file's entry a partial mirror lacks: counted */
	if (t->err == ENOENT && rec->optional && !o->strict) {
		m->absent++;
		return;
	}
	if (t->err == EBUSY && strcmp(t->path, "-") == 0) {
		unreadable(r, rec, "standard input is read as a manifest: "
		    "not hashed");
		return;
	}
	if (t->err == ENOTSUP) {
		/* The backend did not load: said once, by sel_new. */
		m->unsupported++;
		ms_outcome_note(MS_OUTCOME_FAIL);
		say(r, "%s: %s: unsupported algorithm %s", ms_quotef(m->name),
		    ms_quotef(t->path), rec->task->sel->cnt ?
		    rec->task->sel->spec[0].algo->name : "of this build");
		return;
	}
	if (t->err < 0) {
		unreadable(r, rec, cause(r, t->err));
		return;
	}
	/* a guess that failed: its stand-ins (check_resolve.c) */
	ok = t->err == 0 && (matches(t, rec) || ms_check_resolve(r, rec)) &&
	    (!rec->has_size || t->size == rec->size);
	if (o->debug)
		ms_explain_debug(&r->out, rec->m->name, rec->line, t->path, t->sel,
		    rec->how);
	if (t->err != 0) {
		unreadable(r, rec, cause(r, t->err));
		return;
	}
	if (ok) {
		ms_check_matched(m, rec);
		m->matched = true;
		explain(r, m, rec, true);
		if (!o->status && !o->quiet)
			verdict(r, rec, "OK");
	} else {
		m->mismatched++;
		ms_outcome_note(MS_OUTCOME_FAIL);
		if (!o->status)
			verdict(r, rec, "FAILED");
		if (!o->status)
			explain(r, m, rec, false);
	}
}

static const char *
plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The end of the run at a fatal error (style->fatal_unreadable). */
static void
stop(struct run *r, const char *why)
{
	ms_output_flush(&r->out);
	fprintf(stderr, "Error: %s\n", why);
	r->failed = r->stopped = true;
}

/* A manifest that could not be opened or read to its end. */
static void
manifest_unreadable(struct run *r, struct manifest *m)
{
	const char *name = ms_quotef(m->name);

	int err = m->open_err != 0 ? m->open_err : m->read_errno;

	r->failed = true;
	/* damaged compressed data is no read to retry (text_input.h) */
	ms_outcome_note(err != 0 ? ms_text_outcome(err) : MS_OUTCOME_RETRY);
	if (r->style->fatal_unreadable)
		stop(r, cause(r, m->open_err != 0 ? m->open_err :
		    m->read_cause != 0 ? m->read_cause : EIO));
	else if (err != 0)
		say(r, "%s: %s", name, ms_text_strerror(err));
	else
		say(r, "%s: read error", name);
}

/* coreutils' closing warnings, once per manifest. */
static void
summary(struct run *r, const struct manifest *m)
{
	if (m->bad != 0)
		say(r, "WARNING: %zu %s improperly formatted", m->bad,
		    plural(m->bad, "line is", "lines are"));
	if (m->unreadable != 0)
		say(r, "WARNING: %zu listed %s could not be read",
		    m->unreadable, plural(m->unreadable, "file", "files"));
	if (m->mismatched != 0)
		say(r, "WARNING: %zu computed %s did NOT match",
		    m->mismatched,
		    plural(m->mismatched, "checksum", "checksums"));
	if (m->unsupported != 0)
		say(r, "WARNING: %zu %s not verified",
		    m->unsupported, plural(m->unsupported, "line was",
		    "lines were"));
	if (m->outside != 0)
		say(r, "WARNING: %zu %s outside the signed part, not verified",
		    m->outside, plural(m->outside, "line is", "lines are"));
	if (m->absent != 0)
		say(r, "%s: %zu listed %s absent (a partial mirror?): not "
		    "verified", ms_quotef(m->name), m->absent,
		    plural(m->absent, "file is", "files are"));
	if (r->o->ignore_missing && !m->matched)
		say(r, "%s: no file was verified", ms_quotef(m->name));
}

/* The end of a manifest: coreutils' closing warnings and verdict. */
static void
report_end(struct run *r, struct manifest *m)
{
	const struct ms_options *o = r->o;
	bool line_failed = m->mismatched != 0 || m->unreadable != 0 ||
	    m->unsupported != 0 || m->outside != 0 || m->late_pgp;

	if (m->refused) {
		r->failed = true;	/* its REC_SIGNATURE said why */
		ms_outcome_note(MS_OUTCOME_SIGNATURE);
		return;
	}
	if (m->open_err != 0 || m->read_err) {
		manifest_unreadable(r, m);
		return;
	}
	if (r->style->no_summary) {
		if (line_failed || m->bad != 0)
			r->failed = true;
		return;
	}
	if (!m->any_entry && m->empty_ok)
		return;
	if (!m->any_entry && m->unsupported == 0 && m->outside == 0) {
		if (m->summary)
			say(r, "%s: no properly formatted checksum lines found",
			    ms_quotef(m->name));
		r->failed = true;
		ms_outcome_note(MS_OUTCOME_FAIL);
		return;
	}
	if (!o->status && m->summary)
		summary(r, m);
	/* A line not verified (unsupported, unsigned) fails the run. */
	if (!m->matched || line_failed || (o->strict && m->bad != 0))
		r->failed = true;
	if (m->outside != 0 || m->late_pgp)
		ms_outcome_note(MS_OUTCOME_SIGNATURE);
	if ((o->strict && m->bad != 0) || (!m->matched &&
	    m->unreadable == 0 && m->outside == 0))
		ms_outcome_note(MS_OUTCOME_FAIL);
}

static void
report_bad(struct run *r, struct rec *rec)
{
	rec->m->bad++;
	if (r->style->bare_reasons && rec->why != NULL)
		say(r, "%s", rec->why);
	else if (rec->why != NULL)
		say(r, "%s: %lu: %s", ms_quotef(rec->m->name), rec->line, rec->why);
	else if (r->o->warn)
		say(r, "%s: %lu: improperly formatted %s%schecksum line",
		    ms_quotef(rec->m->name), rec->line,
		    rec->type ? rec->type : "", rec->type ? " " : "");
}

static void
say_record(struct run *r, struct rec *rec)
{
	switch (rec->kind) {
	case REC_ENTRY:
		report_entry(r, rec);
		break;
	case REC_BAD:
		report_bad(r, rec);
		break;
	case REC_UNSUPPORTED:
		rec->m->unsupported++;
		rec->m->any_entry = true;
		say(r, "%s: %lu: %s: not verified: %s", ms_quotef(rec->m->name),
		    rec->line, ms_quotef(rec->name), rec->why);
		break;
	case REC_OUTSIDE:
		rec->m->outside++;
		say(r, "%s: %lu: outside the signed part of the PGP message: "
		    "not verified", ms_quotef(rec->m->name), rec->line);
		break;
	case REC_STOP:
		stop(r, rec->why);
		break;
	case REC_LATE_PGP:
		rec->m->late_pgp = true;
		say(r, "%s: %lu: a PGP signed message begins after lines already "
		    "verified as unsigned: they are not covered by its "
		    "signature", ms_quotef(rec->m->name), rec->line);
		break;
	case REC_SIGNATURE:
		say(r, "%s", rec->why);
		break;
	case REC_END:
		report_end(r, rec->m);
		break;
	case REC_NOTE:
		if (!r->o->status) {
			print_name(r, rec, rec->name);
			fprintf(r->out.fp, ": %s\n", rec->why);
		}
		break;
	}
}

void
ms_check_report(struct run *r, struct rec *rec)
{
	/* after a fatal error, nothing more is said */
	if (!r->stopped)
		say_record(r, rec);
	if (rec->kind == REC_ENTRY && rec->probe)
		rec->m->probing = false;	/* its list goes on */
	ms_output_lines(&r->out);	/* as soon as it and every earlier one */
	if (rec->kind == REC_ENTRY)
		ms_task_free(rec->task);
	if (rec->kind == REC_END) {
		free(rec->m->root);
		free(rec->m);
	}
}
