/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util.h - errors, allocation and small helpers shared by every room.
 *
 * Nothing here knows about digests, files or formats.  Diagnostics go to
 * standard error prefixed with the program name that main() sets; the
 * allocation helpers never return NULL (they exit instead, with
 * exit_status.h's status for memory: 3 in native mode, 1 for the faces; the
 * engine allocates what is large with ms_try_aligned, so that one file
 * fails and not the run).
 */
#ifndef MS_UTIL_H
#define MS_UTIL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/types.h>
#include <time.h>

#define MS_ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* Exit statuses of the native mode (SPEC.md, Exit status). */
enum {
	MS_EXIT_OK = 0,
	MS_EXIT_FAIL = 1,	/* a failure: base/exit_status.h says which */
	MS_EXIT_USAGE = 2,	/* bad usage */
};

extern const char *ms_program;	/* for messages: basename of argv[0] */

/*
 * errno values of the project's own, beyond the system's, carried where
 * an errno is (errno, a task's err): MS_ENOTREG, a file found by a walk
 * that was no regular file any more when it was opened (a FIFO put in its
 * place would block the run); MS_ECHANGED, a file that changed while it
 * was read (io/source.h).
 */
#define MS_ENOTREG	4096
#define MS_ECHANGED	4097

/* strerror, which also knows MS_ENOTREG and MS_ECHANGED. */
const char *ms_strerror(int err);

void	ms_warn(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
void	ms_vwarn(const char *fmt, va_list ap)
	    __attribute__((format(printf, 1, 0)));
/* A message, then the end of the run: what the machine lacked (memory,
 * a thread), status 3 in native mode, 1 for the faces (exit_status.h). */
_Noreturn void ms_die(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
_Noreturn void ms_bug(const char *what);

/*
 * After a usage error: "Try 'PROGRAM --help' for more information." on
 * standard error, the one spelling of that hint for every face and mode
 * (PROGRAM is ms_program: multisum, or the face's own name).
 */
void	ms_try_help(void);
/* A usage error: the message as ms_warn writes it, the hint; MS_EXIT_USAGE. */
int	ms_usage_error(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));

/*
 * fn (or NULL) is called before every message, and before a line goes to
 * standard output when that is a terminal (ms_before_terminal_output,
 * which checks): it erases the progress line.
 */
void	ms_set_before_message(void (*fn)(void));
void	ms_before_terminal_output(void);

/* Make sure descriptors 0, 1 and 2 are open (to /dev/null if closed). */
void	ms_std_fds(void);
/* ms_std_fds found descriptor 0 closed (the personalities say so). */
extern bool ms_stdin_was_closed;

/* write(2) all of p[0..n) to fd, again after EINTR and short writes: 0,
 * or -1 with errno (EIO where write wrote nothing). */
int	ms_write_full(int fd, const void *p, size_t n);
/* read(2), or pread(2) at off unless off is -1, until p[0..n) is full
 * or the file ends, again after EINTR and short reads: the bytes read
 * (fewer than n only at the end of the file, errno EIO then), or -1 with
 * errno. */
ssize_t	ms_read_full(int fd, void *p, size_t n, off_t off);

struct sigaction;
/* Catch each of sig[0..n) with fn, all n blocked while fn runs; one the
 * caller ignores (nohup) stays ignored.  When old is not NULL, old[i]
 * receives what sig[i] was, to be put back by the caller. */
void	ms_signals_catch(const int *sig, size_t n, void (*fn)(int),
	    struct sigaction *old);

/* Say that standard output could not be written, as the tool should. */
void	ms_write_error(void);

/* At exit, close standard output; a write error then fails the run (3). */
void	ms_close_stdout_at_exit(void);

void	*ms_xmalloc(size_t n);
void	*ms_xcalloc(size_t cnt, size_t n);
void	*ms_xrealloc(void *p, size_t n);
void	*ms_xaligned(size_t align, size_t n);
/* As ms_xaligned, but NULL when there is no memory (an error to report). */
void	*ms_try_aligned(size_t align, size_t n);
char	*ms_xstrdup(const char *s);
char	*ms_xstrndup(const char *s, size_t n);
char	*ms_xasprintf(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
char	*ms_xvasprintf(const char *fmt, va_list ap)
	    __attribute__((format(printf, 1, 0)));
/* Free the n strings of v, then v (NULL with n 0 is fine). */
void	 ms_free_strings(char **v, size_t n);

/* A byte buffer that grows as bytes are added (exits if it cannot). */
struct ms_bytes {
	unsigned char	*p;
	size_t		 len, cap;
};

void	 ms_bytes_add(struct ms_bytes *b, const void *p, size_t n);
/* Room for n more bytes at b's end (b->len is the caller's to move). */
unsigned char *ms_bytes_room(struct ms_bytes *b, size_t n);
void	 ms_bytes_free(struct ms_bytes *b);

/* Do the len bytes at p begin with the string prefix? */
bool	 ms_begins(const void *p, size_t len, const char *prefix);

/* Case-insensitive ASCII comparison, independent of the locale. */
int	 ms_strcaseeq(const char *a, const char *b);

/* Does the relative name path leave the folder it is read in: is it
 * absolute, or has it a ".." component? */
bool	 ms_path_leaves(const char *path);

/*
 * Parse a size such as "256K" or "4M" (binary suffixes K, M, G; an optional
 * trailing "B" or "iB").  Returns 0, or why not: MS_SIZE_NAN (no number),
 * MS_SIZE_SUFFIX (text after the number that is no suffix), MS_SIZE_BIG
 * (more than a size_t holds); ms_size_error() words the reason.
 */
enum { MS_SIZE_NAN = -1, MS_SIZE_SUFFIX = -2, MS_SIZE_BIG = -3 };
int	 ms_parse_size(const char *s, size_t *out);
const char *ms_size_error(int rc);

/* Monotonic clock in nanoseconds. */
uint64_t ms_now_ns(void);

/* A condition variable whose timed waits count on ms_now_ns's clock, and
 * an instant of that clock as the timespec such a wait takes. */
void	 ms_cond_init_monotonic(pthread_cond_t *cv);
struct timespec ms_ns_timespec(uint64_t ns);

/* Lower-case hex of n bytes into out (2n + 1 bytes, NUL-terminated). */
void	 ms_hex(char *out, const unsigned char *p, size_t n);

/* Parse hex (either case) of exactly 2*n characters; -1 if not hex. */
int	 ms_unhex(unsigned char *out, const char *s, size_t n);
/*
 * The same, telling the case: 0 if one is not a hex digit, 1 if some
 * are upper case, 2 if all are as ms_hex writes them (eight digits a
 * step on a little-endian machine: the ledger's fast path).
 */
int	 ms_unhex_case(unsigned char *out, const char *s, size_t n);

/* RFC 4648 base64 of n bytes into out (4*ceil(n/3) + 1 bytes). */
void	 ms_base64(char *out, const unsigned char *p, size_t n);

/*
 * Decode strict base64 (padding required, no whitespace) into at most cap
 * bytes; returns the byte count, or -1 if s is not canonical base64.
 */
long	 ms_unbase64(unsigned char *out, size_t cap, const char *s, size_t len);
/* The same, with the padding optional, in RFC 4648's URL-safe alphabet
 * when url (Python's RECORD), else in its standard one (DSSE). */
long	 ms_unbase64_loose(unsigned char *out, size_t cap, const char *s,
	    size_t len, bool url);

/*
 * RFC 4648 base32 of n bytes, lower case and unpadded as RHash prints TTH
 * and AICH, into out (ceil(8n/5) + 1 bytes).
 */
void	 ms_base32(char *out, const unsigned char *p, size_t n);

/*
 * Decode unpadded base32 (either case) of exactly n bytes from len
 * characters; -1 unless len is ceil(8n/5) and every character and the
 * unused low bits are as ms_base32 writes them.
 */
int	 ms_unbase32(unsigned char *out, size_t n, const char *s, size_t len);

#endif
