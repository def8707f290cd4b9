/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xattr_calls.h - a file's extended attributes: read, written, removed,
 * listed, through an open descriptor, and what a failure means in words.
 */
#ifndef MS_XATTR_CALLS_H
#define MS_XATTR_CALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * The value of attribute name into buf (at most cap bytes): its length,
 * or -1 with errno (ENODATA: the file has no such attribute; ENOTSUP:
 * the file system keeps none; ENOSYS: the system has no such calls).
 */
ssize_t	 ms_xattr_get(int fd, const char *name, char *buf, size_t cap);

/* Set name to len bytes of value; -1 with errno. */
int	 ms_xattr_set(int fd, const char *name, const char *value, size_t len);

/* Remove name; an attribute that is not there is no error. */
int	 ms_xattr_remove(int fd, const char *name);

/*
 * The names of path's attributes, NUL after each, in a buffer of *len
 * bytes to free; NULL with errno (no attribute at all is an empty list).
 */
char	*ms_xattr_list(const char *path, size_t *len);

/* Has this system any attribute calls configure knew?  Without them
 * every call above fails with ENOSYS, whose words are these: */
bool	 ms_xattr_supported(void);
#define MS_XATTR_UNSUPPORTED \
	"extended attributes are not supported on this system"

/* Is err the "no such attribute" of a file that has others or none? */
bool	 ms_xattr_absent(int err);

/*
 * A failure of the calls above in words that say what it is, never
 * corruption: "the file system does not support user extended
 * attributes", "no room for more extended attributes", "read-only file
 * system", "permission denied (a read-only or immutable file)"; else
 * strerror(err).
 */
const char *ms_xattr_cause(int err);

#endif
