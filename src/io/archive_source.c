/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * archive_source.c - members of an archive as sources.
 *
 * Owns the lazy load of libarchive: it links some fifteen libraries
 * (libxml2, ICU, nettle, ...) whose start-up cost no run should pay
 * unless it opens an archive.  Members are read in archive order, in
 * one pass; any format and compression libarchive reads will do.  A
 * compressed list (Debian's Packages.gz, Packages.xz) is read through
 * it too, as the stream of its bytes decompressed.
 */
#include "io/archive_source.h"

#include <archive.h>
#include <archive_entry.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/lazylib.h"
#include "base/exit_status.h"
#include "base/portable.h"
#include "base/util.h"

/* The libarchive functions this file calls, resolved on first use. */
#define LA_FUNCS(X, t) \
	X(t, archive_read_new) X(t, archive_read_support_filter_all) \
	X(t, archive_read_support_format_all) \
	X(t, archive_read_open_filename) X(t, archive_read_next_header) \
	X(t, archive_read_data) X(t, archive_read_free) \
	X(t, archive_error_string) X(t, archive_errno) \
	X(t, archive_version_string) X(t, archive_entry_pathname) \
	X(t, archive_entry_filetype) X(t, archive_entry_hardlink) \
	X(t, archive_read_support_format_raw)
MS_LAZY_LIB(libarchive, MS_SONAME_ARCHIVE, la, LA_FUNCS);

struct ms_archive {
	struct archive	*a;
	const char	*path;
};

static const char *
why(struct archive *a)
{
	const char *s = la.archive_error_string(a);

	return s ? s : "unreadable archive";
}

/* A foreign or damaged archive reads no better next time (1); the
 * system's error may pass (3). */
static void
note_failure(struct archive *a)
{
	int e = la.archive_errno(a);

	ms_outcome_note(e > 0 && e != EILSEQ && e != EINVAL ?
	    MS_OUTCOME_RETRY : MS_OUTCOME_FAIL);
}

struct ms_archive *
ms_archive_open(const char *path)
{
	struct ms_archive *ar;

	if (ms_lazy_load(&libarchive) == -1)
		return NULL;
	ar = ms_xcalloc(1, sizeof(*ar));
	ar->path = path;
	ar->a = la.archive_read_new();
	if (ar->a == NULL)
		ms_die("%s", strerror(ENOMEM));
	la.archive_read_support_filter_all(ar->a);
	la.archive_read_support_format_all(ar->a);
	if (la.archive_read_open_filename(ar->a,
	    strcmp(path, "-") == 0 ? NULL : path, 1 << 16) != ARCHIVE_OK) {
		int e = la.archive_errno(ar->a);

		/* "Failed to open 'x.tar'" says nothing the name does not */
		ms_warn("%s: %s", path, e > 0 ? strerror(e) : why(ar->a));
		note_failure(ar->a);
		ms_archive_close(ar);
		return NULL;
	}
	return ar;
}

static ssize_t
member_read(void *arg, void *buf, size_t cap)
{
	struct ms_archive *ar = arg;
	la_ssize_t n = la.archive_read_data(ar->a, buf, cap);

	if (n < 0) {
		int e = la.archive_errno(ar->a);
		errno = e > 0 ? e : EIO;
		return -1;
	}
	return (ssize_t)n;
}

/* A member path without its leading "./"s. */
static const char *
member_name(const char *n)
{
	while (n != NULL && n[0] == '.' && n[1] == '/')
		n += 2;
	return n;
}

int
ms_archive_next(struct ms_archive *ar, const char **name, const char **link,
    struct ms_source *src)
{
	struct archive_entry *ent;
	int rc;

	while ((rc = la.archive_read_next_header(ar->a, &ent)) == ARCHIVE_OK ||
	    rc == ARCHIVE_WARN) {
		const char *n = member_name(la.archive_entry_pathname(ent));
		const char *target = member_name(la.archive_entry_hardlink(ent));

		if (n == NULL)
			continue;
		if (target != NULL) {
			/* tar stores a hard link's data once, at its target */
			if (link == NULL)
				continue;
			*name = n;
			*link = target;
			return 1;
		}
		if (la.archive_entry_filetype(ent) != AE_IFREG)
			continue;
		*name = n;
		if (link != NULL)
			*link = NULL;
		ms_source_from_reader(src, n, member_read, ar);
		return 1;
	}
	if (rc == ARCHIVE_EOF)
		return 0;
	ms_warn("%s: %s", ar->path, why(ar->a));
	note_failure(ar->a);
	return -1;
}

void
ms_archive_close(struct ms_archive *ar)
{
	if (ar == NULL)
		return;
	if (ar->a != NULL)
		la.archive_read_free(ar->a);
	free(ar);
}

/* ------------------------------------------------ compressed lists */

/* The errno of a failed read: the system's, else EBADMSG (damaged or
 * cut compressed data, as text_input.h words it). */
static int
damaged(struct archive *a)
{
	int e = la.archive_errno(a);

	return e > 0 && e != EILSEQ && e != EINVAL ? e : EBADMSG;
}

static ssize_t
raw_read(void *cookie, char *buf, size_t size)
{
	struct archive *a = cookie;
	la_ssize_t n = la.archive_read_data(a, buf, size);

	if (n < 0) {
		errno = damaged(a);
		return -1;
	}
	return (ssize_t)n;
}

static int
raw_close(void *cookie)
{
	la.archive_read_free(cookie);
	return 0;
}

FILE *
ms_archive_uncompressed(const char *path)
{
	struct archive_entry *ent;
	struct archive *a;
	int e;

	if (ms_lazy_load(&libarchive) == -1) {
		errno = ENOTSUP;
		return NULL;
	}
	if ((a = la.archive_read_new()) == NULL)
		ms_die("%s", strerror(ENOMEM));
	la.archive_read_support_filter_all(a);
	la.archive_read_support_format_raw(a);
	if (la.archive_read_open_filename(a, path, 1 << 16) != ARCHIVE_OK ||
	    la.archive_read_next_header(a, &ent) != ARCHIVE_OK) {
		e = damaged(a);
		la.archive_read_free(a);
		errno = e;
		return NULL;
	}
	return ms_fopen_reader(a, raw_read, raw_close);
}
