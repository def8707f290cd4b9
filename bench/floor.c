/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * floor.c - the read floor: what the kernel costs to open, read to the
 * end and close every file of a tree, with nothing hashed and nothing
 * printed.  Small-file figures of multisum are reported against it
 * (bench/compare.sh, bench/README.md).
 *
 *   bench/floor [-j N] [-a] [-s] [-d | -e] PATH...
 *
 * The calling thread walks each PATH (a directory is walked below it in
 * readdir order, using the entry's d_type and an fstatat only where the
 * file system gives DT_UNKNOWN; anything else is taken as a file) and
 * publishes the names; N reader threads (default: the online CPUs) take
 * them in turn and make exactly open, read until read returns 0 (into a
 * 256 KiB buffer of their own), close.  -a opens each file relative to
 * its directory's descriptor (openat) instead of by its whole path, to
 * show what the kernel's path lookup costs.  -s reads each file as a
 * tool that tells a file changed while it was read must at least: pread
 * from its start, an fstat after the first read, and no read past the
 * size that gives (a small file: open, pread, fstat, close, where the
 * floor makes open, read, read, close); the floor of multisum's own
 * calls, whose late watch makes exactly those (src/io/source.c), so that
 * the cost of that check is told from the engine's.  -d reads with O_DIRECT,
 * past the page cache: with -j 1 the device's own rate for the files, in
 * the walk's order (bench/cold.sh); a file system that refuses O_DIRECT
 * fails the file.  -e reads nothing: it evicts each file from the page
 * cache (posix_fadvise DONTNEED, after fdatasync), so that the next read
 * comes from the device, where dropping every cache needs root
 * (bench/cold.sh).  Nothing is written to
 * standard output; a file that fails is named on standard error and the
 * exit status is 1.  It depends on nothing of multisum, so that a change
 * there cannot move the floor.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* d_type */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUF		(256u << 10)
#define SEG		4096		/* files per segment of the list */
#define SEGS		(1u << 16)	/* up to 268 million files */
#define THREADS_MAX	256

/* One file to read: a whole path, or a name in a directory kept open. */
struct item {
	const char	*path;		/* whole path, or the name under dfd */
	int		 dfd;		/* AT_FDCWD for whole paths */
};

/* The list grows in segments that never move, so readers need no lock. */
static struct item *seg[SEGS];
static atomic_size_t published;		/* items readers may take */
static atomic_size_t taken;		/* items handed to a reader */
static atomic_bool walked;		/* the walk is over */
static atomic_int waiting;		/* readers asleep on more */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;
static atomic_int failures;
static bool use_at;
static int direct;		/* O_DIRECT under -d, else 0 */
static bool evict;		/* -e: evict, do not read */
static bool checked;		/* -s: fstat after the first read */

static void *
xmalloc(size_t n)
{
	void *p = malloc(n);

	if (p == NULL) {
		fprintf(stderr, "floor: out of memory\n");
		exit(2);
	}
	return p;
}

/* Wake readers that caught up with the walk (rarely: the walk is ahead). */
static void
wake(void)
{
	if (atomic_load(&waiting) > 0) {
		pthread_mutex_lock(&lock);
		pthread_cond_broadcast(&more);
		pthread_mutex_unlock(&lock);
	}
}

static void
publish(const char *path, int dfd)
{
	static size_t n;

	if (n / SEG >= SEGS) {
		fprintf(stderr, "floor: too many files\n");
		exit(2);
	}
	if (seg[n / SEG] == NULL)
		seg[n / SEG] = xmalloc(SEG * sizeof(struct item));
	seg[n / SEG][n % SEG] = (struct item){ path, dfd };
	n++;
	atomic_store(&published, n);
	if (n % 64 == 0)
		wake();
}

static void
fail(const char *what, const char *path)
{
	fprintf(stderr, "floor: %s: %s: %s\n", path, what, strerror(errno));
	atomic_fetch_add(&failures, 1);
}

/* Entries of the directory open as dfd (named path), in readdir order. */
static void
walk(int dfd, const char *path)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	size_t plen = strlen(path);
	int keep = -1;		/* -a: the directory, open until the end */

	if (d == NULL) {
		fail("opendir", path);
		close(dfd);
		return;
	}
	while ((errno = 0, de = readdir(d)) != NULL) {
		unsigned char type = de->d_type;
		char *full;

		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		full = xmalloc(plen + strlen(de->d_name) + 2);
		sprintf(full, "%s/%s", path, de->d_name);
		if (type == DT_UNKNOWN) {
			struct stat st;

			if (fstatat(dirfd(d), de->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) == -1) {
				fail("stat", full);
				free(full);
				continue;
			}
			type = S_ISDIR(st.st_mode) ? DT_DIR :
			    S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
		}
		if (type == DT_DIR) {
			int sub = openat(dirfd(d), de->d_name,
			    O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			if (sub == -1)
				fail("open", full);
			else
				walk(sub, full);
			free(full);
		} else if (type == DT_REG) {
			if (use_at) {
				/* One descriptor per directory, never closed:
				 * the readers open its files relative to it. */
				if (keep == -1 && (keep = dup(dirfd(d))) == -1) {
					fail("dup", path);
					free(full);
					continue;
				}
				publish(full + plen + 1, keep);
			} else {
				publish(full, AT_FDCWD);
			}
		} else {
			free(full);
		}
	}
	if (errno != 0)
		fail("readdir", path);
	closedir(d);
}

/*
 * -s: read fd as a tool that tells a file changed while it was read
 * reads it: pread from the start, an fstat after the first read, and no
 * read past the size it gives (for a small file: open, pread, fstat,
 * close, where the floor makes open, read, read, close).  What the
 * fstat's times are compared with is not the kernel's cost, and is left
 * out.  Returns the last read's result, or -1 (errno set).
 */
static ssize_t
read_checked(int fd, char *buf, const char *path)
{
	struct stat st;
	off_t off = 0;
	ssize_t n;

	for (;;) {
		if ((n = pread(fd, buf, BUF, off)) == -1)
			return -1;
		if (off == 0 && fstat(fd, &st) == -1) {	/* after the first */
			fail("fstat", path);
			return 0;
		}
		if (n == 0)
			return 0;
		off += n;
		if (off == st.st_size)
			return n;
	}
}

static void *
reader(void *arg)
{
	char *buf;

	(void)arg;
	/* O_DIRECT wants an aligned buffer; a page's alignment serves */
	if ((errno = posix_memalign((void **)&buf, 4096, BUF)) != 0) {
		perror("floor");
		exit(2);
	}
	for (;;) {
		size_t i = atomic_fetch_add(&taken, 1);
		struct item *it;
		ssize_t n;
		int fd;

		while (i >= atomic_load(&published)) {
			if (atomic_load(&walked) && i >= atomic_load(&published))
				goto out;
			pthread_mutex_lock(&lock);
			atomic_fetch_add(&waiting, 1);
			if (i >= atomic_load(&published) && !atomic_load(&walked))
				pthread_cond_wait(&more, &lock);
			atomic_fetch_sub(&waiting, 1);
			pthread_mutex_unlock(&lock);
		}
		it = &seg[i / SEG][i % SEG];
		fd = openat(it->dfd, it->path, O_RDONLY | O_CLOEXEC | O_NOCTTY |
		    direct);
		if (fd == -1) {
			fail("open", it->path);
			continue;
		}
		if (evict) {
			(void)fdatasync(fd);	/* DONTNEED leaves dirty pages */
			if ((errno = posix_fadvise(fd, 0, 0,
			    POSIX_FADV_DONTNEED)) != 0)
				fail("posix_fadvise", it->path);
			close(fd);
			continue;
		}
		if (checked)
			n = read_checked(fd, buf, it->path);
		else
			while ((n = read(fd, buf, BUF)) > 0)
				;
		if (n == -1)
			fail("read", it->path);
		close(fd);
	}
out:
	free(buf);
	return NULL;
}

int
main(int argc, char **argv)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int jobs = cpus > 0 ? (int)cpus : 1, c;
	pthread_t tid[THREADS_MAX];

	while ((c = getopt(argc, argv, "adej:s")) != -1) {
		switch (c) {
		case 'a':
			use_at = true;
			break;
		case 'd':
			direct = O_DIRECT;
			break;
		case 'e':
			evict = true;
			break;
		case 's':
			checked = true;
			break;
		case 'j':
			jobs = atoi(optarg);
			if (jobs < 1 || jobs > THREADS_MAX) {
				fprintf(stderr, "floor: -j 1..%d\n", THREADS_MAX);
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: floor [-j N] [-a] [-s] [-d | -e] PATH...\n");
			return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "usage: floor [-j N] [-a] [-s] [-d | -e] PATH...\n");
		return 2;
	}
	for (int i = 0; i < jobs; i++)
		if ((errno = pthread_create(&tid[i], NULL, reader, NULL)) != 0) {
			perror("floor: pthread_create");
			return 2;
		}
	for (int i = optind; i < argc; i++) {
		int dfd = open(argv[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (dfd != -1)
			walk(dfd, argv[i]);
		else
			publish(argv[i], AT_FDCWD);
	}
	atomic_store(&walked, true);
	pthread_mutex_lock(&lock);
	pthread_cond_broadcast(&more);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < jobs; i++)
		pthread_join(tid[i], NULL);
	return atomic_load(&failures) > 0;
}
