/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * shatag.c - the text of cshatag's extended attributes and its classes.
 *
 * Owns the attribute names (user.shatag.ALG, user.shatag.ts), the
 * SECONDS.NANOSECONDS time and the hex digest as cshatag 2.x writes and
 * reads them, the tolerance for times that lost precision, and the table
 * that turns "time same/different/missing" and "digest
 * same/different/missing" into ok, timechange, outdated, corrupt or new.
 * Pure: the calls that read and write attributes are io/xattr_calls.c's, what
 * a run does with a class is modes/xattr.c's.
 */
#include "manifest/shatag.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

#define NS	((int64_t)1000000000)

const char *const ms_shatag_class_name[MS_SHATAG_CLASSES] = {
	[MS_SHATAG_OK] = "ok",
	[MS_SHATAG_TIMECHANGE] = "timechange",
	[MS_SHATAG_OUTDATED] = "outdated",
	[MS_SHATAG_CORRUPT] = "corrupt",
	[MS_SHATAG_NEW] = "new",
};

void
ms_shatag_name(const struct ms_digest_spec *spec, char *buf, size_t cap)
{
	char name[32];

	snprintf(buf, cap, MS_SHATAG_PREFIX "%s",
	    ms_spec_name(spec, name, sizeof(name)));
}

bool
ms_shatag_spec(const char *attr, struct ms_digest_spec *spec)
{
	const char *why;

	if (strncmp(attr, MS_SHATAG_PREFIX, strlen(MS_SHATAG_PREFIX)) != 0)
		return false;
	attr += strlen(MS_SHATAG_PREFIX);
	if (strcmp(attr, "ts") == 0)
		return false;
	/* Only the names this file writes: the display name of a row. */
	if (ms_algo_resolve(attr, 0, spec, &why) == -1)
		return false;
	{
		char buf[32];

		return strcmp(ms_spec_name(spec, buf, sizeof(buf)), attr) == 0;
	}
}

bool
ms_shatag_ts_format(int64_t ns, char buf[MS_SHATAG_TS_MAX])
{
	if (ns < 0)
		return false;
	snprintf(buf, MS_SHATAG_TS_MAX, "%010" PRId64 ".%09" PRId64, ns / NS,
	    ns % NS);
	return true;
}

/* Drop what old writers left after a value: a NUL (cshatag 1.0), a newline. */
static size_t
trim(const char *v, size_t n)
{
	while (n > 0 && (v[n - 1] == '\0' || v[n - 1] == '\n'))
		n--;
	return n;
}

bool
ms_shatag_ts_parse(const char *v, size_t n, int64_t *ns)
{
	int64_t sec = 0, frac = 0, unit = NS;
	size_t i = 0;

	n = trim(v, n);
	if (n == 0 || v[0] < '0' || v[0] > '9')
		return false;
	for (; i < n && v[i] >= '0' && v[i] <= '9'; i++) {
		if (sec > (INT64_MAX / NS - 9) / 10)
			return false;
		sec = sec * 10 + (v[i] - '0');
	}
	if (i < n && v[i] == '.') {
		if (++i == n)
			return false;
		for (; i < n && v[i] >= '0' && v[i] <= '9'; i++)
			if (unit > 1) {
				unit /= 10;
				frac += (v[i] - '0') * unit;
			}
	}
	if (i != n)
		return false;
	*ns = sec * NS + frac;
	return true;
}

/* The power of ten (1 ns to 1 s) a time's zeroed last digits show. */
static int64_t
precision(int64_t t)
{
	int64_t frac = t % NS, p = 1;

	if (frac < 0)
		frac += NS;
	if (frac == 0)
		return NS;
	while (frac % (p * 10) == 0)
		p *= 10;
	return p;
}

/* t cut down to a multiple of unit (floor, for times before 1970 too). */
static int64_t
cut(int64_t t, int64_t unit)
{
	int64_t q = t / unit;

	return (t % unit < 0 ? q - 1 : q) * unit;
}

bool
ms_shatag_ts_same(int64_t stored, int64_t actual)
{
	int64_t p = precision(stored), q = precision(actual);
	int64_t unit = p > q ? p : q;
	int64_t d = stored > actual ? stored - actual : actual - stored;

	if (stored == actual || cut(stored, unit) == cut(actual, unit))
		return true;
	/* A coarser stored time may have been rounded by its writer. */
	return p > q && d <= unit / 2;
}

bool
ms_shatag_digest_parse(const char *v, size_t n, unsigned char *out, size_t len)
{
	char hex[2 * MS_DIGEST_MAX + 1];

	n = trim(v, n);
	if (len > MS_DIGEST_MAX || n != 2 * len)
		return false;
	memcpy(hex, v, n);
	hex[n] = '\0';
	return ms_unhex(out, hex, len) == 0;
}

/* cshatag's decision.go, row for row: time status, digest status. */
static const enum ms_shatag_class decision[3][3] = {
	[MS_SHATAG_SAME] = {
		[MS_SHATAG_SAME] = MS_SHATAG_OK,
		[MS_SHATAG_DIFF] = MS_SHATAG_CORRUPT,
		[MS_SHATAG_MISS] = MS_SHATAG_NEW,
	},
	[MS_SHATAG_DIFF] = {
		[MS_SHATAG_SAME] = MS_SHATAG_TIMECHANGE,
		[MS_SHATAG_DIFF] = MS_SHATAG_OUTDATED,
		[MS_SHATAG_MISS] = MS_SHATAG_OUTDATED,
	},
	[MS_SHATAG_MISS] = {
		[MS_SHATAG_SAME] = MS_SHATAG_TIMECHANGE,
		[MS_SHATAG_DIFF] = MS_SHATAG_OUTDATED,
		[MS_SHATAG_MISS] = MS_SHATAG_NEW,
	},
};

enum ms_shatag_class
ms_shatag_classify(enum ms_shatag_status ts, enum ms_shatag_status digest)
{
	return decision[ts][digest];
}
