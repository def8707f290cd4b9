/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * walk.c - directory trees and operand lists to an ordered stream of
 * paths.
 *
 * Owns opendir/readdir, the byte order of entries, --exclude matching,
 * the symlink policy (-L follows links inside trees, with loop
 * detection; without it links found in a tree are skipped) and the
 * reading of --files-from lists.  It never opens a regular file.  Trees
 * are walked relative to directory descriptors (openat), so their depth
 * is not bounded by PATH_MAX, and the -o output is never listed.
 */
#include "io/walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/output.h"
#include "io/text_input.h"
#include "manifest/lines.h"
#include "base/exit_status.h"
#include "base/quote.h"
#include "base/util.h"

struct ancestor {
	dev_t		 dev;
	ino_t		 ino;
	const struct ancestor *up;
};

struct walker {
	const struct ms_walk_opts *o;
	ms_walk_fn	*fn;
	void		*arg;
	size_t		 errors;
	char		*path;		/* grows as the walk descends */
	size_t		 cap;
};

/* Does name (a base name or a path) match one of the excludes? */
static bool
ms_walk_excluded(const struct ms_walk_opts *o, const char *path)
{
	const char *base = strrchr(path, '/');

	base = base && base[1] ? base + 1 : path;
	for (size_t i = 0; i < o->nexcludes; i++)
		if (fnmatch(o->excludes[i], base, 0) == 0 ||
		    fnmatch(o->excludes[i], path, 0) == 0)
			return true;
	return false;
}

/* A directory entry to sort: its first eight bytes as a number first. */
struct entry {
	uint64_t	 key;		/* big-endian, zero-padded */
	const char	*name;		/* its type in the byte before */
	ino_t		 ino;		/* readdir's */
};

static int
byte_order(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	/* Equal keys: equal first bytes, so strcmp decides. */
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * Entries in byte order.  A directory of a few dozen entries (most of a
 * tree of small files) is sorted in place by insertion, its comparison
 * inline: qsort's merge sort, its calls through the comparator, cost
 * 380 instructions a file of 20,000 files of 1 KiB in directories of 20,
 * a tenth of the run's (callgrind).  Larger ones go to qsort.
 */
#define SORT_INLINE	32

static void
sort_entries(struct entry *e, size_t n)
{
	if (n > SORT_INLINE) {
		qsort(e, n, sizeof(*e), byte_order);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		struct entry x = e[i];
		size_t j = i;

		while (j > 0 && byte_order(&x, &e[j - 1]) < 0) {
			e[j] = e[j - 1];
			j--;
		}
		e[j] = x;
	}
}

static uint64_t
sort_key(const char *name)
{
	uint64_t k = 0;

	for (int i = 0; i < 8; i++) {
		k = k << 8 | (unsigned char)*name;
		name += *name != '\0';
	}
	return k;
}

void
ms_walk_vanished(const char *path, const char *then)
{
	ms_warn("%s: vanished before it was read: %s", ms_quotef(path), then);
}

static void
walk_event(struct walker *w, const char *path, enum ms_walk_event ev, int err)
{
	if (ev == MS_WALK_FAILED) {
		ms_outcome_note(MS_OUTCOME_RETRY);
		w->errors++;
	}
	if (w->o->event != NULL)
		w->o->event(w->arg, path, ev, err);
	else if (ev == MS_WALK_VANISHED)
		ms_walk_vanished(path, "not listed");
	else if (ev == MS_WALK_LOOP)
		ms_warn("%s: symbolic link loop, not followed", ms_quotef(path));
	else
		ms_warn("%s: %s", ms_quotef(path), strerror(err));
}

/* An error at path: ENOENT there means it vanished since it was listed. */
static void
walk_error(struct walker *w, const char *path, int err)
{
	walk_event(w, path, err == ENOENT ? MS_WALK_VANISHED : MS_WALK_FAILED,
	    err);
}

static void descend(struct walker *w, int dfd, size_t len,
    const struct ancestor *up);

/*
 * w->path[0..len) names the entry ent of the directory open as pdfd (up:
 * the directory), of known type d_type (DT_UNKNOWN ok).  self: the
 * directory holds the -o output, whose files are never listed.
 */
static void
visit(struct walker *w, int pdfd, const struct entry *ent, size_t len,
    bool self, const struct ancestor *up)
{
	const char *name = ent->name;
	unsigned char type = (unsigned char)name[-1];
	struct stat st;

	if (w->o->nexcludes && ms_walk_excluded(w->o, w->path))
		return;
	if (type == DT_REG && !self) {
		/* on up's device, as its directory is (a file bind-mounted
		 * elsewhere excepted: its place is then a guess) */
		w->fn(w->arg, w->path, &(struct ms_walked){ up->dev, ent->ino });
		return;
	}
	if (type != DT_REG && type != DT_DIR && type != DT_LNK &&
	    type != DT_UNKNOWN)
		return;		/* devices, FIFOs, sockets: not content */
	if (fstatat(pdfd, name, &st, AT_SYMLINK_NOFOLLOW) == -1) {
		walk_error(w, w->path, errno);
		return;
	}
	if (S_ISLNK(st.st_mode)) {
		if (!w->o->dereference)
			return;
		/* a dangling link (ENOENT) is an error, not a vanished file */
		if (fstatat(pdfd, name, &st, 0) == -1) {
			walk_event(w, w->path, errno == ELOOP ? MS_WALK_LOOP :
			    MS_WALK_FAILED, errno);
			return;
		}
	}
	if (S_ISREG(st.st_mode)) {
		/* The manifest being written is never hashed into itself. */
		if (!ms_output_is_self(w->o->output, &st))
			w->fn(w->arg, w->path,
			    &(struct ms_walked){ st.st_dev, st.st_ino });
	} else if (S_ISDIR(st.st_mode)) {
		struct ancestor here = { st.st_dev, st.st_ino, up };
		int dfd;

		for (const struct ancestor *a = up; a != NULL; a = a->up)
			if (a->dev == st.st_dev && a->ino == st.st_ino) {
				walk_event(w, w->path, MS_WALK_LOOP, ELOOP);
				return;
			}
		dfd = openat(pdfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
		    O_NOCTTY | (w->o->dereference ? 0 : O_NOFOLLOW));
		if (dfd == -1) {
			walk_error(w, w->path, errno);
			return;
		}
		descend(w, dfd, len, &here);
	}
}

/*
 * w->path[0..len) is the directory open as dfd (which this closes):
 * visit its entries in byte order.  Entries are reached relative to dfd,
 * so a tree may be deeper than PATH_MAX.  dfd is read through its DIR,
 * which stays open until the last entry is visited: a dup of it for the
 * DIR cost a dup and a close a directory (a tenth of a call a file in a
 * tree of 20 small files a folder), the DIR's buffer is what it costs.
 */
static void
descend(struct walker *w, int dfd, size_t len, const struct ancestor *up)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	struct entry *names = NULL;
	char *buf = NULL;	/* the names, each after its type byte */
	size_t cnt = 0, cap = 0, used = 0, bufcap = 0;
	bool self = false;
	struct stat st;

	if (d == NULL) {
		walk_event(w, w->path, MS_WALK_FAILED, errno);
		close(dfd);
		return;
	}
	/* The directory of the -o output: its entries are looked at. */
	if (w->o->output != NULL && w->o->output->path != NULL &&
	    fstat(dfd, &st) == 0)
		self = st.st_dev == w->o->output->dir_dev &&
		    st.st_ino == w->o->output->dir_ino;
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		size_t nl;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (cnt == cap) {
			cap = cap ? cap * 2 : 64;
			names = ms_xrealloc(names, cap * sizeof(*names));
		}
		/* The type travels in the byte before the name; the names
		 * share one buffer (offsets until it stops moving). */
		nl = strlen(de->d_name);
		if (bufcap - used < nl + 2) {
			bufcap = (bufcap + nl + 2) * 2;
			buf = ms_xrealloc(buf, bufcap);
		}
		buf[used] = (char)de->d_type;
		memcpy(buf + used + 1, de->d_name, nl + 1);
		names[cnt].ino = de->d_ino;
		names[cnt++].key = used + 1;
		used += nl + 2;
		errno = 0;
	}
	if (errno != 0)
		walk_event(w, w->path, MS_WALK_FAILED, errno);
	for (size_t i = 0; i < cnt; i++) {
		names[i].name = buf + names[i].key;
		names[i].key = sort_key(names[i].name);
	}
	/* An empty directory leaves names NULL, which qsort must not see
	 * even with a count of 0 (C17 7.22.5). */
	if (cnt > 1)
		sort_entries(names, cnt);
	if (w->o->folder != NULL)
		w->o->folder(w->arg, w->path, true);
	for (size_t i = 0; i < cnt; i++) {
		size_t nl = strlen(names[i].name);
		size_t sep = len > 0 && w->path[len - 1] != '/';
		size_t need = len + sep + nl + 1;

		if (need > w->cap) {
			w->cap = need * 2;
			w->path = ms_xrealloc(w->path, w->cap);
		}
		if (sep)
			w->path[len] = '/';
		memcpy(w->path + len + sep, names[i].name, nl + 1);
		visit(w, dfd, &names[i], len + sep + nl, self, up);
		w->path[len] = '\0';
	}
	if (w->o->folder != NULL)
		w->o->folder(w->arg, w->path, false);
	free(names);
	free(buf);
	closedir(d);		/* and dfd with it */
}

size_t
ms_walk(const struct ms_walk_opts *o, const char *operand, ms_walk_fn *fn,
    void *arg)
{
	struct walker w = { o, fn, arg, 0, NULL, 0 };
	struct stat st;
	size_t len = strlen(operand);
	bool stdin_op = strcmp(operand, "-") == 0;
	bool known = !stdin_op && (o->recursive || o->output != NULL) &&
	    stat(operand, &st) == 0;
	int dfd;

	/* -o never reads the file it replaces: refuse, do not list it. */
	if (known && S_ISREG(st.st_mode) && ms_output_is_self(o->output, &st)) {
		ms_warn("%s: is the output file (-o): not read", ms_quotef(operand));
		ms_outcome_note(MS_OUTCOME_FAIL);
		return 1;
	}
	/* Operands are followed even without -L (as find -H does); only
	 * a directory operand under -r starts a walk. */
	if (!o->recursive || !known || !S_ISDIR(st.st_mode)) {
		fn(arg, operand, NULL);
		return 0;
	}
	dfd = open(operand, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
	if (dfd == -1) {
		/* the operand itself: never "vanished", it was asked for */
		walk_event(&w, operand, MS_WALK_FAILED, errno);
		return w.errors;
	}
	w.cap = len + 256;
	w.path = ms_xmalloc(w.cap);
	memcpy(w.path, operand, len + 1);
	{
		struct ancestor top = { st.st_dev, st.st_ino, NULL };
		descend(&w, dfd, len, &top);
	}
	free(w.path);
	return w.errors;
}

int
ms_walk_list(const char *list, bool nul, ms_walk_fn *fn, void *arg)
{
	FILE *f = strcmp(list, "-") == 0 ? stdin : fopen(list, "r");
	char *line = NULL;
	size_t cap = 0, item = 0;
	ssize_t n;
	int rc = 0;

	if (f == NULL) {
		ms_warn("%s: %s", list, strerror(errno));
		ms_outcome_note(MS_OUTCOME_RETRY);
		return -1;
	}
	/* bounded as -c's lists are: --files0-from=/dev/zero is no list */
	for (errno = 0; (n = ms_text_getdelim(&line, &cap,
	    nul ? '\0' : '\n', f)) != -1; errno = 0) {
		item++;
		if (n > 0 && line[n - 1] == (nul ? '\0' : '\n'))
			line[--n] = '\0';
		if (n == 0 && nul) {
			/* du's and wc's words: no file, and no silence */
			ms_warn("%s:%zu: invalid zero-length file name", list,
			    item);
			ms_outcome_note(MS_OUTCOME_FAIL);
			rc = -1;
			continue;
		}
		if (n == 0)
			continue;	/* a blank line of a list is no file */
		if (f == stdin && strcmp(line, "-") == 0) {
			/* Hashing stdin would swallow the rest of the list. */
			ms_warn("when reading file names from standard input, "
			    "no file name of '-' allowed");
			ms_outcome_note(MS_OUTCOME_FAIL);
			rc = -1;
			continue;
		}
		fn(arg, line, NULL);
	}
	if (errno == EFBIG) {
		ms_warn("%s: not a list of file names (a line of over %zu MiB)",
		    list, MS_LINE_MAX >> 20);
		ms_outcome_note(MS_OUTCOME_FAIL);
		rc = -1;
	} else if (ferror(f)) {
		ms_warn("%s: %s", list, strerror(errno));
		ms_outcome_note(MS_OUTCOME_RETRY);
		rc = -1;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return rc;
}

int
ms_walk_probe(const char *operand)
{
	struct stat st;
	int fd;

	if (strcmp(operand, "-") == 0)
		return 0;
	if (stat(operand, &st) == -1)
		return errno;
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return 0;	/* a FIFO or device is not opened for nothing */
	fd = open(operand, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd == -1)
		return errno;
	close(fd);
	return 0;
}
