/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tap.h - a tiny Test Anything Protocol emitter for the C unit tests.
 *
 * Each tap_* call prints one numbered "ok" or "not ok" line; tap_diag
 * adds "# " comment lines that the automake TAP driver shows in the log.
 * The plan goes at the end (tap_done), so tests need not count ahead.
 */
#ifndef MS_TAP_H
#define MS_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline void
tap_vok(int ok, const char *fmt, va_list ap)
{
	printf("%s %d - ", ok ? "ok" : "not ok", ++tap_n);
	vprintf(fmt, ap);
	putchar('\n');
	if (!ok)
		tap_failed++;
}

static inline void __attribute__((format(printf, 2, 3)))
tap_ok(int ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vok(ok, fmt, ap);
	va_end(ap);
}

/* A comment line: context for the "not ok" line before it. */
static inline void __attribute__((format(printf, 1, 2)))
tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* A test that cannot run here, and why. */
static inline void __attribute__((format(printf, 2, 3)))
tap_skip(const char *why, const char *fmt, ...)
{
	va_list ap;

	printf("ok %d - ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", why);
}

static inline void
tap_is_str(const char *got, const char *want, const char *what)
{
	int ok = strcmp(got, want) == 0;

	tap_ok(ok, "%s", what);
	if (!ok)
		printf("#   got:  %s\n#   want: %s\n", got, want);
}

static inline void
tap_is_int(long got, long want, const char *what)
{
	tap_ok(got == want, "%s", what);
	if (got != want)
		printf("#   got:  %ld\n#   want: %ld\n", got, want);
}

static inline int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	fflush(stdout);
	return 0;	/* failures are reported through the "not ok" lines */
}

#endif
