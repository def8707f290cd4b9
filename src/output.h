/*
 * output.h - where results go: standard output, or a manifest file
 * replaced atomically (-o).
 */
#ifndef MS_OUTPUT_H
#define MS_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

struct ms_output {
	FILE		*fp;
	const char	*path;		/* -o FILE, or NULL for stdout */
	char		*tmp;		/* the temporary beside it */
};

/* Open path for writing (NULL: standard output); -1 after a message. */
int	 ms_output_open(struct ms_output *out, const char *path);

/*
 * Finish: with commit, flush and (for -o) move the temporary over the
 * target; without, throw the temporary away so the target stays as it
 * was.  Returns -1 after a message if anything could not be written.
 */
int	 ms_output_close(struct ms_output *out, bool commit);

#endif
