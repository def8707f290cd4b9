/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * portable.h - the portable shims: one name for each call that only some
 * systems have, with a POSIX.1-2008 fallback chosen by configure.
 *
 * Linux keeps its faster or finer calls (coarse clocks, sched_getaffinity,
 * /proc/meminfo, getrandom, posix_fadvise, MAP_POPULATE, MADV_HUGEPAGE,
 * /proc/self/fd, fopencookie); a BSD or a Mac takes the fallback named
 * beside each.  The rest of the code calls these names and tests no
 * system macro of its own.
 */
#ifndef MS_PORTABLE_H
#define MS_PORTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

/* MAP_POPULATE where mmap has it, else nothing (the pages then fault in
 * as they are hashed). */
#if HAVE_DECL_MAP_POPULATE
#include <sys/mman.h>
#define MS_MAP_POPULATE	MAP_POPULATE
#else
#define MS_MAP_POPULATE	0
#endif

/* A struct stat's modification and status change times, each a struct
 * timespec one may take the address of: POSIX.1-2008's st_mtim and
 * st_ctim, macOS's st_mtimespec and st_ctimespec, else whole seconds. */
#if defined(HAVE_STRUCT_STAT_ST_MTIM)
#define MS_ST_MTIM(st)	((st)->st_mtim)
#define MS_ST_CTIM(st)	((st)->st_ctim)
#elif defined(HAVE_STRUCT_STAT_ST_MTIMESPEC)
#define MS_ST_MTIM(st)	((st)->st_mtimespec)
#define MS_ST_CTIM(st)	((st)->st_ctimespec)
#else
#define MS_ST_MTIM(st)	((struct timespec){ .tv_sec = (st)->st_mtime })
#define MS_ST_CTIM(st)	((struct timespec){ .tv_sec = (st)->st_ctime })
#endif

/* The clock the kernel stamps files with: CLOCK_REALTIME_COARSE, else
 * CLOCK_REALTIME.  Nanoseconds since the epoch. */
int64_t ms_realtime_coarse_ns(void);

/* CLOCK_MONOTONIC_COARSE, else CLOCK_MONOTONIC; nanoseconds. */
int64_t ms_monotonic_coarse_ns(void);

/* The CPUs this process may run on (sched_getaffinity, as nproc(1)
 * counts them), else sysconf(_SC_NPROCESSORS_ONLN); at least 1. */
long ms_usable_cpus(void);

/* Memory available to a new run, in bytes: MemAvailable of /proc/meminfo,
 * else half of sysconf(_SC_PHYS_PAGES) * _SC_PAGESIZE; 0 if unknown. */
uint64_t ms_memory_available(void);

/* n random bytes from the OS (getrandom, else /dev/urandom): 0, or -1
 * with errno set. */
int ms_os_random(void *p, size_t n);

/* posix_fadvise where there is one, else nothing: a hint only. */
void ms_advise_sequential(int fd);
void ms_advise_dontneed(int fd, off_t off, off_t len);
/* No read-ahead for fd: its reads fetch what they ask for alone. */
void ms_advise_random(int fd);
/* Start reading [off, off + len) of fd into the page cache, and return:
 * the reads go on while the caller does something else. */
void ms_advise_willneed(int fd, off_t off, off_t len);

/*
 * Memory for a slot of a big file's ring (engine_big.c), which a device
 * reads into directly when the file is cold (O_DIRECT): n bytes aligned
 * to MS_HUGE_PAGE and advised into huge pages (Linux's MADV_HUGEPAGE,
 * else only aligned) when n is a multiple of it (a cold file's slots
 * are, MS_DIRECT_READ; a cached file's only with such a --buffer-size),
 * else page-aligned; NULL when there is no memory.  Free with free().  A
 * direct read into 4 KiB pages is one segment of the disk's request a
 * page, and a queue takes only so many (virtio-blk here: 254): a 2 MiB
 * read into a huge page is one.
 */
#define MS_HUGE_PAGE	((size_t)2 << 20)
void	*ms_try_huge(size_t n);

/* Is fd's page at off (a multiple of the page size) in the page cache?
 * 1, 0, or -1 if it cannot be told (mincore, else never). */
int ms_page_cached(int fd, off_t off);

/* Where fd's first byte lies on its device (FIEMAP's first extent):
 * 0, or -1 with errno (ENOENT: no extent, empty or inline; ENOTSUP
 * where the call or the file system has none). */
int ms_first_extent(int fd, uint64_t *phys);

/* Is an open descriptor named by /proc/self/fd/N here?  Without it a
 * path longer than PATH_MAX cannot be opened by name. */
bool ms_have_fd_paths(void);

/* "/proc/self/fd/FD[/NAME]" (malloc'ed), or NULL where there is none. */
char *ms_fd_path(int fd, const char *name);

/* A stream for reading whose bytes come from rd(cookie, buf, size) (the
 * bytes it put in buf, 0 at the end, or -1 with errno set), and whose
 * fclose calls cl(cookie): fopencookie (glibc, musl), else funopen (the
 * BSDs, macOS), else all of it read at once into a tmpfile() and cl
 * called then (its errors come at the open, not as the stream is read).
 * NULL with errno set if the stream cannot be had; cl(cookie) has then
 * been called. */
typedef ssize_t ms_reader_read(void *cookie, char *buf, size_t size);
typedef int ms_reader_close(void *cookie);
FILE *ms_fopen_reader(void *cookie, ms_reader_read *rd, ms_reader_close *cl);

#endif /* MS_PORTABLE_H */
