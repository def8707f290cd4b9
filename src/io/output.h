/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output.h - where results go: standard output, written in whole lines,
 * or a manifest file replaced atomically (-o).
 */
#ifndef MS_OUTPUT_H
#define MS_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

struct ms_output {
	FILE		*fp;		/* where lines are formatted */
	/* standard output: fp is a memory stream, written in whole lines */
	char		*mem;
	size_t		 memlen;
	size_t		 batch;		/* bytes gathered before a write */
	size_t		 most;		/* the most one write may carry */
	bool		 tty;		/* every line at once */
	bool		 failed;	/* a write failed: the rest is dropped */
	int		 err;
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
 * Call after each result's lines: on a terminal they are written now; into
 * a pipe, file or device they are gathered and written in batches.  Every
 * write ends at a line end and, into a pipe, socket or terminal, holds at
 * most PIPE_BUF bytes (a longer line goes alone), so that runs sharing a
 * pipe never mangle each other's lines.  No-op for -o.
 */
void	 ms_output_lines(struct ms_output *out);

/*
 * For modes that print with stdio (-c): into a pipe, one write a line,
 * so that runs sharing the pipe never mangle each other's lines either.
 * Call before the first line.
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
