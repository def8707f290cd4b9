/*
 * source.c - turn a path, standard input, a FIFO or a reader callback
 * into chunks.
 *
 * Owns open/fstat/mmap/read/close and nothing else: it never hashes and
 * never prints.  Regular files of at least MS_MMAP_MIN bytes may be
 * mapped, in windows of MS_MMAP_WINDOW bytes; the rest of the file
 * (all of it in read mode, and whatever grew past the size seen at open in
 * mmap mode) is read into the caller's buffer.  Owns the SIGBUS handler
 * that protects reads from mapped windows.
 */
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static _Thread_local sigjmp_buf *sigbus_guard;

static void
on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (sigbus_guard != NULL)
		siglongjmp(*sigbus_guard, 1);
	/* Not ours: die of it, as we would have without a handler. */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
install_sigbus(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	/* NODEFER: siglongjmp leaves the handler without restoring the
	 * mask, so SIGBUS must not be blocked while it runs. */
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

int
ms_source_open(struct ms_source *s, const char *path, enum ms_io io)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->name = path;
	s->size = -1;
	if (strcmp(path, "-") == 0) {
		s->fd = STDIN_FILENO;
	} else {
		s->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (s->fd == -1)
			return -1;
		s->close_fd = true;
	}
	/*
	 * --io=auto reads.  Measured on the 2-core machine (cached files,
	 * MB/s, read vs mmap; bench/RESULTS.md has the table): 16 MiB xxh3
	 * 6644 vs 5414; 1 GiB xxh3 16133 vs 8076, sha256 1845 vs 1715; at
	 * 2 MiB a tie.  MAP_POPULATE in the reading thread and windows of 1
	 * to 64 MiB were tried; mapping never won, because setting up and
	 * tearing down page tables costs more than the copy it saves.
	 *
	 * Only files opened here are mapped: a standard input redirected
	 * from a file may already be past its start, and must be hashed
	 * from where it is, as read(2) does.
	 */
	if (io == MS_IO_MMAP && s->close_fd && fstat(s->fd, &st) == 0 &&
	    S_ISREG(st.st_mode)) {
		s->size = st.st_size;
		s->sized = true;
		s->map = st.st_size >= (off_t)MS_MMAP_MIN;
		if (s->map)
			pthread_once(&once, install_sigbus);
	}
	return 0;
}

bool
ms_source_is_stream(const char *path)
{
	static const char *const shared[] = {
		"/dev/std", "/dev/fd/", "/proc/self/fd/",
	};
	struct stat st;

	if (strcmp(path, "-") == 0)
		return true;
	/* Elsewhere than Linux these duplicate a descriptor we may read. */
	for (size_t i = 0; i < MS_ARRAY_LEN(shared); i++)
		if (strncmp(path, shared[i], strlen(shared[i])) == 0)
			return true;
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
	s->reader = fn;
	s->reader_arg = arg;
}

static int
next_window(struct ms_source *s, struct ms_chunk *c)
{
	size_t len = (size_t)(s->size - s->pos);
	void *p;

	if (len > MS_MMAP_WINDOW)
		len = MS_MMAP_WINDOW;
	/* POPULATE: the page tables are built here, by whoever fetches the
	 * window, instead of one fault per page in the hashing thread. */
	p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, s->fd, s->pos);
	if (p == MAP_FAILED)
		return -1;
	madvise(p, len, MADV_SEQUENTIAL);
	c->p = p;
	c->len = len;
	c->map = p;
	c->map_len = len;
	s->pos += (off_t)len;
	return 1;
}

static ssize_t
read_some(struct ms_source *s, void *buf, size_t cap, off_t off)
{
	ssize_t n;

	if (s->reader != NULL)
		return s->reader(s->reader_arg, buf, cap);
	do
		/* A mapped file is read past its mapped size with pread:
		 * the descriptor's offset never moved. */
		n = s->map ? pread(s->fd, buf, cap, off) : read(s->fd, buf, cap);
	while (n == -1 && errno == EINTR);
	return n;
}

int
ms_source_next(struct ms_source *s, struct ms_chunk *c, unsigned char *buf,
    size_t cap)
{
	size_t got = 0;

	memset(c, 0, sizeof(*c));
	if (s->eof)
		return 0;
	if (s->map && s->pos < s->size)
		return next_window(s, c);
	while (got < cap) {
		ssize_t n = read_some(s, buf + got, cap - got,
		    s->pos + (off_t)got);

		if (n == -1)
			return -1;
		if (n == 0) {
			s->eof = true;
			break;
		}
		got += (size_t)n;
	}
	if (got == cap && !s->advised && s->fd != -1) {
		/* More than one buffer: worth a read-ahead hint. */
		posix_fadvise(s->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
		s->advised = true;
	}
	s->pos += (off_t)got;
	if (got == 0)
		return 0;
	c->p = buf;
	c->len = got;
	return 1;
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
	if (c->map != NULL)
		munmap(c->map, c->map_len);
	c->map = NULL;
}

int
ms_chunk_feed(const struct ms_chunk *c,
    void (*fn)(void *arg, const void *p, size_t n), void *arg)
{
	sigjmp_buf jb;

	if (c->map == NULL) {
		fn(arg, c->p, c->len);
		return 0;
	}
	if (sigsetjmp(jb, 0) != 0) {
		sigbus_guard = NULL;
		errno = EIO;
		return -1;
	}
	sigbus_guard = &jb;
	fn(arg, c->p, c->len);
	sigbus_guard = NULL;
	return 0;
}

void
ms_source_close(struct ms_source *s)
{
	if (s->close_fd && s->fd != -1)
		close(s->fd);
	s->fd = -1;
}
