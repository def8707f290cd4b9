/*
 * tap.h - a tiny Test Anything Protocol emitter for the C unit tests.
 */
#ifndef MS_TAP_H
#define MS_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static void
tap_ok(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!ok)
		tap_failed++;
}

static void
tap_is_str(const char *got, const char *want, const char *what)
{
	int ok = strcmp(got, want) == 0;

	tap_ok(ok, "%s", what);
	if (!ok)
		printf("#   got:  %s\n#   want: %s\n", got, want);
}

static int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	return 0;	/* failures are reported through the "not ok" lines */
}

#endif
