/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check.h - verify mode, shared by multisum -c and its faces (the
 * coreutils tools, b3sum), which differ only in how lines are read and
 * in the words of the report, as a struct ms_check_style names them.
 */
#ifndef MS_CHECK_H
#define MS_CHECK_H

#include <stdbool.h>

#include "manifest/manifest.h"
#include "modes/options.h"

/* How a verdict ("NAME: OK") names its file. */
enum ms_check_names {
	MS_CHECK_NAMES_NATIVE,	/* escaped whenever its line would be (\, newline, CR) */
	MS_CHECK_NAMES_NEWLINE,	/* coreutils 9.1: escaped only if it holds a newline */
	MS_CHECK_NAMES_AS_WRITTEN,	/* b3sum 1.2: as the line has it, its \ included */
};

struct ms_check_style {
	struct ms_manifest_rules rules;
	enum ms_check_names names;
	/* b3sum 1.2's words: a cause as io::Error says it (rust_text.h). */
	bool		 rust_words;
	/* b3sum 1.2: a file that cannot be read is "NAME: FAILED (CAUSE)"
	 * on standard output, with no warning. */
	bool		 inline_causes;
	/* b3sum 1.2: every bad line is said, as "PROG: REASON" (the
	 * parser's e->why), without the manifest's name or line number. */
	bool		 bare_reasons;
	/* b3sum 1.2: no closing warnings, and a manifest fails the run only
	 * if one of its lines did (a bad line too); an empty one passes. */
	bool		 no_summary;
	/* b3sum 1.2: a manifest that cannot be read, or a line at which the
	 * parser refuses the rest (st->refused), ends the run with "Error:
	 * CAUSE"; what came before it stands. */
	bool		 fatal_unreadable;
};

/*
 * Verify every manifest of o->files (standard input if none) through the
 * engine, reporting in manifest order.  Uses o->quiet, status, strict,
 * warn, ignore_missing, engine and archive.  Returns the exit status.
 */
int	 ms_check_run(const struct ms_options *o,
	    const struct ms_check_style *style);

/* multisum -c and --expect: ms_check_run (or --expect's one digest) in
 * multisum's native style. */
int	 ms_check_main(const struct ms_options *o);

/*
 * A check driven manifest by manifest (--per-dir, per_dir.c), in
 * multisum's native style: ms_check_begin, then ms_check_read for each
 * manifest and ms_check_note for each word of the caller's own, all
 * reported in the order they were given; ms_check_end returns the exit
 * status (1 also if failed).
 */
struct run;
struct ms_check_hooks {
	/* an entry, its name as listed: false drops it unopened */
	bool	(*entry)(void *arg, const char *name);
	void	(*comment)(void *arg, const char *line, size_t len);
	void	*arg;
};
struct run *ms_check_begin(const struct ms_options *o);
/* Verify the manifest at path, its names taken below prefix ("d/");
 * one that lists no file is no failure. */
void	 ms_check_read(struct run *r, const char *path, const char *prefix,
	    const struct ms_check_hooks *hooks);
/* "NAME: WHY" on standard output, unless --status. */
void	 ms_check_note(struct run *r, const char *name, const char *why);
int	 ms_check_end(struct run *r, bool failed);
/*
 * A list of the caller's own (names-are-digests stores, store.c): begun
 * under a name for the summary, each entry (walked: found by a walk, must
 * still be a regular file) verified in order, then ended.
 */
struct manifest;
struct manifest *ms_check_list_begin(struct run *r, const char *name);
void	 ms_check_list_entry(struct run *r, struct manifest *m,
	    const struct ms_manifest_entry *e, bool walked);
void	 ms_check_list_end(struct run *r, struct manifest *m);

#endif
