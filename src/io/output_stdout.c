/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output_stdout.c - standard output, written in whole lines as soon as
 * they are ready, for every mode that prints results (hash mode, NDJSON,
 * -c's report).
 *
 * A mode formats a result's lines on its own thread, into a memory
 * stream or (the common lines, ms_format_result_bytes) into a byte buffer
 * that is no FILE, and says when they are complete (ms_output_lines); the
 * complete lines move to a pending buffer (no stream flush for lines
 * that never went through it), and write(2) takes them from there: at once
 * on a terminal, and into a pipe or file at once too, unless results
 * come faster than one per PACE_NS.  Then they are gathered, up to a
 * batch, and written within PACE_NS by a writer thread (the output's own,
 * beside the engine's workers, also at -j 1), so that a reader (tee, a
 * log) sees each line about as soon as it is made, and a run killed
 * loses no line finished more than PACE_NS before.  Every write ends at
 * a line end and holds at most PIPE_BUF bytes into a pipe or terminal (a
 * longer line goes alone): runs sharing a pipe never mangle each other's
 * lines.
 *
 * Owns the memory stream, the pending lines, the writer thread and the
 * detection of write errors (a full disk, a closed pipe, /dev/full).  -o
 * is output.c's: its lines stay in the temporary file until the rename.
 */
#include "io/output_int.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/portable.h"
#include "base/util.h"

/* Standard output into a file: bytes gathered per write. */
#define BATCH		(1u << 16)

/*
 * Results closer together than this are gathered (a tree of small files:
 * a write a line would cost a system call each), and what is gathered is
 * written this long after the first of it at the latest.
 */
#define PACE_NS		1000000u	/* 1 ms */

struct ms_stdout {
	FILE		*fp;		/* the memory stream lines are formatted in */
	char		*mem;
	size_t		 memlen;
	size_t		 taken;		/* mem's bytes already pending */
	bool		 begun;		/* mem holds a line begun after them */
	size_t		 batch;		/* bytes gathered before a write */
	size_t		 most;		/* the most one write may carry */
	bool		 tty;		/* every line at once */
	/* under lock: */
	pthread_mutex_t	 lock;
	pthread_cond_t	 cv;		/* the writer waits here, and a flush
					 * for a write in progress */
	char		*pend;		/* complete lines not yet written */
	size_t		 pendlen, pendcap;
	char		*spare;		/* what a write in progress sends */
	size_t		 sparecap;
	bool		 writing;	/* a write(2) runs, outside the lock */
	uint64_t	 last_ns;	/* when the last result came */
	uint64_t	 due_ns;	/* 0, or when pend must be written */
	bool		 writer;	/* the writer thread runs */
	bool		 tried;		/* it was started (or needs none) */
	unsigned	 results;	/* calls with lines, until it starts */
	bool		 idle;		/* it waits with no deadline */
	unsigned	 waiters;	/* threads waiting for a write to end */
	bool		 closing;
	bool		 failed;	/* a write failed: the rest is dropped */
	int		 err;
	pthread_t	 tid;
};

static bool
line_end(char c)
{
	return c == '\n' || c == '\0';		/* NUL with -z */
}

/* Write p[0..len) in writes that end at line ends; 0 or an errno. */
static int
write_lines(const struct ms_stdout *so, const char *p, size_t len)
{
	const char *end = p + len;
	int err = 0;

	if (so->tty && p < end)
		ms_before_terminal_output();
	while (p < end && err == 0) {
		size_t n = (size_t)(end - p) < so->most ? (size_t)(end - p) : so->most;
		size_t cut = 0;

		for (size_t i = n; i > 0; i--)
			if (line_end(p[i - 1])) {
				cut = i;
				break;
			}
		if (cut == 0)	/* one line longer than a write may be: alone */
			for (cut = n; p + cut < end; cut++)
				if (line_end(p[cut])) {
					cut++;
					break;
				}
		err = ms_write_full(STDOUT_FILENO, p, cut) == -1 ? errno : 0;
		p += cut;
	}
	return err;
}

static void arm(struct ms_stdout *so);

/*
 * Under the lock: write what is pending.  The lines move to the spare
 * buffer and are written with the lock let go, so that the mode gathers
 * the next ones meanwhile.  With all (a flush, the end, no writer
 * thread) what it adds is written next, by the same thread; else, short
 * of a batch, it is due PACE_NS later, as any other lines: a write that
 * ended late (a busy machine, a sanitized build) was followed at once by
 * one of the few lines that came meanwhile, and so on, 84-206 writes
 * for 6,000 lines where 20-30 do.  If a write is in progress already
 * (the other thread's), it is left to that one, which keeps the order.
 */
static void
write_pending(struct ms_stdout *so, bool all)
{
	so->due_ns = 0;
	while (so->pendlen > 0 && !so->writing) {
		char *p = so->pend;
		size_t len = so->pendlen, cap = so->pendcap;
		int err;

		so->pend = so->spare;
		so->pendcap = so->sparecap;
		so->pendlen = 0;
		so->spare = p;
		so->sparecap = cap;
		so->writing = true;
		pthread_mutex_unlock(&so->lock);
		err = write_lines(so, p, len);
		pthread_mutex_lock(&so->lock);
		so->writing = false;
		if (err != 0 && !so->failed) {
			so->failed = true;
			so->err = err;
		}
		if (so->failed)		/* the rest is dropped */
			so->pendlen = 0;
		if (so->waiters > 0)
			pthread_cond_broadcast(&so->cv);
		if (!all && so->writer && so->pendlen > 0 &&
		    so->pendlen < so->batch) {
			arm(so);
			break;
		}
	}
}

/* Under the lock: wait for the end of a write in progress. */
static void
wait_write(struct ms_stdout *so)
{
	so->waiters++;
	pthread_cond_wait(&so->cv, &so->lock);
	so->waiters--;
}

/* Under the lock: wait until nothing is pending or being written. */
static void
drained(struct ms_stdout *so)
{
	write_pending(so, true);
	while (so->writing || so->pendlen > 0) {
		wait_write(so);
		write_pending(so, true);
	}
}

/*
 * On the mode's thread, under the lock: move the memory stream's whole
 * lines (all of it, with all: at the end, --raw writes no line end) to
 * the pending buffer.  What was moved stays in the stream, behind
 * taken, until REWIND bytes of it: then the stream starts again at its
 * beginning (a seek, and a move of a line begun, if any), not once a
 * result (a seek a line was a tenth of a tree of small files' output).
 */
#define REWIND		(1u << 16)

static void
take_lines(struct ms_stdout *so, bool all)
{
	size_t cut;

	if (fflush(so->fp) == EOF && !so->failed) {
		so->failed = true;
		so->err = errno;
	}
	for (cut = so->memlen; !all && cut > so->taken &&
	    !line_end(so->mem[cut - 1]); cut--)
		;
	if (cut > so->taken) {
		size_t n = cut - so->taken;

		if (so->pendlen + n > so->pendcap) {
			so->pendcap = so->pendlen + n > 2 * so->pendcap ?
			    so->pendlen + n : 2 * so->pendcap;
			so->pend = ms_xrealloc(so->pend, so->pendcap);
		}
		memcpy(so->pend + so->pendlen, so->mem + so->taken, n);
		so->pendlen += n;
		so->taken = cut;
	}
	so->begun = so->taken < so->memlen;
	if (so->taken >= REWIND) {
		memmove(so->mem, so->mem + so->taken, so->memlen - so->taken);
		fseeko(so->fp, (off_t)(so->memlen - so->taken), SEEK_SET);
		so->taken = 0;
	}
}

/* The writer thread: what is pending goes out when it is due. */
static void *
writer_main(void *arg)
{
	struct ms_stdout *so = arg;

	pthread_mutex_lock(&so->lock);
	while (!so->closing) {
		uint64_t now = ms_now_ns();

		if (so->writing) {
			wait_write(so);
		} else if (so->due_ns == 0) {
			so->idle = true;
			pthread_cond_wait(&so->cv, &so->lock);
			so->idle = false;
		} else if (now < so->due_ns) {
			struct timespec ts = ms_ns_timespec(so->due_ns);

			pthread_cond_timedwait(&so->cv, &so->lock, &ts);
		} else {
			write_pending(so, false);
		}
	}
	pthread_mutex_unlock(&so->lock);
	return NULL;
}

/*
 * Into a pipe or file, the writer thread, started under the lock with
 * the second result: a run of one file never pays for a thread (its
 * start and its end were a fifth of `multisum -a sha256 FILE`'s whole
 * time), and a run's threads depend on its operands, never on its
 * timing (tests count them).  Without one (it could not start), what is
 * gathered is written at once.
 */
static void
start_writer(struct ms_stdout *so)
{
	so->tried = true;
	so->writer = pthread_create(&so->tid, NULL, writer_main, so) == 0;
}

/*
 * Under the lock: what was just taken is due within PACE_NS.  The
 * deadline is read from the writer's own clock, once a batch: one taken
 * from the coarse clock lags it by up to a tick (4 ms here), so it was
 * mostly past already, and the writer, woken for each result, wrote each
 * alone (20,000 files of 1 KiB into a file: 340-3,800 writes and up to
 * 16,000 futex calls where about 100 and 300 do).
 */
static void
arm(struct ms_stdout *so)
{
	if (!so->writer) {		/* no thread: no waiting either */
		write_pending(so, true);
		return;
	}
	if (so->due_ns != 0)
		return;
	so->due_ns = ms_now_ns() + PACE_NS;
	/* A writer asleep on a deadline wakes to it anyway, and sees this. */
	if (so->idle)
		pthread_cond_broadcast(&so->cv);
}

int
ms_stdout_open(struct ms_output *out)
{
	struct ms_stdout *so = ms_xcalloc(1, sizeof(*so));
	struct stat st;

	so->fp = open_memstream(&so->mem, &so->memlen);
	if (so->fp == NULL) {
		ms_warn("%s", strerror(errno));
		free(so);
		return -1;
	}
	so->tty = isatty(STDOUT_FILENO);
	so->batch = BATCH;
	so->most = BATCH;
	/* Into a pipe (or a terminal) a write is atomic up to PIPE_BUF;
	 * a file or a device such as /dev/null takes whole batches. */
	if (so->tty || fstat(STDOUT_FILENO, &st) == -1 ||
	    S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
		so->most = so->batch = PIPE_BUF;
	pthread_mutex_init(&so->lock, NULL);
	ms_cond_init_monotonic(&so->cv);	/* the writer's deadlines */
	so->tried = so->tty;		/* a terminal takes every line at once */
	out->so = so;
	out->fp = so->fp;
	return 0;
}

/*
 * Under the lock: lines (complete, formatted without the stream) join
 * the pending ones, after a line begun in the stream if there is one
 * (b3sum's lead of a refused name): that one goes first, as it came.
 */
static void
take_bytes(struct ms_stdout *so, struct ms_bytes *lines)
{
	size_t n = lines->len;

	lines->len = 0;
	if (so->begun) {
		fwrite(lines->p, 1, n, so->fp);
		take_lines(so, false);
		return;
	}
	if (so->pendlen + n > so->pendcap) {
		so->pendcap = so->pendlen + n > 2 * so->pendcap ?
		    so->pendlen + n : 2 * so->pendcap;
		so->pend = ms_xrealloc(so->pend, so->pendcap);
	}
	memcpy(so->pend + so->pendlen, lines->p, n);
	so->pendlen += n;
}

void
ms_stdout_lines(struct ms_stdout *so, struct ms_bytes *lines)
{
	/*
	 * The coarse clock, cheaper a line, only tells a pause between two
	 * results: results within one tick (1-10 ms) are gathered.  The
	 * deadline of what is gathered is arm's, from the precise clock.
	 */
	uint64_t now = so->tty ? 0 : (uint64_t)ms_monotonic_coarse_ns();

	pthread_mutex_lock(&so->lock);
	if (lines->len > 0)
		take_bytes(so, lines);
	else
		take_lines(so, false);
	if (so->pendlen > 0) {
		if (!so->tried && so->results++ > 0)
			start_writer(so);
		if (so->tty || so->pendlen >= so->batch ||
		    now - so->last_ns >= PACE_NS)
			write_pending(so, false);
		else
			arm(so);
	}
	so->last_ns = now;
	pthread_mutex_unlock(&so->lock);
}

void
ms_stdout_flush(struct ms_stdout *so)
{
	pthread_mutex_lock(&so->lock);
	take_lines(so, false);
	drained(so);		/* written, before the message that follows */
	pthread_mutex_unlock(&so->lock);
}

int
ms_stdout_close(struct ms_stdout *so)
{
	int rc = 0;

	pthread_mutex_lock(&so->lock);
	take_lines(so, true);
	drained(so);
	so->closing = true;
	if (so->writer)
		pthread_cond_broadcast(&so->cv);
	pthread_mutex_unlock(&so->lock);
	if (so->writer)
		pthread_join(so->tid, NULL);
	pthread_cond_destroy(&so->cv);
	fclose(so->fp);
	free(so->mem);
	free(so->pend);
	free(so->spare);
	pthread_mutex_destroy(&so->lock);
	if (so->failed) {
		errno = so->err;
		ms_write_error();
		rc = -1;
	}
	free(so);
	return rc;
}
