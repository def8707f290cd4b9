/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * source.c - turn a path, standard input, a FIFO or a reader callback
 * into chunks.
 *
 * Owns open/fstat/mmap/read/close and nothing else: it never hashes and
 * never prints.  A regular file is fstat'ed once after the open and once
 * after its last read: a change between the two is an error (source.h);
 * a small file a walk found, on a local file system, only once, after
 * its read (late_watch below).  Regular files of at least MS_MMAP_MIN
 * bytes may be mapped, in windows of MS_MMAP_WINDOW bytes; the rest of the file
 * (all of it in read mode, and in mmap mode whatever grew past the size
 * seen at open, which then fails as a change) is read into the caller's
 * buffer; a file that cannot be
 * mapped is read.  Owns the SIGBUS handler and the registry of live
 * windows that make a shrinking mapped file a read error in every thread,
 * and --nocache's posix_fadvise calls that drop what was read.
 */
#include "io/source.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/portable.h"
#include "base/util.h"
#include "io/source_ahead.h"
#include "io/source_late.h"

/*
 * SIGBUS, for every thread.  A mapped window whose file shrank faults on
 * the pages past the new end, in whatever thread touches them: a worker,
 * a lane of a big file, or an OpenMP thread of libb2.  Every live window
 * is in this registry; the process-wide handler finds the window of the
 * faulting address, maps anonymous zero pages over the rest of it
 * (MAP_FIXED: the faulting access then completes and reads zeros), marks
 * the window failed and returns.  ms_chunk_feed checks the mark after the
 * digests ran, so the file is reported as a read error (EIO) and no digest
 * of it is ever printed.  A fault elsewhere kills the process as before.
 * mmap in a signal handler is not in POSIX's async-signal-safe list, but
 * it is a plain system call on every system with MAP_FIXED semantics we
 * build for, and it is how JVMs and databases survive truncated mappings.
 * The alternative, MAP_POPULATE and a size check before hashing, cannot
 * cover a truncation after the check.
 */
#define LIVE_MAX	1024	/* windows mapped at once, at most */
#define DROP_STEP	((off_t)8 << 20)	/* --nocache, read mode */
#define ADVISE_AT	((off_t)512 << 10)	/* read-ahead hint from here */

struct live {
	atomic_bool	 used;		/* the slot is claimed */
	_Atomic uintptr_t start;	/* 0 while not yet or no longer live */
	_Atomic size_t	 len;
	atomic_int	 failed;	/* set by the handler */
};

static struct live live[LIVE_MAX];
static uintptr_t page_size;

static void
on_sigbus(int sig, siginfo_t *si, void *uc)
{
	uintptr_t a = (uintptr_t)si->si_addr;

	(void)uc;
	for (size_t i = 0; i < LIVE_MAX; i++) {
		uintptr_t start = atomic_load(&live[i].start);
		size_t len = atomic_load(&live[i].len);
		uintptr_t page = a & ~(page_size - 1);

		if (start == 0 || a < start || a - start >= len)
			continue;
		if (mmap((void *)page, start + len - page, PROT_READ,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			break;
		atomic_store(&live[i].failed, 1);
		return;
	}
	/* Not ours: the access faults again, and kills, as without us. */
	signal(sig, SIG_DFL);
}

static void
install_sigbus(void)
{
	struct sigaction sa;

	page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

/* Before a source's first window: the handler, once for the process. */
static void
sigbus_once(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, install_sigbus);
}

/* A registry slot for a window about to be mapped, or -1 if all are taken. */
static int
live_claim(void)
{
	for (int i = 0; i < LIVE_MAX; i++) {
		bool no = false;

		if (atomic_compare_exchange_strong(&live[i].used, &no, true)) {
			atomic_store(&live[i].failed, 0);
			return i;
		}
	}
	return -1;
}

static void
live_set(int i, void *p, size_t len)
{
	atomic_store(&live[i].len, len);
	atomic_store(&live[i].start, (uintptr_t)p);
}

/* Before munmap: no fault of a later mapping at p may be taken for it. */
static void
live_drop(int i)
{
	atomic_store(&live[i].start, 0);
	atomic_store(&live[i].used, false);
}

static int open_path(struct ms_source *s, const char *path, enum ms_io io,
    bool regular);

/* A path longer than PATH_MAX: by pieces (ms_source_open_deep). */
static int
open_long(const char *path, int flags)
{
	int dfd = AT_FDCWD, fd, err;
	const char *p = path;

	if (*p == '/') {
		dfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd == -1)
			return -1;
		while (*p == '/')
			p++;
	}
	while (strlen(p) >= PATH_MAX - 1) {
		const char *cut = p + PATH_MAX - 2;
		char *dir;
		int nfd;

		while (cut > p && *cut != '/')
			cut--;
		if (cut == p) {		/* one name longer than PATH_MAX */
			err = ENAMETOOLONG;
			goto fail;
		}
		dir = ms_xasprintf("%.*s", (int)(cut - p), p);
		nfd = openat(dfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
		    O_NOCTTY);
		err = errno;
		free(dir);
		if (nfd == -1)
			goto fail;
		if (dfd != AT_FDCWD)
			close(dfd);
		dfd = nfd;
		for (p = cut; *p == '/'; p++)
			;
	}
	fd = openat(dfd, p, flags);
	err = errno;
	if (dfd != AT_FDCWD)
		close(dfd);
	errno = err;
	return fd;
fail:
	if (dfd != AT_FDCWD)
		close(dfd);
	errno = err;
	return -1;
}

int
ms_source_open_deep(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd == -1 && errno == ENAMETOOLONG)
		fd = open_long(path, flags);
	return fd;
}

atomic_bool ms_source_stdin_used;

int
ms_source_open(struct ms_source *s, const char *path, enum ms_io io)
{
	return open_path(s, path, io, false);
}

int
ms_source_open_regular(struct ms_source *s, const char *path, enum ms_io io)
{
	return open_path(s, path, io, true);
}

int
ms_source_open_as(struct ms_source *s, const char *path, enum ms_io io,
    bool walked)
{
	return open_path(s, path, io, walked);
}

/*
 * A regular file is watched from here on (source.h).  procfs says 0 and
 * sysfs a page for files of any length, and both say 0 blocks: where a
 * file has no blocks its size is not its length, and only fstat's answer
 * is compared (a file of holes alone, too).
 */
static void
watch(struct ms_source *s, const struct stat *st)
{
	s->watched = true;
	s->exact = st->st_blocks > 0;
	s->id.dev = st->st_dev;
	s->id.ino = st->st_ino;
	s->id.size = st->st_size;
	s->id.mtime = MS_ST_MTIM(st);
	s->id.ctime = MS_ST_CTIM(st);
	s->size = st->st_size;
	s->sized = true;
}

static bool
same_time(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* 1 if the watched s is no longer as it was opened, 0 if it is, -1 with errno. */
static int
changed(const struct ms_source *s)
{
	struct stat st;

	if (fstat(s->fd, &st) == -1)
		return -1;
	return st.st_dev != s->id.dev || st.st_ino != s->id.ino ||
	    st.st_size != s->id.size ||
	    !same_time(MS_ST_MTIM(&st), s->id.mtime) ||
	    !same_time(MS_ST_CTIM(&st), s->id.ctime);
}

/* What the open checks of a walked file: 0, or the errno to fail with. */
static int
regular_check(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return EISDIR;
	if (!S_ISREG(st->st_mode))
		return MS_ENOTREG;	/* a FIFO or device since the walk */
	return 0;
}

/*
 * The late watch (source_late.c says when it may stand): a small file a
 * walk found is read first, with pread (a FIFO put in its place since
 * the walk says ESPIPE before a byte of it is taken), and fstat'ed once
 * after.  Here, after that first read: the fstat, the checks the open
 * would have made, and the watch.  0 if the bytes read stand (the fstat
 * came after every one of them: s->fresh), 1 if they are to be read
 * again, -1 with errno.
 */
static int
late_watch(struct ms_source *s)
{
	struct stat st;
	int err;

	s->late = false;
	if (fstat(s->fd, &st) == -1)
		return -1;
	if ((err = regular_check(&st)) != 0) {
		errno = err;
		return -1;
	}
	watch(s, &st);
	s->fresh = ms_late_trusted(s, s->fd, &st);
	/* a range (--part) is read: its start is no file's start */
	s->remap = s->map_wanted && s->limit < 0 &&
	    s->size >= (off_t)MS_MMAP_MIN;
	return s->fresh ? 0 : 1;
}

int
ms_source_remap(struct ms_source *s)
{
	if (!s->remap) {
		errno = EINVAL;
		return -1;
	}
	s->remap = false;
	s->fresh = false;	/* bytes after the fstat are to come */
	s->eof = false;
	s->pos = 0;
	s->dropped = 0;
	s->map = true;
	sigbus_once();
	return 0;
}

static int
open_path(struct ms_source *s, const char *path, enum ms_io io, bool regular)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->name = path;
	s->size = -1;
	s->limit = -1;
	if (strcmp(path, "-") == 0 && !regular) {
		s->fd = STDIN_FILENO;
		ms_source_stdin_used = true;
	} else {
		int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY |
		    (regular ? O_NONBLOCK : 0);
		int err = 0;

		if (regular && ms_late_possible(io)) {
			ms_late_begin(s);	/* the moment before the open */
			s->positional = s->late;
			s->map_wanted = s->late && io == MS_IO_MMAP;
		}
		s->fd = ms_source_open_deep(path, flags);
		if (s->fd == -1)
			return -1;
		s->close_fd = true;
		/*
		 * O_NONBLOCK stays: reads of a regular file ignore it
		 * (read_some clears it should a file system say EAGAIN),
		 * which saves an fcntl per file, a tenth of the system
		 * calls of a tree of small files.
		 */
		s->nonblock = regular;
		if (s->late)
			return 0;	/* watched after the first read */
		/* Before the first byte: what the end is compared with. */
		if (fstat(s->fd, &st) == -1)
			err = errno;
		else if (regular)
			err = regular_check(&st);
		if (err != 0) {
			close(s->fd);
			s->fd = -1;
			errno = err;
			return -1;
		}
		if (S_ISREG(st.st_mode))
			watch(s, &st);
	}
	/*
	 * --io=auto reads (engine.c maps for tree digests alone).  Measured on
	 * the 2-core machine (cached files, MB/s, read vs mmap;
	 * bench/RESULTS.md has the table): 16 MiB xxh3
	 * 6644 vs 5414; 1 GiB xxh3 16133 vs 8076, sha256 1845 vs 1715; at
	 * 2 MiB a tie.  MAP_POPULATE in the reading thread and windows of 1
	 * to 64 MiB were tried; mapping never won, because setting up and
	 * tearing down page tables costs more than the copy it saves.
	 *
	 * Only files opened here are mapped: a standard input redirected
	 * from a file may already be past its start, and must be hashed
	 * from where it is, as read(2) does.
	 */
	if (io == MS_IO_MMAP && s->watched) {
		s->map = s->size >= (off_t)MS_MMAP_MIN;
		if (s->map)
			sigbus_once();
	}
	return 0;
}

bool
ms_source_is_stream(const char *path)
{
	struct stat st;

	if (strcmp(path, "-") == 0)
		return true;
#if !MS_HAVE_PROC_SELF_FD
	/* Elsewhere than Linux these duplicate a descriptor (and its
	 * offset) even for a regular file; Linux opens the file anew
	 * (through /proc/self/fd, which configure found). */
	if (strncmp(path, "/dev/std", 8) == 0 || strncmp(path, "/dev/fd/", 8) == 0)
		return true;
#endif
	if (stat(path, &st) == -1)
		return false;		/* the open will say why */
	return !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) &&
	    !S_ISBLK(st.st_mode);
}

void
ms_source_from_reader(struct ms_source *s, const char *name, ms_reader_fn *fn,
    void *arg)
{
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->fd = -1;
	s->size = -1;
	s->limit = -1;
	s->reader = fn;
	s->reader_arg = arg;
}

/* Where reading stops: a range's end, else the file's (or none). */
static off_t
stop(const struct ms_source *s, off_t end)
{
	return s->limit >= 0 && (end < 0 || s->limit < end) ? s->limit : end;
}

/*
 * --nocache: drop the pages of [off, off + len) (len 0: to the end).  One
 * at a time: two drops of one range at once each skip the pages the
 * other holds locked, and a worker's drop of a window it just unmapped
 * met the close's drop of the whole file that way, leaving a page cached
 * (1 run in 40 under ASan).  A mapped page is not dropped either: each
 * window drops its own after its munmap, and the close drops the rest.
 */
static pthread_mutex_t drop_lock = PTHREAD_MUTEX_INITIALIZER;

static void
drop_pages(int fd, off_t off, off_t len)
{
	pthread_mutex_lock(&drop_lock);
	ms_advise_dontneed(fd, off, len);
	pthread_mutex_unlock(&drop_lock);
}

static int
next_window(struct ms_source *s, struct ms_chunk *c)
{
	size_t len = (size_t)(stop(s, s->size) - s->pos);
	/* a range may start inside a page: map from the page's start */
	size_t skip = (size_t)(s->pos % (off_t)page_size);
	unsigned char *p;

	if (len > MS_MMAP_WINDOW)
		len = MS_MMAP_WINDOW;
	int slot = live_claim();

	if (slot == -1)
		return 0;	/* no room to guard another window: read */
	/* POPULATE: the page tables are built here, by whoever fetches the
	 * window, instead of one fault per page in the hashing thread; but
	 * not when several threads hash the windows (lazy), which then build
	 * them side by side instead of waiting for this one. */
	p = mmap(NULL, skip + len, PROT_READ, MAP_PRIVATE |
	    (s->lazy ? 0 : MS_MAP_POPULATE), s->fd, s->pos - (off_t)skip);
	if (p == MAP_FAILED) {
		live_drop(slot);
		return 0;	/* sysfs, some FUSE files: read them instead */
	}
	live_set(slot, p, skip + len);
	madvise(p, skip + len, MADV_SEQUENTIAL);
	c->p = p + skip;
	c->len = len;
	c->map = p;
	c->map_len = skip + len;
	c->live = slot;
	if (s->nocache) {
		c->drop_fd = fcntl(s->fd, F_DUPFD_CLOEXEC, 0);
		c->drop = c->drop_fd != -1;
		c->map_off = s->pos - (off_t)skip;	/* the mapping's pages */
	}
	s->pos += (off_t)len;
	s->dropped = s->pos;	/* the window drops its own pages */
	return 1;
}

int
ms_source_range(struct ms_source *s, uint64_t off, uint64_t len)
{
	struct stat st;

	if (s->fd == -1 || fstat(s->fd, &st) == -1)
		return -1;
	if (!S_ISREG(st.st_mode) || off > INT64_MAX || len > INT64_MAX - off) {
		errno = ESPIPE;
		return -1;
	}
	/* (a mapped source's page size came with its SIGBUS handler) */
	/* reads start at off: pread when mapped, else the offset moves */
	if (!s->map && lseek(s->fd, (off_t)off, SEEK_SET) == -1)
		return -1;
	s->pos = (off_t)off;
	s->limit = (off_t)(off + len);
	if (len == 0)
		s->eof = true;
	return 0;
}

static ssize_t
read_some(struct ms_source *s, void *buf, size_t cap, off_t off)
{
	ssize_t n;

	if (s->reader != NULL)
		return s->reader(s->reader_arg, buf, cap);
	for (;;) {
		int fl;

		/* A mapped file is read past its mapped size with pread:
		 * the descriptor's offset never moved; so is a late-watched
		 * one (ESPIPE for a FIFO, before a byte of it is taken). */
		n = s->map || s->positional ? pread(s->fd, buf, cap, off) :
		    read(s->fd, buf, cap);
		if (n >= 0)
			return n;
		if (errno == EINTR)
			continue;
		if (errno == EINVAL && s->direct) {
			/* an O_DIRECT read this file system will not make
			 * (an unaligned end): through the page cache, from
			 * here on */
			if (ms_ahead_direct_off(s) == -1)
				return -1;
			continue;
		}
		if ((errno != EAGAIN && errno != EWOULDBLOCK) || !s->nonblock)
			return -1;
		/* A file system that heeds O_NONBLOCK on a regular file:
		 * from now on this one blocks, as a plain open would. */
		fl = fcntl(s->fd, F_GETFL);
		if (fl == -1 || fcntl(s->fd, F_SETFL, fl & ~O_NONBLOCK) == -1)
			return -1;
		s->nonblock = false;
	}
}

/*
 * ms_source_next's first path, a mapped file: its next window into c (1,
 * or -1 with errno), or 0 to read on: from s->pos if it cannot be mapped,
 * or nothing (*cap 0) at the end of a file whose size is its length.
 */
static int
next_mapped(struct ms_source *s, struct ms_chunk *c, size_t *cap)
{
	if (s->map && !s->unmapped && s->pos < stop(s, s->size)) {
		int r = next_window(s, c);

		if (r != 0)
			return r;
		/* Not mappable: the rest is read (pread, from s->pos). */
		s->unmapped = true;
	} else if (s->map && !s->unmapped && s->watched && s->exact &&
	    s->pos == stop(s, s->size)) {
		/* Mapped to the end of a file whose size is its length: that
		 * is its end, without a read of 0; the check after the last
		 * byte, in next_end, sees a file grown since as changed. */
		s->eof = true;
		*cap = 0;
	}
	return 0;
}

/*
 * The second path: read up to cap bytes into buf (*got of them), to the
 * end of the file if it comes first (s->eof).  0, or -1 with errno.
 */
static int
next_read(struct ms_source *s, unsigned char *buf, size_t cap, size_t *got)
{
	while (*got < cap) {
		ssize_t n = read_some(s, buf + *got, cap - *got,
		    s->pos + (off_t)*got);

		if (n == -1) {
			int err = errno;

			/* not a regular file (ESPIPE: a FIFO) says so */
			if (s->late && late_watch(s) == -1)
				return -1;
			errno = err;
			return -1;
		}
		if (s->late) {
			int w = late_watch(s);

			if (w == -1)
				return -1;
			if (w == 1) {	/* read it again, watched */
				*got = 0;
				continue;
			}
		} else if (n > 0) {
			s->fresh = false;	/* a byte after the fstat */
		}
		if (n == 0) {
			s->eof = true;
			break;
		}
		*got += (size_t)n;
		/*
		 * A regular file read short exactly up to the size fstat gave:
		 * that is its end (a file system that stops short of the end
		 * also stops short of the size, and is read on).  A file that
		 * grows after this read is seen as a read of 0 would have.
		 */
		if (*got < cap && s->sized && s->size >= 0 &&
		    s->reader == NULL && s->pos + (off_t)*got == s->size) {
			s->eof = true;
			break;
		}
	}
	return 0;
}

/*
 * The third: got bytes were read (of cap asked); move on, and at the end
 * make the checks of a watched file.  0, or -1 with errno (MS_ECHANGED
 * for a file that changed while it was read).
 */
static int
next_end(struct ms_source *s, size_t cap, size_t got)
{
	if (got == cap && !s->advised && s->fd != -1 &&
	    s->pos + (off_t)got >= ADVISE_AT) {
		/* Half a MiB and more to come: worth a read-ahead hint (the
		 * engine reads small files in shares of its buffer, and a
		 * hint after each full share cost a call per file). */
		ms_advise_sequential(s->fd);
		s->advised = true;
	}
	s->pos += (off_t)got;
	/* a range (--part) ends at its end */
	if (s->limit >= 0 && s->pos >= s->limit)
		s->eof = true;
	if (s->eof && s->watched) {
		/* After the last byte: the one check a file costs (made
		 * already if the late watch came after every byte). */
		int c = s->exact && s->pos != stop(s, s->id.size) ? 1 :
		    s->fresh ? 0 : changed(s);

		if (c != 0) {
			if (c == 1)
				errno = MS_ECHANGED;
			return -1;
		}
	}
	/* What was read is in buf: its pages may go at once.  In steps,
	 * so that a small file costs one fadvise (at close), not two. */
	if (s->nocache && s->fd != -1 && s->pos - s->dropped >= DROP_STEP) {
		drop_pages(s->fd, s->dropped, s->pos - s->dropped);
		s->dropped = s->pos;
	}
	return 0;
}

static int
next_chunk(struct ms_source *s, struct ms_chunk *c, unsigned char *buf,
    size_t cap)
{
	size_t got = 0;
	int r;

	memset(c, 0, sizeof(*c));
	if (s->eof)
		return 0;
	if (buf == NULL) {
		/* the engine could not allocate this worker's buffer */
		errno = ENOMEM;
		return -1;
	}
	if ((r = next_mapped(s, c, &cap)) != 0)
		return r;
	if (s->limit >= 0 && (off_t)cap > s->limit - s->pos)
		cap = (size_t)(s->limit - s->pos);
	if (s->late && s->map_wanted && cap > MS_LATE_PROBE)
		cap = MS_LATE_PROBE;	/* a file to map reads no more */
	if (next_read(s, buf, cap, &got) == -1 || next_end(s, cap, got) == -1)
		return -1;
	if (got == 0)
		return 0;
	c->p = buf;
	c->len = got;
	return 1;
}

int
ms_source_next(struct ms_source *s, struct ms_chunk *c, unsigned char *buf,
    size_t cap)
{
	int r = next_chunk(s, c, buf, cap);

	/* a large file not in the page cache: its next reads started */
	if (r == 1 && !s->eof && s->reader == NULL)
		ms_ahead_next(s);
	return r;
}

off_t
ms_source_size(struct ms_source *s)
{
	struct stat st;

	if (!s->sized && s->fd != -1 && fstat(s->fd, &st) == 0 &&
	    S_ISREG(st.st_mode))
		s->size = st.st_size;
	s->sized = true;
	return s->size;
}

void
ms_chunk_release(struct ms_chunk *c)
{
	if (c->map != NULL) {
		live_drop(c->live);
		munmap(c->map, c->map_len);
	}
	if (c->drop) {
		drop_pages(c->drop_fd, c->map_off, (off_t)c->map_len);
		close(c->drop_fd);
	}
	c->map = NULL;
	c->drop = false;
}

int
ms_chunk_feed(const struct ms_chunk *c,
    void (*fn)(void *arg, const void *p, size_t n), void *arg)
{
	fn(arg, c->p, c->len);
	/* Whichever thread faulted, the window is marked: a read error. */
	if (c->map != NULL && atomic_load(&live[c->live].failed)) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int
ms_source_error(struct ms_source *s, int err)
{
	if (s->watched && s->fd != -1 && err != MS_ECHANGED && changed(s) == 1)
		return MS_ECHANGED;
	return err;
}

void
ms_source_close(struct ms_source *s)
{
	/* The whole file: read-ahead may have cached past what was read. */
	if (s->nocache && s->fd != -1)
		drop_pages(s->fd, 0, 0);
	if (s->close_fd && s->fd != -1)
		close(s->fd);
	s->fd = -1;
}
