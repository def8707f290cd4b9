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
	FILE		*fp;
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
