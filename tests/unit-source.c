/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * unit-source.c - the reading rules of io/source.c that no shell test can
 * reach: a walked file keeps O_NONBLOCK (a read of a regular file ignores
 * it), so a descriptor that answers EAGAIN must be made blocking and read
 * again, never reported as an error; and a short read that reaches the
 * size fstat gave ends the file, while one that stops short of it, or a
 * file with no known size, reads on to a read of 0.
 *
 * A pipe stands in for the file system that heeds O_NONBLOCK: the writer
 * thread writes only once the descriptor has been made blocking, so the
 * first read is sure to find nothing and say EAGAIN.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/source.h"

#include "tap.h"

struct writer {
	int		 fd;		/* the write end */
	int		 watch;		/* the read end, O_NONBLOCK until ... */
	atomic_bool	 stop;
	bool		 wrote;
};

static void *
write_when_blocking(void *arg)
{
	struct writer *w = arg;

	while (!atomic_load(&w->stop)) {
		int fl = fcntl(w->watch, F_GETFL);

		if (fl != -1 && !(fl & O_NONBLOCK)) {
			w->wrote = write(w->fd, "abc", 3) == 3;
			break;
		}
		sched_yield();
	}
	close(w->fd);
	return NULL;
}

static void
test_eagain_is_retried_blocking(void)
{
	int p[2];
	struct writer w = { 0 };
	struct ms_source s;
	struct ms_chunk c;
	unsigned char buf[64];
	pthread_t tid;
	int r;

	if (pipe(p) == -1) {
		tap_skip("no pipe", "EAGAIN is retried");
		return;
	}
	fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
	w.fd = p[1];
	w.watch = p[0];
	ms_source_from_reader(&s, "pipe", NULL, NULL);
	s.fd = p[0];
	s.close_fd = true;
	s.nonblock = true;	/* as open_path leaves a walked file */
	pthread_create(&tid, NULL, write_when_blocking, &w);
	r = ms_source_next(&s, &c, buf, sizeof(buf));
	atomic_store(&w.stop, true);
	pthread_join(tid, NULL);
	tap_is_int(r, 1, "EAGAIN: a chunk, not an error");
	tap_ok(r == 1 && c.len == 3 && memcmp(c.p, "abc", 3) == 0,
	    "EAGAIN: the bytes written once the descriptor blocks");
	tap_ok(w.wrote, "the descriptor was made blocking");
	tap_ok(!s.nonblock, "the source knows it blocks now");
	r = ms_source_next(&s, &c, buf, sizeof(buf));
	tap_is_int(r, 0, "then the end");
	ms_source_close(&s);
}

/*
 * A source over a pipe that holds data (len bytes) and whose writer is
 * still open: the read loop can end only by the size rule, or a read
 * would block; with no writer and O_NONBLOCK unset, a read of 0 ends it.
 */
static int
short_read(size_t len, off_t size, bool writer_open, size_t *got, bool *eof)
{
	int p[2];
	struct ms_source s;
	struct ms_chunk c;
	unsigned char buf[64], data[64];
	int r;

	if (pipe(p) == -1)
		return -2;
	memset(data, 'x', sizeof(data));
	if (write(p[1], data, len) != (ssize_t)len)
		return -2;
	if (!writer_open)
		close(p[1]);
	/* nothing more will come: a blocking read would hang, so the pipe
	 * is non-blocking and EAGAIN shows a read the rule should have
	 * spared */
	fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
	ms_source_from_reader(&s, "pipe", NULL, NULL);
	s.fd = p[0];
	s.close_fd = true;
	s.size = size;
	s.sized = size >= 0;
	r = ms_source_next(&s, &c, buf, sizeof(buf));
	*got = r == 1 ? c.len : 0;
	*eof = s.eof;
	ms_source_close(&s);
	if (writer_open)
		close(p[1]);
	return r;
}

static void
test_size_ends_a_short_read(void)
{
	size_t got;
	bool eof;
	int r;

	r = short_read(10, 10, true, &got, &eof);
	tap_ok(r == 1 && got == 10 && eof,
	    "a short read up to the known size is the end, with no more reads");
	r = short_read(10, 20, true, &got, &eof);
	tap_ok(r == -1 && errno == EAGAIN,
	    "a short read below the known size reads on");
	r = short_read(10, -1, true, &got, &eof);
	tap_ok(r == -1 && errno == EAGAIN, "no known size: reads on");
	r = short_read(10, -1, false, &got, &eof);
	tap_ok(r == 1 && got == 10 && eof, "no known size: a read of 0 ends it");
	r = short_read(0, 0, false, &got, &eof);
	tap_ok(r == 0 && eof, "an empty file: the end at once");
}

int
main(void)
{
	test_eagain_is_retried_blocking();
	test_size_ends_a_short_read();
	return tap_done();
}
