/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_passphrase.c - the passphrase of a secret key: the first line
 * of --passphrase-file, or typed on the terminal with echo off.
 *
 * Owns /dev/tty, never standard input (which may be a list or a file to
 * hash) and never standard output.  The terminal's settings are restored
 * however the reading ends, also on SIGINT or SIGTERM while asking (and
 * the handler from before then runs: -o's removes its temporary file).
 */
#include "signature/signature_int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "base/quote.h"
#include "base/util.h"

#define FILE_MAX	(64 * 1024)

/* The terminal being asked on, for the signal handler to restore. */
static volatile sig_atomic_t tty_fd = -1;
static struct termios tty_saved;
/* The handlers before ours (-o's, which removes its temporary). */
static struct sigaction old_int, old_term;

/* Echo back on, then what the signal did before: -o's clean-up, or death. */
static void
on_signal(int sig)
{
	if (tty_fd != -1)
		tcsetattr(tty_fd, TCSAFLUSH, &tty_saved);
	sigaction(sig, sig == SIGINT ? &old_int : &old_term, NULL);
	raise(sig);
}

/* One line typed on fd, without its newline; -1 at EOF or an error. */
static int
read_line(int fd, char *buf, size_t cap)
{
	size_t n = 0;

	for (;;) {
		char c;
		ssize_t r = read(fd, &c, 1);

		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		if (c == '\n')
			break;
		if (n + 1 < cap)
			buf[n++] = c;
	}
	if (n > 0 && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	return 0;
}

/* Ask on the terminal fd, echo off; 0 or -1. */
static int
ask(int fd, const char *prompt, char *buf, size_t cap)
{
	struct termios quiet;
	struct sigaction sa;
	int rc;

	if (tcgetattr(fd, &tty_saved) == -1)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	tty_fd = fd;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	quiet = tty_saved;
	quiet.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
	quiet.c_lflag |= ICANON;
	tcsetattr(fd, TCSAFLUSH, &quiet);
	if (write(fd, prompt, strlen(prompt)) < 0) {
		/* the prompt is a courtesy; the answer is what counts */
	}
	rc = read_line(fd, buf, cap);
	tcsetattr(fd, TCSAFLUSH, &tty_saved);
	tty_fd = -1;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (write(fd, "\n", 1) < 0) {
		/* as above */
	}
	return rc;
}

/* The first line of --passphrase-file. */
static int
from_file(const char *path, char *buf, size_t cap)
{
	char *text;
	size_t len, n;
	int rc = 0;

	if (ms_file_read(path, FILE_MAX, &text, &len) == -1) {
		ms_warn("%s: %s", ms_quotef(path), errno == EFBIG ?
		    "too long for a passphrase file" : strerror(errno));
		rc = -1;
	} else {
		n = strcspn(text, "\n");
		if (n > 0 && text[n - 1] == '\r')
			n--;
		if (n >= cap) {
			ms_warn("%s: the passphrase is longer than %zu bytes",
			    ms_quotef(path), cap - 1);
			rc = -1;
		} else {
			memcpy(buf, text, n);
			buf[n] = '\0';
		}
	}
	if (text != NULL)
		explicit_bzero(text, len);
	free(text);
	return rc;
}

int
ms_passphrase_get(const struct ms_signature_opts *o, const char *prompt,
    bool twice, char *buf, size_t cap)
{
	char again[1024];
	int fd, rc;

	if (o->passphrase_file != NULL)
		return from_file(o->passphrase_file, buf, cap);
	fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd == -1)
		return 1;
	if (!isatty(fd)) {
		close(fd);
		return 1;
	}
	rc = ask(fd, prompt, buf, cap);
	if (rc == 0 && twice) {
		rc = ask(fd, "The same passphrase again: ", again, sizeof(again));
		if (rc == 0 && strcmp(buf, again) != 0) {
			ms_warn("the two passphrases differ");
			rc = -2;
		}
		explicit_bzero(again, sizeof(again));
	}
	close(fd);
	if (rc == -1)
		ms_warn("no passphrase was read from the terminal");
	if (rc != 0)
		explicit_bzero(buf, cap);
	return rc == 0 ? 0 : -1;
}

int
ms_passphrase_unlock(const struct ms_signature_opts *o, const char *prompt,
    char *buf, size_t cap)
{
	int got = ms_passphrase_get(o, prompt, false, buf, cap);

	if (got == 1)
		ms_warn("%s is encrypted: give --passphrase-file=FILE, or run "
		    "on a terminal to be asked", ms_quotef(o->sign));
	return got == 0 ? 0 : -1;
}
