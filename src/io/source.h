/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * source.h - something that yields bytes: a file, standard input, a FIFO,
 * or (through a reader callback) an archive member.
 *
 * A source hands out chunks.  In read mode a chunk lives in a buffer the
 * caller owns; in mmap mode it is a window of the mapped file, which the
 * caller gives back with ms_chunk_release.  Digests must consume mapped
 * chunks through ms_chunk_feed, which turns a SIGBUS (the file shrank
 * under the mapping), taken by any thread that touched the window, into
 * an EIO read error instead of a crash.
 *
 * A regular file opened by name is watched: what fstat says of it before
 * the first byte (device, inode, size, modification and change times) is
 * compared with what it says after the last, as GNU tar does, and a read
 * that ends short of the size or runs past it is a change too.  A file
 * that changed while it was read fails with MS_ECHANGED ("file changed
 * as we read it"), in read and mmap mode alike, so no digest of it is
 * ever handed on.  Standard input, FIFOs and devices have no such
 * identity; archive members (a reader callback) are checked by their
 * archive's reader, not here.
 */
#ifndef MS_SOURCE_H
#define MS_SOURCE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

enum ms_io { MS_IO_AUTO, MS_IO_MMAP, MS_IO_READ };

/* Files smaller than this are never mapped: one read is cheaper. */
#define MS_MMAP_MIN		(1u << 20)
/* The span of one mapped window. */
#define MS_MMAP_WINDOW		(4u << 20)

struct ms_chunk {
	const unsigned char *p;
	size_t		 len;
	void		*map;		/* mapping to release, or NULL */
	size_t		 map_len;
	int		 live;		/* its slot in source.c's registry */
	/* --nocache: the window's pages leave the page cache once it is
	 * unmapped, through a descriptor of its own (the source may be
	 * closed first) */
	bool		 drop;
	int		 drop_fd;
	off_t		 map_off;
};

/* What fstat says of a watched file, before and after. */
struct ms_file_id {
	dev_t		 dev;
	ino_t		 ino;
	off_t		 size;
	struct timespec	 mtime, ctime;
};

/* Reads up to cap bytes into buf; returns the count, 0 at the end, -1 with errno. */
typedef ssize_t ms_reader_fn(void *arg, void *buf, size_t cap);

struct ms_source {
	const char	*name;		/* for messages */
	int		 fd;		/* -1 when a reader callback serves */
	bool		 close_fd;	/* false for standard input */
	bool		 map;		/* mmap windows while pos < size */
	bool		 unmapped;	/* mmap failed: pread the rest */
	bool		 lazy;		/* map windows without their page
					 * tables: each hashing thread faults
					 * in its own (a big file's parts) */
	bool		 eof;		/* the last chunk has been handed out */
	bool		 advised;	/* sequential read-ahead hint given */
	bool		 nonblock;	/* opened O_NONBLOCK (a walked file):
					 * cleared only if a read says EAGAIN */
	off_t		 size;		/* regular files, once known; else -1 */
	bool		 sized;		/* size has been looked up */
	off_t		 pos;		/* bytes handed out so far */
	bool		 nocache;	/* --nocache: drop the pages read */
	off_t		 dropped;	/* read bytes dropped so far */
	bool		 watched;	/* a regular file: id, checked at the end */
	bool		 exact;		/* its size is its length: a read that
					 * ends elsewhere is a change (not so
					 * for procfs's and sysfs's files) */
	struct ms_file_id id;		/* as it was opened */
	bool		 late;		/* watched after the first read, not
					 * before (source.c: late_watch) */
	struct timespec	 opened_at;	/* late: the coarse clock before open */
	bool		 fresh;		/* watched after every byte so far */
	bool		 positional;	/* read with pread at pos */
	bool		 map_wanted;	/* late, opened for MS_IO_MMAP */
	bool		 remap;		/* late, and large enough to map:
					 * ms_source_remap may start it over */
	off_t		 limit;		/* a range's end (--part), else -1 */
	/* source_ahead.c: a large file not in the page cache */
	bool		 ahead_checked;	/* decided after the first chunk */
	int		 ahead_cached;	/* ms_page_cached's answer; -2 not asked */
	off_t		 ahead;		/* read ahead this far; 0: the kernel's */
	off_t		 ahead_step;	/* in hints of this many bytes */
	off_t		 hinted;	/* asked for up to here */
	unsigned	 ahead_ra_kb;	/* its device's read_ahead_kb, 0 unknown */
	const char	*ahead_dev;	/* its disk ("vda"), or NULL */
	bool		 direct;	/* read with O_DIRECT (ms_ahead_direct) */
	ms_reader_fn	*reader;
	void		*reader_arg;
};

/*
 * Open path ("-" is standard input) for reading in the given mode.
 * Returns -1 with errno set; s->name is set either way.
 */
int	 ms_source_open(struct ms_source *s, const char *path, enum ms_io io);
/*
 * open(2) of path with flags, also for a path longer than PATH_MAX (a
 * file or folder -r found deep in a tree): then walked down to by pieces
 * shorter than PATH_MAX, each relative to the last one's descriptor.
 */
int	 ms_source_open_deep(const char *path, int flags);

/* Set once a source "-" was opened: the personalities close stdin then. */
extern atomic_bool ms_source_stdin_used;

/*
 * As ms_source_open, for a file a directory walk found regular: opened
 * without blocking (it may have been replaced by a FIFO since), then
 * checked with fstat; anything but a regular file fails with MS_ENOTREG
 * (ms_strerror's words).  The size fstat gave is kept: a short read that
 * reaches it is the end of the file, with no read(2) of 0 bytes to say so.
 * On a local file system the fstat may come after the first read
 * instead of before it (source.c's late watch); the checks are the same.
 */
int	 ms_source_open_regular(struct ms_source *s, const char *path,
	    enum ms_io io);

/*
 * A file opened for MS_IO_MMAP but watched late cannot know its size
 * before its first read: that read is a short one (MS_LATE_PROBE bytes
 * at most), and if the file turns out large enough to map, s->remap is
 * set, and the caller (the engine, once it has room for a window) may
 * start it over from its first byte, mapped: ms_source_remap.  0, or -1
 * with errno.
 */
#define MS_LATE_PROBE		(16u << 10)
int	 ms_source_remap(struct ms_source *s);

/* ms_source_open_regular if walked, else ms_source_open. */
int	 ms_source_open_as(struct ms_source *s, const char *path, enum ms_io io,
	    bool walked);

/*
 * Is path a stream that must have one reader at a time, in operand order:
 * standard input ("-", /dev/stdin, /dev/fd/N) or anything not regular,
 * a directory or a block device (FIFOs, terminals, other character
 * devices, sockets)?  Two readers of one stream would split its data.
 */
bool	 ms_source_is_stream(const char *path);

/*
 * Only the len bytes from off of the (regular) file s was opened on
 * (--part): its chunks start at off and end at off + len or the file's
 * end.  -1 with errno (ESPIPE for a file that is not regular).
 */
int	 ms_source_range(struct ms_source *s, uint64_t off, uint64_t len);

/* A source that pulls its bytes from a callback (archive members). */
void	 ms_source_from_reader(struct ms_source *s, const char *name,
	    ms_reader_fn *fn, void *arg);

/*
 * The next chunk.  buf (cap bytes, caller-owned) is filled in read mode,
 * up to cap bytes or the end of the input.  Returns 1 with a chunk, 0 at
 * the end (no chunk), -1 with errno.  After a chunk, s->eof tells whether
 * it was the last one.  The read that reaches the end of a watched file
 * checks that it did not change: if it did, -1 with MS_ECHANGED (and the
 * last chunk is not handed out).
 */
int	 ms_source_next(struct ms_source *s, struct ms_chunk *c,
	    unsigned char *buf, size_t cap);

/* Unmap a mapped chunk (and with nocache drop its pages); else nothing. */
void	 ms_chunk_release(struct ms_chunk *c);

/* The size of a regular file (fstat on first use), or -1 for others. */
off_t	 ms_source_size(struct ms_source *s);

/*
 * Call fn(arg, p, n) on the chunk's bytes.  Returns -1 with errno EIO if
 * the mapped file shrank under it (SIGBUS), else 0.
 */
int	 ms_chunk_feed(const struct ms_chunk *c,
	    void (*fn)(void *arg, const void *p, size_t n), void *arg);

/*
 * The error to report for err, a failure while reading s (a read error, a
 * mapped window that faulted): MS_ECHANGED if s is watched and no longer
 * as it was opened (one fstat), else err.
 */
int	 ms_source_error(struct ms_source *s, int err);

/* Close the file; with nocache, first drop its pages from the cache
 * (posix_fadvise DONTNEED: those of windows still mapped go when they
 * are released). */
void	 ms_source_close(struct ms_source *s);

#endif
