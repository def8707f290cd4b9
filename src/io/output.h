/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output.h - where results go: standard output, written in whole lines as
 * soon as they are ready (output_stdout.c), or a manifest file replaced
 * atomically (-o, output.c).
 */
#ifndef MS_OUTPUT_H
#define MS_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "base/util.h"

struct ms_stdout;

/*
 * A file written beside -o's manifest and replaced with it, both or
 * neither (the signature of --sign): PATH+suffix, made from the
 * manifest's bytes as written.
 */
struct ms_output_companion {
	const char	*suffix;	/* ".minisig" */
	const char	*what;		/* "signature", for messages */
	/* Its bytes (malloc) from the manifest's; NULL after a message. */
	char		*(*make)(void *arg, const char *list, size_t len,
			    size_t *outlen);
	/* May an existing file that begins with head be replaced? */
	bool		 (*replaceable)(const char *head, size_t len);
	void		 (*release)(void *arg);	/* at ms_output_close */
	void		*arg;
};

struct ms_output {
	FILE		*fp;		/* where lines are formatted */
	/*
	 * Or here, complete lines without a FILE (ms_format_result_bytes),
	 * a result's lines in one or the other, before its ms_output_lines.
	 */
	struct ms_bytes	 lines;
	/* standard output: fp is its writer's memory stream (output_stdout.c) */
	struct ms_stdout *so;
	const char	*path;		/* -o FILE, or NULL for stdout */
	char		*target;	/* the file replaced: path, links followed */
	char		*tmp;		/* the temporary beside it */
	bool		 exists;	/* target existed: its identity below */
	dev_t		 dev;
	ino_t		 ino;
	mode_t		 mode;		/* kept by the new manifest */
	uid_t		 uid;
	gid_t		 gid;
	dev_t		 tmp_dev;
	ino_t		 tmp_ino;
	dev_t		 dir_dev;	/* the directory both are in */
	ino_t		 dir_ino;
	/* the companion, if any: its target, identity and mode */
	const struct ms_output_companion *comp;
	char		*comp_target;
	bool		 comp_exists;
	dev_t		 comp_dev;
	ino_t		 comp_ino;
	mode_t		 comp_mode;
};

/*
 * Open path for writing (NULL: standard output); -1 after a message.
 * An existing path must be a regular file that reads as a checksum
 * manifest (its first lines parse as manifest lines, or it is empty):
 * -o never replaces anything else.  A symbolic link is followed: its
 * target is replaced, with its mode.  Until ms_output_close, a fatal
 * signal removes the temporary file.
 */
int	 ms_output_open(struct ms_output *out, const char *path);

/*
 * Is name (a directory entry) the temporary of a target whose base name
 * is base: ".BASE.multisum-XXXXXX"?  (--per-dir skips them in each folder.)
 */
bool	 ms_output_is_temp_of(const char *name, const char *base);

/*
 * The same for a manifest the caller has read as one (--update's
 * ledger): it is replaced without judging its first lines.
 */
int	 ms_output_replace(struct ms_output *out, const char *path);

/*
 * -o only: replace the target now, atomically and durably (synced, the
 * rename too), with what out holds so far followed by what more writes,
 * and go on: a run killed later leaves this file (--update's checkpoint).
 * -1 after a message; the target is then as it was.
 */
int	 ms_output_checkpoint(struct ms_output *out,
	    int (*more)(FILE *fp, void *arg), void *arg);

/*
 * Call after each result's lines, in fp or in lines (on the thread that
 * formats them): they
 * are written now, on a terminal, a pipe or a file alike, but for results
 * that come faster than one a millisecond, which are gathered and written
 * within a millisecond.  Every write ends at a line end and, into a pipe
 * or terminal, holds at most PIPE_BUF bytes (a longer line goes alone), so
 * that runs sharing a pipe never mangle each other's lines.  No-op for -o,
 * whose lines wait in the temporary file for ms_output_close.
 */
void	 ms_output_lines(struct ms_output *out);

/*
 * For a mode that prints with stdio instead (--xattr): into a pipe, one
 * write a line, so that runs sharing the pipe never mangle each other's
 * lines either.  Call before the first line.
 */
void	 ms_output_stdio_lines(void);

/* Write what standard output holds now (before a message on stderr). */
void	 ms_output_flush(struct ms_output *out);

/*
 * Write c's file with -o's manifest (opened with a path), replacing both
 * together at ms_output_close.  An existing file there must be regular
 * and replaceable by c.  -1 after a message (c is then not attached).
 */
int	 ms_output_companion(struct ms_output *out,
	    const struct ms_output_companion *c);

/*
 * Is st the file -o writes (the target, its companion or a temporary)?  Such a file is
 * never hashed into the manifest.  False without -o.
 */
bool	 ms_output_is_self(const struct ms_output *out, const struct stat *st);

/*
 * Finish: with commit, flush and (for -o) move the temporary over the
 * target; without, throw the temporary away so the target stays as it
 * was.  With a companion, its file is made from the manifest's bytes and
 * synced too, then renamed first and the manifest second, each rename
 * synced to the directory: mid-way, or after a crash there, a reader
 * sees the old manifest beside the new companion (a signature that does
 * not verify it: a check fails, it never passes the wrong list).
 * Returns -1 after a message if anything could not be written.
 */
int	 ms_output_close(struct ms_output *out, bool commit);

#endif
