/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_text.c - the text and file helpers every signature format
 * shares: lines of a buffer, the "untrusted comment" block that signify
 * and minisign begin their files with, key ids as minisign prints them,
 * reading a whole file once.
 *
 * Pure but for ms_file_read; knows no format beyond that block.
 */
#include "signature/signature_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

bool
ms_text_line(const char *buf, size_t len, size_t *at, struct ms_line_view *l)
{
	const char *p = buf + *at, *nl;
	size_t rest;

	if (*at >= len)
		return false;
	rest = len - *at;
	nl = memchr(p, '\n', rest);
	l->p = p;
	l->len = nl != NULL ? (size_t)(nl - p) : rest;
	l->newline = nl != NULL;
	*at += l->len + (nl != NULL);
	if (l->len > 0 && p[l->len - 1] == '\r')
		l->len--;
	return true;
}

long
ms_block_parse(const char *buf, size_t len, unsigned char *out, size_t n,
    const char **why)
{
	size_t at = 0, plen = strlen(MS_COMMENT_PREFIX);
	struct ms_line_view comment, b64;

	if (!ms_text_line(buf, len, &at, &comment) || !comment.newline ||
	    comment.len < plen || memcmp(comment.p, MS_COMMENT_PREFIX, plen) != 0) {
		*why = "its first line is not an \"untrusted comment:\"";
		return -1;
	}
	if (!ms_text_line(buf, len, &at, &b64)) {
		*why = "it ends after its comment line";
		return -1;
	}
	if (ms_unbase64(out, n, b64.p, b64.len) != (long)n) {
		*why = "its second line is not base64 of the right length";
		return -1;
	}
	return (long)at;
}

void
ms_keynum_text(char out[2 * MS_KEYNUM + 1], const unsigned char keynum[MS_KEYNUM])
{
	static const char digits[] = "0123456789ABCDEF";

	/* minisign prints le64_load(keynum) with %016" PRIX64. */
	for (size_t i = 0; i < MS_KEYNUM; i++) {
		unsigned char b = keynum[MS_KEYNUM - 1 - i];

		out[2 * i] = digits[b >> 4];
		out[2 * i + 1] = digits[b & 15];
	}
	out[2 * MS_KEYNUM] = '\0';
}

int
ms_file_read(const char *path, size_t cap, char **buf, size_t *len)
{
	bool is_stdin = strcmp(path, "-") == 0;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	size_t size = 0, room = 8192;
	struct stat st;
	char *p;
	int err = 0;

	*buf = NULL;
	*len = 0;
	if (fd == -1)
		return -1;
	/* a regular file is read into one buffer of its size */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uintmax_t)st.st_size < cap)
		room = (size_t)st.st_size + 1;
	p = ms_xmalloc(room + 1);
	for (;;) {
		ssize_t n;

		if (size == room) {
			if (room >= cap) {
				err = EFBIG;
				break;
			}
			room = room * 2 < cap ? room * 2 : cap;
			p = ms_xrealloc(p, room + 1);
		}
		n = read(fd, p + size, room - size);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			err = errno;
			break;
		}
		if (n == 0)
			break;
		size += (size_t)n;
	}
	if (!is_stdin)
		close(fd);
	p[size] = '\0';
	*buf = p;
	*len = size;
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}

void
ms_printable(char *out, size_t cap, const char *text, size_t len)
{
	size_t i;

	if (cap == 0)
		return;
	for (i = 0; i < len && i + 1 < cap; i++) {
		unsigned char c = (unsigned char)text[i];

		out[i] = (c < 0x20 && c != '\t') || c == 0x7f ? '?' : (char)c;
	}
	out[i] = '\0';
}
