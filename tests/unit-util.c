/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * unit-util.c - base/util.c's pure helpers: hex, base64 (both ways, and
 * the refusals of what is not base64), RHash's base32, and size parsing
 * ("256K", "4MiB");
 * the status an allocation that cannot be had exits with, the words of
 * multisum's own errors, whole reads and writes (ms_read_full,
 * ms_write_full) over short transfers and the end of a file, and
 * ms_xasprintf.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

#include "tap.h"

static void
test_hex(void)
{
	static const unsigned char bytes[] = { 0x00, 0x01, 0x7f, 0x80, 0xab, 0xff };
	unsigned char back[sizeof(bytes)];
	char hex[2 * sizeof(bytes) + 1];

	ms_hex(hex, bytes, sizeof(bytes));
	tap_is_str(hex, "00017f80abff", "ms_hex writes lower-case pairs");
	ms_hex(hex, bytes, 0);
	tap_is_str(hex, "", "ms_hex of nothing is the empty string");
	tap_ok(ms_unhex(back, "00017F80abFF", sizeof(back)) == 0 &&
	    memcmp(back, bytes, sizeof(bytes)) == 0, "ms_unhex takes either case");
	tap_ok(ms_unhex(back, "0g", 1) == -1 && ms_unhex(back, "g0", 1) == -1 &&
	    ms_unhex(back, "0", 1) == -1 && ms_unhex(back, " 0", 1) == -1,
	    "ms_unhex refuses what is not two hex digits");
}

static void
test_base64(void)
{
	/* RFC 4648, section 10 */
	static const char *const rfc[][2] = {
		{ "", "" }, { "f", "Zg==" }, { "fo", "Zm8=" }, { "foo", "Zm9v" },
		{ "foob", "Zm9vYg==" }, { "fooba", "Zm9vYmE=" },
		{ "foobar", "Zm9vYmFy" },
	};
	static const char *const bad[] = {
		"Zg=", "Zg", "Zh==", "Zm9=", "Z===", "====", "Zg==Zg==", "Zm9v\n",
		"Zm 9", "Zg=a", "Zm9-", "Zm9_",
	};
	char text[64];
	unsigned char buf[64];

	for (size_t i = 0; i < MS_ARRAY_LEN(rfc); i++) {
		size_t n = strlen(rfc[i][0]);
		long got;
		char what[64];

		ms_base64(text, (const unsigned char *)rfc[i][0], n);
		snprintf(what, sizeof(what), "base64 of \"%s\" (RFC 4648)", rfc[i][0]);
		tap_is_str(text, rfc[i][1], what);
		if (n == 0)
			continue;
		got = ms_unbase64(buf, sizeof(buf), rfc[i][1], strlen(rfc[i][1]));
		tap_ok(got == (long)n && memcmp(buf, rfc[i][0], n) == 0,
		    "ms_unbase64 of \"%s\" is \"%s\"", rfc[i][1], rfc[i][0]);
	}
	for (size_t i = 0; i < MS_ARRAY_LEN(bad); i++) {
		/* the label must stay on one TAP line: newline as \n */
		size_t o = 0;

		for (const char *c = bad[i]; *c && o + 3 < sizeof(text); c++) {
			if (*c == '\n') {
				text[o++] = '\\';
				text[o++] = 'n';
			} else {
				text[o++] = *c;
			}
		}
		text[o] = '\0';
		tap_ok(ms_unbase64(buf, sizeof(buf), bad[i], strlen(bad[i])) == -1,
		    "ms_unbase64 refuses \"%s\"", text);
	}
	tap_ok(ms_unbase64(buf, 5, "Zm9vYmFy", 8) == -1 &&
	    ms_unbase64(buf, 6, "Zm9vYmFy", 8) == 6,
	    "ms_unbase64 never writes more than its capacity");
	/* every byte value and length survives the round trip */
	{
		unsigned char all[256], back[256];
		char t[4 * 86 + 1];
		bool ok = true;

		for (size_t i = 0; i < sizeof(all); i++)
			all[i] = (unsigned char)(255 - i);
		for (size_t n = 1; n <= sizeof(all) && ok; n++) {
			ms_base64(t, all, n);
			ok = strlen(t) == 4 * ((n + 2) / 3) &&
			    ms_unbase64(back, sizeof(back), t, strlen(t)) == (long)n &&
			    memcmp(all, back, n) == 0;
		}
		tap_ok(ok, "base64 round trip of 1..256 bytes of every value");
	}
}

/* RFC 4648's base32 vectors, lower case and unpadded as RHash writes. */
static void
test_base32(void)
{
	static const char *const rfc[][2] = {
		{ "f", "my" }, { "fo", "mzxq" }, { "foo", "mzxw6" },
		{ "foob", "mzxw6yq" }, { "fooba", "mzxw6ytb" },
		{ "foobar", "mzxw6ytboi" },
	};
	unsigned char buf[64], all[256], back[256];
	char text[512];
	bool ok = true;

	for (size_t i = 0; i < MS_ARRAY_LEN(rfc); i++) {
		size_t n = strlen(rfc[i][0]);

		ms_base32(text, (const unsigned char *)rfc[i][0], n);
		tap_is_str(text, rfc[i][1], "base32 of an RFC 4648 example");
		tap_ok(ms_unbase32(buf, n, rfc[i][1], strlen(rfc[i][1])) == 0 &&
		    memcmp(buf, rfc[i][0], n) == 0,
		    "ms_unbase32 of \"%s\"", rfc[i][1]);
	}
	tap_ok(ms_unbase32(buf, 6, "MZXW6YTBOI", 10) == 0 &&
	    memcmp(buf, "foobar", 6) == 0, "ms_unbase32 takes upper case");
	tap_ok(ms_unbase32(buf, 6, "mzxw6ytboj", 10) == -1,
	    "ms_unbase32 refuses bits set past the last byte");
	tap_ok(ms_unbase32(buf, 6, "mzxw6ytbo1", 10) == -1 &&
	    ms_unbase32(buf, 6, "mzxw6ytbo", 9) == -1 &&
	    ms_unbase32(buf, 5, "mzxw6ytboi", 10) == -1,
	    "ms_unbase32 refuses a stray character and a wrong length");
	for (size_t i = 0; i < sizeof(all); i++)
		all[i] = (unsigned char)(255 - i);
	for (size_t n = 1; n <= sizeof(all) && ok; n++) {
		ms_base32(text, all, n);
		ok = strlen(text) == (8 * n + 4) / 5 &&
		    ms_unbase32(back, n, text, strlen(text)) == 0 &&
		    memcmp(all, back, n) == 0;
	}
	tap_ok(ok, "base32 round trip of 1..256 bytes of every value");
}

static void
size_is(const char *s, size_t want)
{
	size_t got = 0;
	int rc = ms_parse_size(s, &got);

	tap_ok(rc == 0 && got == want, "ms_parse_size(\"%s\") is %zu", s, want);
	if (rc != 0 || got != want)
		tap_diag("  rc %d, got %zu", rc, got);
}

static void
test_parse_size(void)
{
	static const char *const bad[] = {
		"", "K", "-1", "+1", " 1", "1 ", "1.5M", "12X", "1KK", "1iB", "0x10",
		"1Ki", "99999999999999999999", "18446744073709551615K",
		"17179869184G",
	};

	size_is("0", 0);
	size_is("4096", 4096);
	size_is("256K", 256 * 1024);
	size_is("256k", 256 * 1024);
	size_is("4M", 4u << 20);
	size_is("1G", 1u << 30);
	size_is("1KiB", 1024);
	size_is("1kb", 1024);
	size_is("2MiB", 2u << 20);
	size_is("7B", 7);
	size_is("18446744073709551615", SIZE_MAX);
	for (size_t i = 0; i < MS_ARRAY_LEN(bad); i++) {
		size_t v = 12345;

		tap_ok(ms_parse_size(bad[i], &v) < 0 && v == 12345,
		    "ms_parse_size refuses \"%s\" and leaves the result alone", bad[i]);
	}
	/* and says why: no number, a suffix it does not know, too large */
	static const struct { const char *s; int rc; } why[] = {
		{ "", MS_SIZE_NAN }, { "K", MS_SIZE_NAN }, { "-1", MS_SIZE_NAN },
		{ "1T", MS_SIZE_SUFFIX }, { "12X", MS_SIZE_SUFFIX },
		{ "1Ki", MS_SIZE_SUFFIX }, { "1.5M", MS_SIZE_SUFFIX },
		{ "99999999999999999999", MS_SIZE_BIG },
		{ "18446744073709551615K", MS_SIZE_BIG },
	};
	for (size_t i = 0; i < MS_ARRAY_LEN(why); i++) {
		size_t v;
		int rc = ms_parse_size(why[i].s, &v);

		tap_ok(rc == why[i].rc, "ms_parse_size(\"%s\"): %s", why[i].s,
		    ms_size_error(why[i].rc));
		if (rc != why[i].rc)
			tap_diag("  rc %d, want %d", rc, why[i].rc);
	}
}

/* A name leaves its folder: absolute, or a ".." component. */
static void
test_path_leaves(void)
{
	static const char *const leaves[] = {
		"/etc/passwd", "..", "../x", "a/../../x", "a/..", "a//../b", "/",
	};
	static const char *const stays[] = {
		"x", "a/b", "..x", "x..", "a/..b/c", "./x", "a/./b", "...",
	};

	for (size_t i = 0; i < MS_ARRAY_LEN(leaves); i++)
		tap_ok(ms_path_leaves(leaves[i]), "\"%s\" leaves", leaves[i]);
	for (size_t i = 0; i < MS_ARRAY_LEN(stays); i++)
		tap_ok(!ms_path_leaves(stays[i]), "\"%s\" stays", stays[i]);
}

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED	1
#endif
#endif

/* Memory running out is exit 1, never the usage status 2 (in a child). */
static void
test_out_of_memory(void)
{
	pid_t pid;
	int st = -1;
	bool waited;

#ifdef SANITIZED
	/* ASan reports an impossible allocation and aborts, by design. */
	tap_skip("AddressSanitizer aborts instead", "ms_xmalloc out of memory");
	return;
#endif
	/* the child's exit(1) flushes stdio: nothing of ours may be in it */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		fclose(stderr);		/* its message is not the test's */
		ms_xmalloc(SIZE_MAX / 2);
		_exit(0);
	}
	waited = pid > 0 && waitpid(pid, &st, 0) == pid;
	tap_ok(waited && WIFEXITED(st) && WEXITSTATUS(st) == MS_EXIT_FAIL,
	    "ms_xmalloc of what cannot be had exits 1 (status %d)",
	    waited && WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

static void
test_strerror(void)
{
	tap_is_str(ms_strerror(MS_ECHANGED), "file changed as we read it",
	    "MS_ECHANGED has GNU tar's words");
	tap_is_str(ms_strerror(ENOENT), strerror(ENOENT),
	    "an errno has strerror's");
}

/* Whole transfers: a pipe's pieces read as one, a file at an offset, the
 * end of a file a short read with EIO. */
static void
test_read_write_full(void)
{
	char tmp[] = "/tmp/unit-util.XXXXXX";
	char buf[16] = "";
	int p[2], fd = mkstemp(tmp);
	ssize_t got;
	pid_t pid;

	if (fd == -1 || pipe(p) == -1) {
		tap_skip(strerror(errno), "ms_read_full and ms_write_full");
		return;
	}
	unlink(tmp);
	tap_ok(ms_write_full(fd, "0123456789", 10) == 0, "ms_write_full");
	got = ms_read_full(fd, buf, 4, 3);
	tap_ok(got == 4 && memcmp(buf, "3456", 4) == 0,
	    "ms_read_full at an offset (%zd)", got);
	errno = 0;
	got = ms_read_full(fd, buf, sizeof(buf), 6);
	tap_ok(got == 4 && errno == EIO && memcmp(buf, "6789", 4) == 0,
	    "ms_read_full to the end of the file: short, EIO (%zd)", got);
	close(fd);
	/* the writer's two pieces, the second after the reader has waited */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct timespec pause = { .tv_nsec = 50000000 };

		close(p[0]);
		ms_write_full(p[1], "abc", 3);
		nanosleep(&pause, NULL);
		ms_write_full(p[1], "def", 3);
		_exit(0);
	}
	close(p[1]);
	got = pid == -1 ? -1 : ms_read_full(p[0], buf, 6, -1);
	tap_ok(got == 6 && memcmp(buf, "abcdef", 6) == 0,
	    "ms_read_full of a pipe over its short reads (%zd)", got);
	close(p[0]);
	if (pid != -1)
		waitpid(pid, NULL, 0);
}

/* ms_xasprintf through ms_xvasprintf: the arguments read twice (length,
 * then text) give one string, however long. */
static void
test_xasprintf(void)
{
	char want[600];
	char *got;

	memset(want, 'x', 500);
	snprintf(want + 500, sizeof(want) - 500, "-%d-%s", 42, "end");
	got = ms_xasprintf("%.500s-%d-%s", want, 42, "end");
	tap_is_str(got, want, "ms_xasprintf of 507 bytes");
	free(got);
}

/*
 * ms_now_ns's instants as timespecs, and a condition variable whose timed
 * wait counts on that clock: on the real-time clock, a deadline 20 ms
 * after the monotonic now (hours since boot) would be long past, and the
 * wait would end at once.
 */
static void
test_monotonic_wait(void)
{
	struct timespec ts = ms_ns_timespec(1500000000u + 7);
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cv;
	uint64_t start, waited;
	int rc;

	tap_ok(ts.tv_sec == 1 && ts.tv_nsec == 500000007,
	    "1.500000007 s as a timespec");
	ms_cond_init_monotonic(&cv);
	pthread_mutex_lock(&m);
	start = ms_now_ns();
	ts = ms_ns_timespec(start + 20000000u);
	do
		rc = pthread_cond_timedwait(&cv, &m, &ts);
	while (rc == 0);	/* a spurious wake */
	waited = ms_now_ns() - start;
	pthread_mutex_unlock(&m);
	pthread_cond_destroy(&cv);
	tap_is_int(rc, ETIMEDOUT, "a timed wait ends at its deadline");
	tap_ok(waited >= 20000000u, "it waited the 20 ms (%llu us)",
	    (unsigned long long)(waited / 1000));
}

int
main(void)
{
	test_hex();
	test_base64();
	test_base32();
	test_parse_size();
	test_path_leaves();
	test_out_of_memory();
	test_strerror();
	test_read_write_full();
	test_xasprintf();
	test_monotonic_wait();
	return tap_done();
}
