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

struct ms_stdout;

struct ms_output {
	FILE		*fp;		/* where lines are formatted */
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
 * Call after each result's lines (on the thread that formats them): they
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
 * Is st the file -o writes (the target or its temporary)?  Such a file is
 * never hashed into the manifest.  False without -o.
 */
bool	 ms_output_is_self(const struct ms_output *out, const struct stat *st);

/*
 * Finish: with commit, flush and (for -o) move the temporary over the
 * target; without, throw the temporary away so the target stays as it
 * was.  Returns -1 after a message if anything could not be written.
 */
int	 ms_output_close(struct ms_output *out, bool commit);

#endif
