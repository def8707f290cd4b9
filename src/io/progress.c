/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * progress.c - bytes, rate and time left, on standard error.
 *
 * Owns one reporting thread that wakes four times a second and redraws
 * the line; the engine only adds to an atomic counter, so the hashing
 * threads never wait for the terminal.  On a terminal the line is
 * redrawn in place and erased at the end; elsewhere (--progress into a
 * log) a line is written every few seconds.  Nothing here touches
 * standard output; the line is erased before every message and every
 * write to a terminal standard output, and redrawn at the next tick.
 */
#include "io/progress.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

#define TICK_NS		250000000ull	/* redraw period on a terminal */
#define DELAY_NS	1000000000ull	/* quiet start: short runs show nothing */
#define LOG_EVERY	8		/* ticks between lines off a terminal */

struct ms_progress {
	_Atomic uint64_t done;
	_Atomic uint64_t expected;
	pthread_t	 tid;
	pthread_mutex_t	 lock;
	pthread_cond_t	 cv;
	bool		 stopping;
	bool		 tty;
	bool		 drawn;
	uint64_t	 start;
};

/* "1.5 GB" with 10^3 units, as the MB/s of --bench. */
static void
human(char *buf, size_t cap, double v)
{
	static const char *const unit[] = { "B", "kB", "MB", "GB", "TB", "PB" };
	size_t u = 0;

	while (v >= 1000 && u + 1 < MS_ARRAY_LEN(unit)) {
		v /= 1000;
		u++;
	}
	snprintf(buf, cap, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
}

static void
draw(struct ms_progress *p, uint64_t now)
{
	uint64_t done = atomic_load_explicit(&p->done, memory_order_relaxed);
	uint64_t expected = atomic_load_explicit(&p->expected, memory_order_relaxed);
	double secs = (double)(now - p->start) / 1e9;
	double rate = secs > 0 ? (double)done / secs : 0;
	char d[32], e[32], r[32], left[32] = "";
	char line[160];

	human(d, sizeof(d), (double)done);
	human(r, sizeof(r), rate);
	if (expected > done && rate > 0) {
		unsigned long s = (unsigned long)((double)(expected - done) / rate);
		snprintf(left, sizeof(left), ", %lu:%02lu left", s / 60, s % 60);
	}
	if (expected > 0) {
		human(e, sizeof(e), (double)expected);
		snprintf(line, sizeof(line), "%s: %s of %s, %s/s%s", ms_program,
		    d, e, r, left);
	} else {
		snprintf(line, sizeof(line), "%s: %s, %s/s", ms_program, d, r);
	}
	if (p->tty)
		fprintf(stderr, "\r%s\033[K", line);
	else
		fprintf(stderr, "%s\n", line);
	fflush(stderr);
	p->drawn = true;
}

static void *
reporter(void *arg)
{
	struct ms_progress *p = arg;
	unsigned tick = 0;

	pthread_mutex_lock(&p->lock);
	while (!p->stopping) {
		struct timespec ts = ms_ns_timespec(ms_now_ns() + TICK_NS);
		uint64_t now;

		if (pthread_cond_timedwait(&p->cv, &p->lock, &ts) != ETIMEDOUT)
			continue;
		now = ms_now_ns();
		tick++;
		if (now - p->start >= DELAY_NS && (p->tty || tick % LOG_EVERY == 0))
			draw(p, now);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* The running progress line, for erase (one at a time). */
static struct ms_progress *current;

/* Before other output to the terminal: take the line away until the
 * next tick redraws it. */
static void
erase(void)
{
	struct ms_progress *p = current;

	if (p == NULL || !p->tty)
		return;
	pthread_mutex_lock(&p->lock);
	if (p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->drawn = false;
	}
	pthread_mutex_unlock(&p->lock);
}

struct ms_progress *
ms_progress_start(int mode)
{
	struct ms_progress *p;
	bool tty = isatty(STDERR_FILENO);

	if (mode == 0 || (mode < 0 && !tty))
		return NULL;
	p = ms_xcalloc(1, sizeof(*p));
	p->tty = tty;
	p->start = ms_now_ns();
	pthread_mutex_init(&p->lock, NULL);
	ms_cond_init_monotonic(&p->cv);
	if (pthread_create(&p->tid, NULL, reporter, p) != 0) {
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->cv);
		free(p);
		return NULL;	/* no progress line is no reason to fail */
	}
	current = p;
	ms_set_before_message(erase);
	return p;
}

void
ms_progress_expect(struct ms_progress *p, uint64_t bytes)
{
	if (p != NULL)
		atomic_fetch_add_explicit(&p->expected, bytes, memory_order_relaxed);
}

void
ms_progress_add(struct ms_progress *p, uint64_t bytes)
{
	if (p != NULL)
		atomic_fetch_add_explicit(&p->done, bytes, memory_order_relaxed);
}

void
ms_progress_stop(struct ms_progress *p)
{
	if (p == NULL)
		return;
	pthread_mutex_lock(&p->lock);
	p->stopping = true;
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->tid, NULL);
	ms_set_before_message(NULL);
	current = NULL;
	if (p->drawn && p->tty)
		fputs("\r\033[K", stderr);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cv);
	free(p);
}
