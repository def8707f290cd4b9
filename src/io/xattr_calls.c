/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xattr_calls.c - the extended attribute calls, and the words for their
 * failures.
 *
 * Owns fgetxattr/fsetxattr/fremovexattr/listxattr and nothing else: it
 * never decides what an attribute holds (manifest/shatag.c does) or
 * what a missing one means (the mode does).  Without <sys/xattr.h> every
 * call fails with ENOTSUP, which the modes report as a file system that
 * keeps no attributes.
 */
#include "io/xattr_calls.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_SYS_XATTR_H
#include <sys/xattr.h>
#endif

#include "base/util.h"

#ifndef ENOATTR
#define ENOATTR	ENODATA
#endif

ssize_t
ms_xattr_get(int fd, const char *name, char *buf, size_t cap)
{
#ifdef HAVE_SYS_XATTR_H
	return fgetxattr(fd, name, buf, cap);
#else
	(void)fd; (void)name; (void)buf; (void)cap;
	errno = ENOTSUP;
	return -1;
#endif
}

int
ms_xattr_set(int fd, const char *name, const char *value, size_t len)
{
#ifdef HAVE_SYS_XATTR_H
	return fsetxattr(fd, name, value, len, 0);
#else
	(void)fd; (void)name; (void)value; (void)len;
	errno = ENOTSUP;
	return -1;
#endif
}

int
ms_xattr_remove(int fd, const char *name)
{
#ifdef HAVE_SYS_XATTR_H
	if (fremovexattr(fd, name) == -1 && !ms_xattr_absent(errno))
		return -1;
	return 0;
#else
	(void)fd; (void)name;
	errno = ENOTSUP;
	return -1;
#endif
}

char *
ms_xattr_list(const char *path, size_t *len)
{
#ifdef HAVE_SYS_XATTR_H
	for (int tries = 0; tries < 4; tries++) {
		ssize_t n = listxattr(path, NULL, 0);
		char *buf;

		if (n == -1)
			return NULL;
		buf = ms_xmalloc((size_t)n + 1);
		/* The list may grow between the two calls: ask again. */
		n = n == 0 ? 0 : listxattr(path, buf, (size_t)n);
		if (n >= 0) {
			*len = (size_t)n;
			return buf;
		}
		free(buf);
		if (errno != ERANGE)
			return NULL;
	}
	errno = ERANGE;
	return NULL;
#else
	(void)path; (void)len;
	errno = ENOTSUP;
	return NULL;
#endif
}

bool
ms_xattr_absent(int err)
{
	return err == ENODATA || err == ENOATTR;
}

const char *
ms_xattr_cause(int err)
{
	switch (err) {
	case ENOTSUP:
#if EOPNOTSUPP != ENOTSUP
	case EOPNOTSUPP:
#endif
		return "the file system does not support user extended attributes";
	case ENOSPC:
	case E2BIG:
		return "no room for more extended attributes on this file "
		    "(its attribute space is full)";
	case EDQUOT:
		return "disk quota exceeded: the attribute was not stored";
	case EROFS:
		return "read-only file system";
	case EACCES:
	case EPERM:
		return "permission denied (a read-only or immutable file)";
	default:
		return strerror(err);
	}
}
