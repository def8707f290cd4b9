/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * portable.c - the portable shims (see portable.h): each Linux-only call
 * behind the HAVE_* configure found, and its POSIX fallback.
 */
#include "base/portable.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_SYS_RANDOM_H
#include <sys/random.h>
#endif
#if defined(HAVE_MINCORE) || HAVE_DECL_MADV_HUGEPAGE
#include <sys/mman.h>
#endif
#ifdef HAVE_LINUX_FIEMAP_H
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#endif

#include "base/util.h"

/* A system without a coarse clock reads the fine one instead (names of
 * our own: a build told the system's are missing may still see them). */
#if HAVE_DECL_CLOCK_REALTIME_COARSE
#define MS_REALTIME_COARSE	CLOCK_REALTIME_COARSE
#else
#define MS_REALTIME_COARSE	CLOCK_REALTIME
#endif
#if HAVE_DECL_CLOCK_MONOTONIC_COARSE
#define MS_MONOTONIC_COARSE	CLOCK_MONOTONIC_COARSE
#else
#define MS_MONOTONIC_COARSE	CLOCK_MONOTONIC
#endif

static int64_t
clock_ns(clockid_t coarse, clockid_t fine)
{
	struct timespec ts;

	if (coarse == fine || clock_gettime(coarse, &ts) == -1)
		clock_gettime(fine, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t
ms_realtime_coarse_ns(void)
{
	return clock_ns(MS_REALTIME_COARSE, CLOCK_REALTIME);
}

int64_t
ms_monotonic_coarse_ns(void)
{
	return clock_ns(MS_MONOTONIC_COARSE, CLOCK_MONOTONIC);
}

long
ms_usable_cpus(void)
{
	long n;
#if defined(HAVE_SCHED_GETAFFINITY) && defined(CPU_COUNT)
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
#endif
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}

uint64_t
ms_memory_available(void)
{
	long pages, page;
#if MS_HAVE_PROC_MEMINFO
	/* Linux 3.14 and later: what the kernel can give without swapping */
	FILE *fp = fopen("/proc/meminfo", "re");
	char line[128];
	unsigned long long kb = 0;

	if (fp != NULL) {
		while (fgets(line, sizeof(line), fp) != NULL)
			if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
				break;
		fclose(fp);
		if (kb > 0)
			return (uint64_t)kb * 1024;
	}
#endif
	/* Elsewhere half of the physical memory stands for it. */
	pages = sysconf(_SC_PHYS_PAGES);
	page = sysconf(_SC_PAGESIZE);
	if (pages > 0 && page > 0)
		return (uint64_t)pages * (uint64_t)page / 2;
	return 0;
}

int
ms_os_random(void *p, size_t n)
{
	unsigned char *b = p;
	ssize_t got;
	int fd, e;

#ifdef HAVE_GETRANDOM
	while (n > 0) {
		ssize_t r = getrandom(b, n, 0);

		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			break;		/* ENOSYS: try the device */
		b += r;
		n -= (size_t)r;
	}
	if (n == 0)
		return 0;
#endif
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd == -1)
		return -1;
	got = ms_read_full(fd, b, n, -1);
	e = errno;
	close(fd);
	errno = e;
	return got == (ssize_t)n ? 0 : -1;
}

/* The four hints below: posix_fadvise's advice WHAT, or nothing where
 * there is no posix_fadvise (a hint may always be ignored). */
#ifdef HAVE_POSIX_FADVISE
#define ADVISE(fd, off, len, what) \
	((void)posix_fadvise(fd, off, len, POSIX_FADV_##what))
#else
#define ADVISE(fd, off, len, what) ((void)(fd), (void)(off), (void)(len))
#endif

void
ms_advise_sequential(int fd)
{
	ADVISE(fd, 0, 0, SEQUENTIAL);
}

void
ms_advise_dontneed(int fd, off_t off, off_t len)
{
	ADVISE(fd, off, len, DONTNEED);
}

void
ms_advise_willneed(int fd, off_t off, off_t len)
{
	ADVISE(fd, off, len, WILLNEED);
}

void
ms_advise_random(int fd)
{
	ADVISE(fd, 0, 0, RANDOM);
}

void *
ms_try_huge(size_t n)
{
	void *p;

	if (n % MS_HUGE_PAGE != 0)
		return ms_try_aligned(4096, n);
	if ((p = ms_try_aligned(MS_HUGE_PAGE, n)) == NULL)
		return NULL;
#if HAVE_DECL_MADV_HUGEPAGE
	(void)madvise(p, n, MADV_HUGEPAGE);	/* advice: it may be refused */
#endif
	return p;
}

int
ms_page_cached(int fd, off_t off)
{
#ifdef HAVE_MINCORE
	long page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, off);
	unsigned char vec[1] = { 0 };
	int r;

	if (p == MAP_FAILED)
		return -1;
	r = mincore(p, (size_t)page, (void *)vec) == 0 ? vec[0] & 1 : -1;
	munmap(p, (size_t)page);
	return r;
#else
	(void)fd; (void)off;
	return -1;
#endif
}

int
ms_first_extent(int fd, uint64_t *phys)
{
#ifdef HAVE_LINUX_FIEMAP_H
	union {
		struct fiemap	 map;
		unsigned char	 room[sizeof(struct fiemap) +
				    sizeof(struct fiemap_extent)];
	} u;

	memset(&u, 0, sizeof(u));
	u.map.fm_length = ~(uint64_t)0;
	u.map.fm_extent_count = 1;
	if (ioctl(fd, FS_IOC_FIEMAP, &u.map) == -1) {
		if (errno == ENOTTY || errno == EINVAL || errno == EOPNOTSUPP)
			errno = ENOTSUP;
		return -1;
	}
	if (u.map.fm_mapped_extents == 0 ||
	    (u.map.fm_extents[0].fe_flags & (FIEMAP_EXTENT_UNKNOWN |
	    FIEMAP_EXTENT_DATA_INLINE)) != 0) {
		errno = ENOENT;
		return -1;
	}
	*phys = u.map.fm_extents[0].fe_physical;
	return 0;
#else
	(void)fd; (void)phys;
	errno = ENOTSUP;
	return -1;
#endif
}

bool
ms_have_fd_paths(void)
{
	return MS_HAVE_PROC_SELF_FD;
}

char *
ms_fd_path(int fd, const char *name)
{
#if MS_HAVE_PROC_SELF_FD
	return name != NULL ? ms_xasprintf("/proc/self/fd/%d/%s", fd, name) :
	    ms_xasprintf("/proc/self/fd/%d", fd);
#else
	(void)fd; (void)name;
	return NULL;
#endif
}

#if !defined(HAVE_FOPENCOOKIE) && defined(HAVE_FUNOPEN)
/* funopen's functions take an int size: the caller's, adapted. */
struct reader {
	void		*cookie;
	ms_reader_read	*rd;
	ms_reader_close	*cl;
};

static int
reader_read(void *p, char *buf, int size)
{
	struct reader *r = p;

	return (int)r->rd(r->cookie, buf, (size_t)size);
}

static int
reader_close(void *p)
{
	struct reader *r = p;
	int rc = r->cl(r->cookie);

	free(r);
	return rc;
}
#elif !defined(HAVE_FOPENCOOKIE)
/* All of the cookie's bytes into a temporary file, read back from its
 * start: 0, or an errno value. */
static int
drain(FILE *tmp, void *cookie, ms_reader_read *rd)
{
	char buf[16384];
	ssize_t n;

	while ((n = rd(cookie, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno != 0 ? errno : EIO;
		if (fwrite(buf, 1, (size_t)n, tmp) != (size_t)n)
			return errno != 0 ? errno : EIO;
	}
	if (fflush(tmp) != 0 || fseek(tmp, 0, SEEK_SET) != 0)
		return errno != 0 ? errno : EIO;
	return 0;
}
#endif

FILE *
ms_fopen_reader(void *cookie, ms_reader_read *rd, ms_reader_close *cl)
{
	FILE *fp;
	int e;
#if defined(HAVE_FOPENCOOKIE)
	cookie_io_functions_t io = { .read = rd, .close = cl };

	if ((fp = fopencookie(cookie, "r", io)) != NULL)
		return fp;
	e = errno;
	cl(cookie);
#elif defined(HAVE_FUNOPEN)
	struct reader *r = ms_xcalloc(1, sizeof(*r));

	r->cookie = cookie;
	r->rd = rd;
	r->cl = cl;
	if ((fp = funopen(r, reader_read, NULL, NULL, reader_close)) != NULL)
		return fp;
	e = errno;
	free(r);
	cl(cookie);
#else
	e = (fp = tmpfile()) == NULL ? errno : drain(fp, cookie, rd);
	if (cl(cookie) != 0 && e == 0)
		e = errno != 0 ? errno : EIO;
	if (e == 0)
		return fp;
	if (fp != NULL)
		fclose(fp);
#endif
	errno = e;
	return NULL;
}
