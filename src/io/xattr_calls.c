/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xattr_calls.c - the extended attribute calls, and the words for their
 * failures.
 *
 * Owns the system's attribute calls and nothing else: it never decides
 * what an attribute holds (manifest/shatag.c does) or what a missing one
 * means (the mode does).  Linux's calls (fgetxattr...), macOS's (the same
 * names with position and options arguments) and the BSDs' (extattr_*,
 * in the user namespace: "user.NAME" is NAME there) are the portable
 * shims of this layer, chosen by configure; without any of them every
 * call fails with ENOSYS and --xattr is refused before it starts.
 */
#include "io/xattr_calls.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if MS_XATTR_LINUX || MS_XATTR_MACOS
#include <sys/xattr.h>
#elif MS_XATTR_BSD
#include <sys/extattr.h>
#endif

#include "base/util.h"

#ifndef ENOATTR
#define ENOATTR	ENODATA
#endif
#ifndef ENODATA
#define ENODATA	ENOATTR
#endif

#if MS_XATTR_LINUX
#define GET(fd, n, b, c)	fgetxattr(fd, n, b, c)
#define SET(fd, n, v, l)	fsetxattr(fd, n, v, l, 0)
#define REMOVE(fd, n)		fremovexattr(fd, n)
#define LIST(path, b, c)	listxattr(path, b, c)
#elif MS_XATTR_MACOS
#define GET(fd, n, b, c)	fgetxattr(fd, n, b, c, 0, 0)
#define SET(fd, n, v, l)	fsetxattr(fd, n, v, l, 0, 0)
#define REMOVE(fd, n)		fremovexattr(fd, n, 0)
#define LIST(path, b, c)	listxattr(path, b, c, 0)
#elif MS_XATTR_BSD
#define USER	"user."
/* NAME of "user.NAME", or NULL (EINVAL) for another namespace. */
static const char *
user_name(const char *name)
{
	if (strncmp(name, USER, strlen(USER)) != 0) {
		errno = EINVAL;
		return NULL;
	}
	return name + strlen(USER);
}
static ssize_t
GET(int fd, const char *name, char *buf, size_t cap)
{
	const char *n = user_name(name);

	return n == NULL ? -1 :
	    extattr_get_fd(fd, EXTATTR_NAMESPACE_USER, n, buf, cap);
}
static int
SET(int fd, const char *name, const char *value, size_t len)
{
	const char *n = user_name(name);

	if (n == NULL)
		return -1;
	return extattr_set_fd(fd, EXTATTR_NAMESPACE_USER, n, value, len) ==
	    (ssize_t)len ? 0 : -1;
}
static int
REMOVE(int fd, const char *name)
{
	const char *n = user_name(name);

	return n == NULL ? -1 : extattr_delete_fd(fd, EXTATTR_NAMESPACE_USER, n);
}
/* extattr_list_file's names (a length byte before each) as Linux lists
 * them ("user.NAME", NUL after each); the size of that list with buf
 * NULL. */
static ssize_t
LIST(const char *path, char *buf, size_t cap)
{
	ssize_t n = extattr_list_file(path, EXTATTR_NAMESPACE_USER, NULL, 0);
	unsigned char *raw;
	size_t out = 0;

	if (n <= 0)
		return n;
	raw = ms_xmalloc((size_t)n);
	n = extattr_list_file(path, EXTATTR_NAMESPACE_USER, raw, (size_t)n);
	for (ssize_t i = 0; n > 0 && i < n; i += 1 + raw[i]) {
		size_t l = raw[i];

		if (buf != NULL && out + strlen(USER) + l + 1 > cap) {
			free(raw);
			errno = ERANGE;
			return -1;
		}
		if (buf != NULL) {
			memcpy(buf + out, USER, strlen(USER));
			memcpy(buf + out + strlen(USER), raw + i + 1, l);
			buf[out + strlen(USER) + l] = '\0';
		}
		out += strlen(USER) + l + 1;
	}
	free(raw);
	return n < 0 ? -1 : (ssize_t)out;
}
#endif

bool
ms_xattr_supported(void)
{
	return MS_XATTR_LINUX || MS_XATTR_MACOS || MS_XATTR_BSD;
}

#if MS_XATTR_LINUX || MS_XATTR_MACOS || MS_XATTR_BSD
ssize_t
ms_xattr_get(int fd, const char *name, char *buf, size_t cap)
{
	return GET(fd, name, buf, cap);
}

int
ms_xattr_set(int fd, const char *name, const char *value, size_t len)
{
	return SET(fd, name, value, len);
}

int
ms_xattr_remove(int fd, const char *name)
{
	if (REMOVE(fd, name) == -1 && !ms_xattr_absent(errno))
		return -1;
	return 0;
}

char *
ms_xattr_list(const char *path, size_t *len)
{
	for (int tries = 0; tries < 4; tries++) {
		ssize_t n = LIST(path, NULL, 0);
		char *buf;

		if (n == -1)
			return NULL;
		buf = ms_xmalloc((size_t)n + 1);
		/* The list may grow between the two calls: ask again. */
		n = n == 0 ? 0 : LIST(path, buf, (size_t)n);
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
}
#else
ssize_t
ms_xattr_get(int fd, const char *name, char *buf, size_t cap)
{
	(void)fd; (void)name; (void)buf; (void)cap;
	errno = ENOSYS;
	return -1;
}

int
ms_xattr_set(int fd, const char *name, const char *value, size_t len)
{
	(void)fd; (void)name; (void)value; (void)len;
	errno = ENOSYS;
	return -1;
}

int
ms_xattr_remove(int fd, const char *name)
{
	(void)fd; (void)name;
	errno = ENOSYS;
	return -1;
}

char *
ms_xattr_list(const char *path, size_t *len)
{
	(void)path; (void)len;
	errno = ENOSYS;
	return NULL;
}
#endif

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
	case ENOSYS:
		return MS_XATTR_UNSUPPORTED;
	case EACCES:
	case EPERM:
		return "permission denied (a read-only or immutable file)";
	default:
		return strerror(err);
	}
}
