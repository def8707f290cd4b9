/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output_int.h - what the files of io/output share: output.c asks
 * output_stdout.c, standard output's writer, and output_temp.c, the
 * temporaries beside an -o target; nothing else includes it.
 */
#ifndef MS_OUTPUT_INT_H
#define MS_OUTPUT_INT_H

#include "io/output.h"

/* Set out->so and out->fp for standard output; -1 after a message. */
int	 ms_stdout_open(struct ms_output *out);
/* ms_output_lines and ms_output_flush of standard output: lines holds
 * the result's lines if it was not formatted into the stream; emptied. */
void	 ms_stdout_lines(struct ms_stdout *so, struct ms_bytes *lines);
void	 ms_stdout_flush(struct ms_stdout *so);
/* Write the rest, stop the writer, free so; -1 after a write error. */
int	 ms_stdout_close(struct ms_stdout *so);

/* The mkstemp template of a temporary beside target (malloc). */
char	*ms_output_temp_name(const char *target);

/*
 * mkstemp(tmpl), the new file locked for as long as it is open, so that
 * no other run takes it for a dead one's; -1 with errno.
 */
int	 ms_output_temp_create(char *tmpl);

/*
 * Remove the temporaries runs killed outright left beside target, each
 * said on standard error (output_temp.c says which are let be).
 * manifest(fd, path, whole) judges a file's first lines (output.c's
 * judgement: passed, not called, so that no cycle binds the two files);
 * whole: a last line without its newline, a killed writer's, is not
 * judged.
 */
void	 ms_output_temp_sweep(const char *target,
	    bool (*manifest)(int fd, const char *path, bool whole));

#endif
