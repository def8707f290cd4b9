/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output_int.h - what output.c asks of output_stdout.c, standard output's
 * writer; nothing else includes it.
 */
#ifndef MS_OUTPUT_INT_H
#define MS_OUTPUT_INT_H

#include "io/output.h"

/* Set out->so and out->fp for standard output; -1 after a message. */
int	 ms_stdout_open(struct ms_output *out);
/* ms_output_lines and ms_output_flush of standard output. */
void	 ms_stdout_lines(struct ms_stdout *so);
void	 ms_stdout_flush(struct ms_stdout *so);
/* Write the rest, stop the writer, free so; -1 after a write error. */
int	 ms_stdout_close(struct ms_stdout *so);

#endif
