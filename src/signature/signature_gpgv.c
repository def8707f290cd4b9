/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_gpgv.c - OpenPGP signatures through gpgv, as apt checks them.
 *
 * gpgv is run with fork and exec (never a shell) on a keyring the user
 * gave: the signature comes in on descriptor 3 and the signed bytes on
 * standard input, both from memory, so what gpgv checks is exactly what
 * multisum then parses; its machine-readable --status-fd lines come back
 * on descriptor 4.  gpgv's exit status is not trusted (it is 0 for a key
 * that expired or was revoked): the verdict is read from GOODSIG,
 * VALIDSIG, BADSIG, EXPSIG, EXPKEYSIG, REVKEYSIG, ERRSIG and NO_PUBKEY
 * (GnuPG's doc/DETAILS), one signature after each NEWSIG.
 * MULTISUM_GPGV names another gpgv program.
 */
#include "signature/signature_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/quote.h"
#include "base/util.h"

#define STATUS_PREFIX	"[GNUPG:] "
#define STATUS_MAX	(1 << 20)
#define FIELDS		12
#define GPGV_BASE_S	3		/* gpgv answers in milliseconds */
#define GPGV_RATE	(32u << 20)	/* bytes hashed a second, at worst */

/* One signature's status lines, as far as they matter. */
struct one {
	bool		 seen;
	bool		 good, valid, bad, expired_key, revoked_key, expired;
	bool		 no_key, error;
	char		 keyid[65];
	char		 fpr[65], primary[65];
	char		 uid[160];
	int		 rc;		/* ERRSIG's reason code */
};

/* Split a status line's arguments at spaces; the last takes the rest. */
static size_t
fields(char *s, char **f, size_t most)
{
	size_t n = 0;

	while (*s != '\0' && n < most) {
		f[n++] = s;
		if (n == most)
			break;
		s += strcspn(s, " ");
		if (*s == '\0')
			break;
		*s++ = '\0';
	}
	return n;
}

static void
copy(char *dst, size_t cap, const char *src)
{
	ms_printable(dst, cap, src, strlen(src));
}

/* A fingerprint as --signer and VALIDSIG spell it: equal, any case. */
static bool
same_fpr(const char *a, const char *b)
{
	return a[0] != '\0' && strlen(a) == strlen(b) && ms_strcaseeq(a, b);
}

/* Fold one finished signature into the verdict. */
static void
judge_one(const struct one *s, const char *signer, struct ms_gpgv_verdict *v,
    bool *bad)
{
	char why[sizeof(v->why)];
	bool was_bad = *bad;

	if (!s->seen)
		return;
	why[0] = '\0';
	if (s->bad) {
		*bad = true;
		snprintf(why, sizeof(why), "BAD signature by %s (key %s): the "
		    "list is not what the key signed", s->uid, s->keyid);
	} else if (s->good && s->valid && (signer == NULL ||
	    same_fpr(signer, s->primary) || same_fpr(signer, s->fpr))) {
		if (!v->good) {
			v->good = true;
			copy(v->fpr, sizeof(v->fpr), s->primary[0] ? s->primary : s->fpr);
			copy(v->uid, sizeof(v->uid), s->uid);
		}
	} else if (s->good && s->valid)
		snprintf(why, sizeof(why), "signed by %s (%s), not by --signer=%s",
		    s->uid, s->primary[0] ? s->primary : s->fpr, signer);
	else if (s->expired_key)
		snprintf(why, sizeof(why), "signed by %s (key %s), which has "
		    "expired", s->uid, s->keyid);
	else if (s->revoked_key)
		snprintf(why, sizeof(why), "signed by %s (key %s), which was "
		    "revoked", s->uid, s->keyid);
	else if (s->expired)
		snprintf(why, sizeof(why), "the signature by %s (key %s) has "
		    "expired", s->uid, s->keyid);
	else if (s->no_key)
		snprintf(why, sizeof(why), "signed by key %s, which is not in "
		    "the keyring", s->keyid);
	else if (s->error)
		snprintf(why, sizeof(why), "the signature by key %s cannot be "
		    "checked (gpgv's ERRSIG reason %d)", s->keyid, s->rc);
	else
		snprintf(why, sizeof(why), "a signature gpgv did not call good");
	/* The first reason is the one said, but a BAD signature's first. */
	if (why[0] != '\0' && (v->why[0] == '\0' || (s->bad && !was_bad)))
		memcpy(v->why, why, sizeof(why));
}

/* One status line (without "[GNUPG:] ") into the current signature. */
static void
take(char *line, struct one *s)
{
	char *f[FIELDS];
	size_t n = fields(line, f, FIELDS);

	if (n == 0)
		return;
	if (strcmp(f[0], "GOODSIG") == 0 || strcmp(f[0], "BADSIG") == 0 ||
	    strcmp(f[0], "EXPSIG") == 0 || strcmp(f[0], "EXPKEYSIG") == 0 ||
	    strcmp(f[0], "REVKEYSIG") == 0) {
		s->seen = true;
		s->good |= f[0][0] == 'G';
		s->bad |= f[0][0] == 'B';
		s->expired |= strcmp(f[0], "EXPSIG") == 0;
		s->expired_key |= strcmp(f[0], "EXPKEYSIG") == 0;
		s->revoked_key |= f[0][0] == 'R';
		if (n > 1)
			copy(s->keyid, sizeof(s->keyid), f[1]);
		if (n > 2) {
			/* the user id is the rest of the line */
			for (size_t i = 3; i < n; i++)
				f[i][-1] = ' ';
			copy(s->uid, sizeof(s->uid), f[2]);
		}
	} else if (strcmp(f[0], "VALIDSIG") == 0 && n > 1 && f[1][0] != '\0') {
		s->seen = s->valid = true;
		copy(s->fpr, sizeof(s->fpr), f[1]);
		if (n > 10)
			copy(s->primary, sizeof(s->primary), f[10]);
	} else if (strcmp(f[0], "ERRSIG") == 0) {
		s->seen = s->error = true;
		if (n > 1)
			copy(s->keyid, sizeof(s->keyid), f[1]);
		s->rc = n > 6 ? atoi(f[6]) : -1;
		s->no_key |= s->rc == 9;
	} else if (strcmp(f[0], "NO_PUBKEY") == 0) {
		s->seen = s->no_key = true;
		if (n > 1)
			copy(s->keyid, sizeof(s->keyid), f[1]);
	}
	/* KEY_CONSIDERED, SIG_ID, KEYEXPIRED, NEWSIG ...: not a verdict */
}

void
ms_gpgv_judge(const char *status, size_t len, const char *signer,
    struct ms_gpgv_verdict *v)
{
	size_t plen = strlen(STATUS_PREFIX), at = 0;
	struct ms_line_view l;
	struct one s = { 0 };
	bool bad = false, any = false;
	char *line = ms_xmalloc(len + 1);

	memset(v, 0, sizeof(*v));
	while (ms_text_line(status, len, &at, &l)) {
		if (l.len < plen || memcmp(l.p, STATUS_PREFIX, plen) != 0)
			continue;
		memcpy(line, l.p + plen, l.len - plen);
		line[l.len - plen] = '\0';
		if (strncmp(line, "NEWSIG", 6) == 0 &&
		    (line[6] == '\0' || line[6] == ' ')) {
			judge_one(&s, signer, v, &bad);
			any |= s.seen;
			memset(&s, 0, sizeof(s));
		}
		take(line, &s);
	}
	judge_one(&s, signer, v, &bad);
	any |= s.seen;
	free(line);
	if (bad)
		v->good = false;
	if (!v->good && v->why[0] == '\0')
		snprintf(v->why, sizeof(v->why), any ? "no good signature" :
		    "gpgv found no signature in it");
}

/* Move fd to 10 or above, so that the child's dup2s cannot collide. */
static int
high(int fd)
{
	int h = fcntl(fd, F_DUPFD_CLOEXEC, 10);

	close(fd);
	return h;
}

/* The program's path: as named if it holds a slash, else found on PATH. */
static char *
find_program(const char *name)
{
	const char *path = getenv("PATH"), *p;

	if (strchr(name, '/') != NULL)
		return access(name, X_OK) == 0 ? ms_xstrdup(name) : NULL;
	for (p = path != NULL ? path : "/usr/bin:/bin"; ; p++) {
		size_t n = strcspn(p, ":");
		char *f = ms_xasprintf("%.*s/%s", n > 0 ? (int)n : 1,
		    n > 0 ? p : ".", name);

		if (access(f, X_OK) == 0)
			return f;
		free(f);
		p += n;
		if (*p == '\0')
			return NULL;
	}
}

/*
 * While gpgv runs, a signal that ends the run first kills gpgv and removes
 * the temporary keyring (kill, waitpid, unlink, sigaction and raise are
 * async-signal-safe), then does what it did before: -o's clean-up, or death.
 */
static const int guarded[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGALRM };
static struct sigaction guarded_old[MS_ARRAY_LEN(guarded)];
static volatile pid_t gpgv_pid = -1;
static char *volatile gpgv_tmp;

static void
on_signal(int sig)
{
	pid_t pid = gpgv_pid;
	char *tmp = gpgv_tmp;

	if (pid > 0 && kill(pid, SIGKILL) == 0)
		waitpid(pid, NULL, 0);
	if (tmp != NULL)
		unlink(tmp);
	for (size_t i = 0; i < MS_ARRAY_LEN(guarded); i++)
		if (guarded[i] == sig)
			sigaction(sig, &guarded_old[i], NULL);
	raise(sig);
}

/* Install on_signal (a signal the caller ignores stays ignored). */
static void
guard(void)
{
	ms_signals_catch(guarded, MS_ARRAY_LEN(guarded), on_signal,
	    guarded_old);
}

static void
unguard(void)
{
	for (size_t i = 0; i < MS_ARRAY_LEN(guarded); i++)
		if (guarded_old[i].sa_handler != SIG_IGN)
			sigaction(guarded[i], &guarded_old[i], NULL);
}

/* Hold the guarded signals off (1) or let them in (0). */
static void
hold(bool on, sigset_t *saved)
{
	sigset_t set;

	if (!on) {
		pthread_sigmask(SIG_SETMASK, saved, NULL);
		return;
	}
	sigemptyset(&set);
	for (size_t i = 0; i < MS_ARRAY_LEN(guarded); i++)
		sigaddset(&set, guarded[i]);
	pthread_sigmask(SIG_BLOCK, &set, saved);
}

/*
 * The child, between fork and exec: only async-signal-safe calls (the
 * engine's threads may be running in the parent).  Never returns.
 */
static _Noreturn void
child(const char *prog, char *const argv[], int data, int sig, int status,
    int err, int null, int report)
{
	sigset_t none;
	int e;

	/* the parent's handlers and mask are not gpgv's */
	for (size_t i = 0; i < MS_ARRAY_LEN(guarded); i++)
		if (guarded_old[i].sa_handler != SIG_IGN)
			signal(guarded[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	if (dup2(data, 0) == -1 || dup2(sig, 3) == -1 || dup2(status, 4) == -1 ||
	    dup2(err, 2) == -1 || (null != -1 && dup2(null, 1) == -1))
		_exit(126);
	signal(SIGPIPE, SIG_DFL);
	execv(prog, argv);
	e = errno;
	if (write(report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* A pipe both ends of which are 10 or above, close-on-exec. */
static int
pipe_high(int p[2])
{
	if (pipe(p) == -1)
		return -1;
	p[0] = high(p[0]);
	p[1] = high(p[1]);
	return p[0] == -1 || p[1] == -1 ? -1 : 0;
}

/* One direction of the conversation with gpgv. */
struct stream {
	int		 fd;
	const char	*out;		/* writing: what is left */
	size_t		 left;
	char		*in;		/* reading: what came */
	size_t		 got;
};

/* Milliseconds left until deadline (ms_now_ns's clock), 0 when past. */
static int
left_ms(uint64_t deadline)
{
	uint64_t now = ms_now_ns();

	if (now >= deadline)
		return 0;
	return (deadline - now) / 1000000u > INT_MAX ? INT_MAX :
	    (int)((deadline - now + 999999u) / 1000000u);
}

/* Write sig and data, read status and err, until all are done: 0, or -1
 * at the deadline. */
static int
converse(struct stream *s, size_t n, uint64_t deadline)
{
	for (;;) {
		struct pollfd p[4];
		size_t k = 0, map[4];
		int ready, ms;

		for (size_t i = 0; i < n; i++)
			if (s[i].fd != -1) {
				p[k].fd = s[i].fd;
				p[k].events = s[i].in != NULL ? POLLIN : POLLOUT;
				map[k++] = i;
			}
		if (k == 0)
			return 0;
		if ((ms = left_ms(deadline)) == 0)
			return -1;
		ready = poll(p, k, ms);
		if (ready == -1 && errno == EINTR)
			continue;
		if (ready == -1)
			return 0;
		for (size_t j = 0; j < k; j++) {
			struct stream *t = &s[map[j]];
			ssize_t r;

			if (p[j].revents == 0)
				continue;
			if (t->in != NULL) {
				r = t->got < STATUS_MAX ? read(t->fd, t->in + t->got,
				    STATUS_MAX - t->got) : 0;
				if (r > 0)
					t->got += (size_t)r;
			} else {
				r = t->left > 0 ? write(t->fd, t->out, t->left) : 0;
				if (r > 0) {
					t->out += r;
					t->left -= (size_t)r;
				}
				if (t->left > 0 && r > 0)
					continue;
			}
			if (r == -1 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (r <= 0 || t->in == NULL) {
				close(t->fd);
				t->fd = -1;
			}
		}
	}
}

/* gpgv's time limit for len bytes signed, in seconds; 0 if the
 * environment's is not a number. */
static unsigned
time_limit(size_t len)
{
	const char *e = getenv("MULTISUM_GPGV_TIMEOUT");
	unsigned long v;
	char *end;

	if (e == NULL || *e == '\0')
		return GPGV_BASE_S + (unsigned)(len / GPGV_RATE);
	errno = 0;
	v = strtoul(e, &end, 10);
	if (errno != 0 || *end != '\0' || *e == '-' || v == 0 || v > 86400)
		return 0;
	return (unsigned)v;
}

/* Wait for pid until deadline: true when it has ended. */
static bool
reap(pid_t pid, int *st, uint64_t deadline)
{
	for (;;) {
		pid_t r = waitpid(pid, st, WNOHANG);

		if (r == pid || (r == -1 && errno != EINTR))
			return true;
		if (r == 0) {
			struct timespec nap = { 0, 5000000 };

			if (left_ms(deadline) == 0)
				return false;
			nanosleep(&nap, NULL);
		}
	}
}

/*
 * Give gpgv (pid) the signature and the data on fd[0] and fd[1], take
 * its status lines on fd[2] into *status (malloc, NUL-ended) and its
 * messages on fd[3], until it has ended or the deadline passed; then it
 * is killed.  True if it was late.
 */
static bool
talk(pid_t pid, const int fd[4], const char *sig, size_t siglen,
    const char *data, size_t len, uint64_t deadline, char **status,
    size_t *status_len)
{
	struct stream s[4];
	bool late;
	int st;

	s[0] = (struct stream){ .fd = fd[0], .out = sig, .left = siglen };
	s[1] = (struct stream){ .fd = fd[1], .out = data, .left = len };
	s[2] = (struct stream){ .fd = fd[2], .in = ms_xmalloc(STATUS_MAX + 1) };
	s[3] = (struct stream){ .fd = fd[3], .in = ms_xmalloc(STATUS_MAX + 1) };
	for (int i = 0; i < 2; i++)
		fcntl(s[i].fd, F_SETFL, fcntl(s[i].fd, F_GETFL) | O_NONBLOCK);
	late = converse(s, 4, deadline) == -1 || !reap(pid, &st, deadline);
	if (late) {
		kill(pid, SIGKILL);
		while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
			;
		for (int i = 0; i < 4; i++)
			if (s[i].fd != -1)
				close(s[i].fd);
	}
	free(s[3].in);
	s[2].in[s[2].got] = '\0';
	*status = s[2].in;
	*status_len = s[2].got;
	return late;
}

/* The gpgv to run: its path (malloc) and *name; NULL with *why. */
static char *
program(const char **name, unsigned limit, char **why)
{
	char *prog;

	*name = getenv("MULTISUM_GPGV");
	if (*name == NULL || **name == '\0')
		*name = "gpgv";
	if (limit == 0) {
		*why = ms_xasprintf("MULTISUM_GPGV_TIMEOUT=%s is not a number of "
		    "seconds (1 to 86400)", getenv("MULTISUM_GPGV_TIMEOUT"));
		return NULL;
	}
	prog = find_program(*name);
	if (prog == NULL)
		*why = ms_xasprintf("cannot run %s: %s (OpenPGP signatures are "
		    "checked with gpgv: install it, Debian's package gpgv)", *name,
		    strerror(ENOENT));
	return prog;
}

/* The dearmoured keyring into a temporary file in TMPDIR: its path
 * (malloc), or NULL with *why.  Called with the signals held. */
static char *
write_keyring(const unsigned char *bin, size_t len, char **why)
{
	const char *dir = getenv("TMPDIR");
	char *path = ms_xasprintf("%s/multisum-keyring.XXXXXX",
	    dir != NULL && *dir != '\0' ? dir : "/tmp");
	int fd = mkstemp(path);

	if (fd != -1 && write(fd, bin, len) == (ssize_t)len && close(fd) == 0)
		return path;
	*why = ms_xasprintf("%s: %s", ms_quotef(path), strerror(errno));
	if (fd != -1) {
		close(fd);
		unlink(path);
	}
	free(path);
	return NULL;
}

int
ms_gpgv_run(const char *keyring, const unsigned char *bin, size_t binlen,
    const char *sig, size_t siglen, const char *data, size_t len,
    char **status, size_t *status_len, char **why)
{
	const char *name;
	/* gpgv SIG DATA: the signature on 3, the data on standard input */
	const char *argv[] = { NULL, "--status-fd", "4",
	    "--enable-special-filenames", "--keyring", keyring, "--", "-&3", "-",
	    NULL };
	int pd[2], ps[2], pst[2], perr[2], prep[2], e = 0, null;
	void (*old_pipe)(int);
	unsigned limit = time_limit(len);
	uint64_t deadline;
	bool late;
	sigset_t saved;
	char *prog, *tmp = NULL, *got;
	size_t got_len;
	pid_t pid;

	*status = NULL;
	*status_len = 0;
	if ((prog = program(&name, limit, why)) == NULL)
		return -1;
	argv[0] = name;
	guard();
	hold(true, &saved);
	if (bin != NULL && (tmp = write_keyring(bin, binlen, why)) == NULL) {
		hold(false, &saved);
		unguard();
		free(prog);
		return -1;
	}
	gpgv_tmp = tmp;
	if (tmp != NULL)
		argv[5] = tmp;
	if (pipe_high(pd) == -1 || pipe_high(ps) == -1 || pipe_high(pst) == -1 ||
	    pipe_high(perr) == -1 || pipe_high(prep) == -1) {
		*why = ms_xasprintf("gpgv: %s", strerror(errno));
		free(prog);
		hold(false, &saved);
		goto done;
	}
	/* /dev/null high too, where no dup2 of the child lands */
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null != -1)
		null = high(null);
	old_pipe = signal(SIGPIPE, SIG_IGN);
	deadline = ms_now_ns() + (uint64_t)limit * 1000000000u;
	pid = fork();
	if (pid == 0)
		child(prog, (char *const *)argv, pd[0], ps[0], pst[1], perr[1],
		    null, prep[1]);
	gpgv_pid = pid;
	hold(false, &saved);
	free(prog);
	if (null != -1)
		close(null);
	close(pd[0]);
	close(ps[0]);
	close(pst[1]);
	close(perr[1]);
	close(prep[1]);
	if (pid == -1) {
		e = errno;
		close(pd[1]), close(ps[1]), close(pst[0]), close(perr[0]);
		close(prep[0]);
		signal(SIGPIPE, old_pipe);
		*why = ms_xasprintf("gpgv: %s", strerror(e));
		goto done;
	}
	late = talk(pid, (const int[4]){ ps[1], pd[1], pst[0], perr[0] }, sig,
	    siglen, data, len, deadline, &got, &got_len);
	signal(SIGPIPE, old_pipe);
	if (read(prep[0], &e, sizeof(e)) != (ssize_t)sizeof(e))
		e = 0;
	close(prep[0]);
	if (late || e != 0) {
		free(got);
		*why = late ? ms_xasprintf("%s did not answer within %u s (killed; "
		    "MULTISUM_GPGV_TIMEOUT sets the limit)", name, limit) :
		    ms_xasprintf("cannot run %s: %s", name, strerror(e));
		goto done;
	}
	*status = got;
	*status_len = got_len;
done:
	hold(true, &saved);
	gpgv_pid = -1;
	gpgv_tmp = NULL;
	if (tmp != NULL)
		unlink(tmp);
	hold(false, &saved);
	unguard();
	free(tmp);
	return *status != NULL ? 0 : -1;
}
