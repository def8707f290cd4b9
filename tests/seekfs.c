/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * seekfs.c - a seeking disk for the tests: a FUSE file system (libfuse3)
 * that serves a folder read-only and charges every read what a disk head
 * would, so that seek-order.sh can compare the order in which multisum reads a
 * tree with the walk's order, in simulated costs rather than seconds.
 *
 *   seekfs BACKING MOUNTPOINT STATS [FUSE OPTION...]
 *
 * serves BACKING at MOUNTPOINT in the foreground until unmounted
 * (fusermount3 -u MOUNTPOINT).  Inode numbers are the backing files'
 * (use_ino), and the regular files are laid out on a simulated disk in
 * the order of those numbers, each contiguous, each starting on a 4 KiB
 * block: the physical order a tool may find through inode numbers (FUSE
 * has no FIEMAP).  A read costs
 *   a seek:     0 when it starts where the previous read ended (to the
 *               block), else 0.2 ms + 4 us * sqrt(distance in bytes),
 *               at most 8 ms (32 KiB away: 0.92 ms; 3 MiB: 7.1 ms);
 *   a transfer: 10 us per KiB (100 MiB/s);
 * reads are served one at a time (one head, a mutex), and each sleeps
 * its cost, so that a probe of the device sees a disk that seeks.  After
 * every read STATS holds the totals since the mount, one "name value"
 * per line: reads, bytes, seeks (reads that were not contiguous),
 * seek_us, transfer_us and cost_us (their sum).  The costs are computed,
 * not measured: the same reads in the same order cost the same on a
 * loaded machine.  Files that appear in BACKING after the mount are
 * placed after all the others.  The helper unmounts and ends on SIGTERM,
 * and by itself once the process that started it is gone.
 */
#define FUSE_USE_VERSION 31

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum {
	BLOCK = 4096,
	SEEK_BASE_US = 200,
	SEEK_MAX_US = 8000,
	XFER_NS_PER_KIB = 10000,	/* 100 MiB/s */
};
/* A short seek is cheap, as on a disk, so that a probe tells near from far. */
static const double SEEK_K_US = 4.0;

/* One regular file of BACKING on the simulated disk. */
struct extent {
	ino_t ino;
	uint64_t start;
};

/* An open file: its backing descriptor and where it starts on the disk. */
struct handle {
	int fd;
	uint64_t start;
};

static int backing_fd = -1;
static int stats_fd = -1;
static struct extent *extents;
static size_t n_extents, cap_extents;
static uint64_t disk_end;

static pid_t parent;		/* the test that started the helper */

static pthread_mutex_t head = PTHREAD_MUTEX_INITIALIZER;
static uint64_t head_pos;	/* where the previous read ended */
static uint64_t n_reads, n_bytes, n_seeks, seek_us, transfer_us;

static uint64_t round_up(uint64_t n)
{
	return (n + BLOCK - 1) / BLOCK * BLOCK;
}

/* A path FUSE gives ("/a/b") as one relative to BACKING ("a/b", "."). */
static const char *rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

static void die(const char *what)
{
	fprintf(stderr, "seekfs: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Every regular file below DIR (a descriptor, closed here), unsorted. */
static void collect(int dir)
{
	DIR *d = fdopendir(dir);
	if (!d)
		die("opendir");
	struct dirent *e;
	while ((e = readdir(d))) {
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			die(e->d_name);
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), e->d_name,
			    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (sub < 0)
				die(e->d_name);
			collect(sub);
		} else if (S_ISREG(st.st_mode)) {
			if (n_extents == cap_extents) {
				cap_extents = cap_extents ? 2 * cap_extents : 256;
				extents = realloc(extents,
				    cap_extents * sizeof *extents);
				if (!extents)
					die("realloc");
			}
			/* start: the size until the layout below */
			extents[n_extents].ino = st.st_ino;
			extents[n_extents++].start = (uint64_t)st.st_size;
		}
	}
	closedir(d);
}

static int by_ino(const void *a, const void *b)
{
	ino_t x = ((const struct extent *)a)->ino;
	ino_t y = ((const struct extent *)b)->ino;
	return (x > y) - (x < y);
}

/* The files in inode order, each contiguous from a block boundary. */
static void lay_out(void)
{
	qsort(extents, n_extents, sizeof *extents, by_ino);
	for (size_t i = 0; i < n_extents; i++) {
		uint64_t size = extents[i].start;
		extents[i].start = disk_end;
		disk_end += round_up(size);
	}
}

static uint64_t start_of(ino_t ino)
{
	size_t lo = 0, hi = n_extents;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (extents[mid].ino == ino)
			return extents[mid].start;
		if (extents[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return disk_end;
}

static void write_stats(void)
{
	char buf[256];
	int n = snprintf(buf, sizeof buf,
	    "reads %llu\nbytes %llu\nseeks %llu\nseek_us %llu\n"
	    "transfer_us %llu\ncost_us %llu\n",
	    (unsigned long long)n_reads, (unsigned long long)n_bytes,
	    (unsigned long long)n_seeks, (unsigned long long)seek_us,
	    (unsigned long long)transfer_us,
	    (unsigned long long)(seek_us + transfer_us));
	if (pwrite(stats_fd, buf, (size_t)n, 0) != n ||
	    ftruncate(stats_fd, n))
		fprintf(stderr, "seekfs: stats: %s\n", strerror(errno));
}

/* Charge a read of LEN bytes at disk offset POS, as one head serves it. */
static void charge(uint64_t pos, size_t len)
{
	pthread_mutex_lock(&head);
	uint64_t from = round_up(head_pos);
	uint64_t dist = pos > from ? pos - from : from - pos;
	uint64_t us = 0;
	if (dist) {
		double s = SEEK_BASE_US + SEEK_K_US * sqrt((double)dist);
		us = s > SEEK_MAX_US ? SEEK_MAX_US : (uint64_t)s;
		n_seeks++;
		seek_us += us;
	}
	uint64_t xfer = (uint64_t)len * XFER_NS_PER_KIB / 1024 / 1000;
	transfer_us += xfer;
	us += xfer;
	n_reads++;
	n_bytes += len;
	head_pos = pos + len;
	write_stats();
	struct timespec t = { (time_t)(us / 1000000),
	    (long)(us % 1000000) * 1000 };
	while (nanosleep(&t, &t) && errno == EINTR)
		;
	pthread_mutex_unlock(&head);
}

/* A test killed before it could unmount (SIGKILL, SIGPIPE) leaves no
 * mount behind: once the parent is gone, end as on SIGTERM (unmount). */
static void *watch_parent(void *arg)
{
	(void)arg;
	while (getppid() == parent)
		sleep(1);
	kill(getpid(), SIGTERM);
	return NULL;
}

static void *sk_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->use_ino = 1;
	cfg->readdir_ino = 1;
	write_stats();
	pthread_t t;
	if (pthread_create(&t, NULL, watch_parent, NULL) == 0)
		pthread_detach(t);
	return NULL;
}

static int sk_getattr(const char *path, struct stat *st,
    struct fuse_file_info *fi)
{
	if (fi)
		return fstat(((struct handle *)(uintptr_t)fi->fh)->fd, st) ?
		    -errno : 0;
	return fstatat(backing_fd, rel(path), st, AT_SYMLINK_NOFOLLOW) ?
	    -errno : 0;
}

static int sk_readlink(const char *path, char *buf, size_t size)
{
	ssize_t n = readlinkat(backing_fd, rel(path), buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static int sk_open(const char *path, struct fuse_file_info *fi)
{
	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EROFS;
	struct handle *h = malloc(sizeof *h);
	if (!h)
		return -ENOMEM;
	h->fd = openat(backing_fd, rel(path), O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (h->fd < 0 || fstat(h->fd, &st)) {
		int err = errno;
		if (h->fd >= 0)
			close(h->fd);
		free(h);
		return -err;
	}
	h->start = start_of(st.st_ino);
	fi->fh = (uint64_t)(uintptr_t)h;
	fi->keep_cache = 0;	/* every open reads the disk again */
	return 0;
}

static int sk_read(const char *path, char *buf, size_t size, off_t off,
    struct fuse_file_info *fi)
{
	(void)path;
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;
	ssize_t n = pread(h->fd, buf, size, off);
	if (n < 0)
		return -errno;
	if (n > 0)
		charge(h->start + (uint64_t)off, (size_t)n);
	return (int)n;
}

static int sk_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;
	close(h->fd);
	free(h);
	return 0;
}

static int sk_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
    off_t off, struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	int fd = openat(backing_fd, rel(path),
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		struct stat st = { 0 };
		st.st_ino = e->d_ino;
		st.st_mode = (mode_t)DTTOIF(e->d_type);
		if (fill(buf, e->d_name, &st, 0, 0))
			break;
	}
	closedir(d);
	return 0;
}

static const struct fuse_operations ops = {
	.init = sk_init,
	.getattr = sk_getattr,
	.readlink = sk_readlink,
	.open = sk_open,
	.read = sk_read,
	.release = sk_release,
	.readdir = sk_readdir,
};

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: seekfs BACKING MOUNTPOINT STATS "
		    "[FUSE OPTION...]\n");
		return 2;
	}
	parent = getppid();
	backing_fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (backing_fd < 0)
		die(argv[1]);
	stats_fd = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644);
	if (stats_fd < 0)
		die(argv[3]);
	int dup_fd = dup(backing_fd);
	if (dup_fd < 0)
		die("dup");
	collect(dup_fd);
	lay_out();

	char *fargv[64];
	int fargc = 0;
	fargv[fargc++] = argv[0];
	fargv[fargc++] = argv[2];
	fargv[fargc++] = "-f";
	fargv[fargc++] = "-o";
	fargv[fargc++] = "ro,fsname=seekfs,subtype=seekfs";
	for (int i = 4; i < argc && fargc < 63; i++)
		fargv[fargc++] = argv[i];
	fargv[fargc] = NULL;
	int st = fuse_main(fargc, fargv, &ops, NULL);
	free(extents);
	close(stats_fd);
	close(backing_fd);
	return st;
}
