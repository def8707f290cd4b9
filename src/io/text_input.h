/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text_input.h - a text file (a manifest) opened for reading as UTF-8,
 * whatever Windows wrote it in.
 */
#ifndef MS_TEXT_INPUT_H
#define MS_TEXT_INPUT_H

#include "base/exit_status.h"

#include <stdio.h>

#include "manifest/lines.h"

/*
 * Open path ("-": standard input) for reading.  A file that opens with a
 * UTF-16 byte order mark (LE or BE, as PowerShell's ">" and Out-File
 * write), or with an ASCII character and a NUL (UTF-16 without a mark),
 * reads as UTF-8 without the mark; anything else reads as it is.
 * A UTF-16 file cut to an odd number of bytes is said on standard error.
 * Returns NULL with errno set: EISDIR for a directory, as coreutils says.
 * *encoding is "UTF-16LE", "UTF-16BE" or NULL.
 */
FILE	*ms_text_open(const char *path, const char **encoding);

/*
 * The same for a stream already open (a list read into memory, opened
 * with fmemopen): fp itself, or a stream decoding it that closes it.
 * NULL with errno set, fp then closed.
 */
FILE	*ms_text_stream(FILE *fp, const char **encoding);

/*
 * getdelim(3) on a list opened here, with a bound: a line (delimiter
 * kept) of over MS_LINE_MAX bytes is no manifest's, and is -1 with
 * errno EFBIG (say it with ms_text_strerror) rather than all the memory
 * there is (-c /dev/zero).  -1 at the end, or with errno on a read
 * error, as getdelim.
 */
ssize_t	 ms_text_getdelim(char **line, size_t *cap, int delim, FILE *fp);

/*
 * Close what ms_text_open returned; standard input stays open, its
 * end-of-file cleared.  Returns -1 with errno set if closing failed.
 */
int	 ms_text_close(FILE *fp);

/*
 * The door: path opened as ms_text_open opens it, into in, whose blocks
 * the manifest layer pulls (lines.h) and which it closes.  in->pull_at
 * is set for a regular file read as it is.  -1 with errno.
 */
int	 ms_text_input(struct ms_manifest_input *in, const char *path);

/* The same for a stream already open (a list in memory, fmemopen), as
 * ms_text_stream decodes it, named name; in closes it.  -1 with errno,
 * fp then closed. */
int	 ms_text_input_stream(struct ms_manifest_input *in, const char *name,
	    FILE *fp);

/* Why a list read through the door failed (errno err), for a message. */
const char *ms_text_strerror(int err);
/* The class of a list that could not be read, for the exit status: no
 * manifest (a line over the cap, a set over --memory, damaged compressed
 * data) is a failure, any other error a read to retry. */
enum ms_outcome	ms_text_outcome(int err);

#endif
