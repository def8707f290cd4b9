/*
 * output.c - the destination of result lines.
 *
 * Owns the big stdio buffer of standard output, the detection of write
 * errors (a full disk, a closed pipe, /dev/full), and the atomic
 * replacement of an -o manifest: lines go to a temporary file in the
 * same directory, which is synced and renamed over the target only when
 * everything was written.  On any failure the target is left untouched.
 */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static char outbuf[1 << 16];

int
ms_output_open(struct ms_output *out, const char *path)
{
	memset(out, 0, sizeof(*out));
	out->path = path;
	if (path == NULL) {
		out->fp = stdout;
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
		return 0;
	}
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	int fd;
	mode_t mask;

	out->tmp = ms_xasprintf("%.*s.%s.XXXXXX", dirlen, path,
	    slash ? slash + 1 : path);
	fd = mkstemp(out->tmp);
	if (fd == -1) {
		ms_warn("%s: %s", path, strerror(errno));
		free(out->tmp);
		out->tmp = NULL;
		return -1;
	}
	/* mkstemp makes 0600; a manifest is as public as a new file. */
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	out->fp = fdopen(fd, "w");
	if (out->fp == NULL) {
		ms_warn("%s: %s", path, strerror(errno));
		close(fd);
		unlink(out->tmp);
		free(out->tmp);
		out->tmp = NULL;
		return -1;
	}
	return 0;
}

int
ms_output_close(struct ms_output *out, bool commit)
{
	int rc = 0;

	if (out->path == NULL) {
		if (fflush(stdout) == EOF || ferror(stdout)) {
			ms_warn("write error: %s", strerror(errno ? errno : EIO));
			rc = -1;
		}
		return rc;
	}
	if (commit && (fflush(out->fp) == EOF || ferror(out->fp) ||
	    fsync(fileno(out->fp)) == -1)) {
		ms_warn("%s: write error: %s", out->path, strerror(errno));
		commit = false;
		rc = -1;
	}
	if (fclose(out->fp) == EOF && commit) {
		ms_warn("%s: write error: %s", out->path, strerror(errno));
		commit = false;
		rc = -1;
	}
	if (commit && rename(out->tmp, out->path) == -1) {
		ms_warn("%s: %s", out->path, strerror(errno));
		commit = false;
		rc = -1;
	}
	if (!commit)
		unlink(out->tmp);
	free(out->tmp);
	out->tmp = NULL;
	return rc;
}
