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
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

#define STATUS_PREFIX	"[GNUPG:] "
#define STATUS_MAX	(1 << 20)
#define FIELDS		12

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
 * The child, between fork and exec: only async-signal-safe calls (the
 * engine's threads may be running in the parent).  Never returns.
 */
static _Noreturn void
child(const char *prog, char *const argv[], int data, int sig, int status,
    int err, int null, int report)
{
	int e;

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

/* Write sig and data, read status and err, until all are done. */
static void
converse(struct stream *s, size_t n)
{
	for (;;) {
		struct pollfd p[4];
		size_t k = 0, map[4];

		for (size_t i = 0; i < n; i++)
			if (s[i].fd != -1) {
				p[k].fd = s[i].fd;
				p[k].events = s[i].in != NULL ? POLLIN : POLLOUT;
				map[k++] = i;
			}
		if (k == 0)
			return;
		if (poll(p, k, -1) == -1) {
			if (errno == EINTR)
				continue;
			return;
		}
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

int
ms_gpgv_run(const char *keyring, const char *sig, size_t siglen,
    const char *data, size_t len, char **status, size_t *status_len,
    char **why)
{
	const char *name = getenv("MULTISUM_GPGV");
	/* gpgv SIG DATA: the signature on 3, the data on standard input */
	const char *argv[] = { NULL, "--status-fd", "4",
	    "--enable-special-filenames", "--keyring", keyring, "--", "-&3", "-",
	    NULL };
	int pd[2], ps[2], pst[2], perr[2], prep[2], st, e = 0, null;
	struct stream s[4] = { { 0 } };
	void (*old_pipe)(int);
	char *prog;
	pid_t pid;

	*status = NULL;
	*status_len = 0;
	if (name == NULL || *name == '\0')
		name = "gpgv";
	argv[0] = name;
	prog = find_program(name);
	if (prog == NULL) {
		*why = ms_xasprintf("cannot run %s: %s (OpenPGP signatures are "
		    "checked with gpgv: install it, Debian's package gpgv)", name,
		    strerror(ENOENT));
		return -1;
	}
	if (pipe_high(pd) == -1 || pipe_high(ps) == -1 || pipe_high(pst) == -1 ||
	    pipe_high(perr) == -1 || pipe_high(prep) == -1) {
		*why = ms_xasprintf("gpgv: %s", strerror(errno));
		free(prog);
		return -1;
	}
	/* /dev/null high too, where no dup2 of the child lands */
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null != -1)
		null = high(null);
	old_pipe = signal(SIGPIPE, SIG_IGN);
	pid = fork();
	if (pid == 0)
		child(prog, (char *const *)argv, pd[0], ps[0], pst[1], perr[1],
		    null, prep[1]);
	free(prog);
	if (null != -1)
		close(null);
	close(pd[0]);
	close(ps[0]);
	close(pst[1]);
	close(perr[1]);
	close(prep[1]);
	if (pid == -1) {
		close(pd[1]), close(ps[1]), close(pst[0]), close(perr[0]);
		close(prep[0]);
		signal(SIGPIPE, old_pipe);
		*why = ms_xasprintf("gpgv: %s", strerror(errno));
		return -1;
	}
	s[0] = (struct stream){ .fd = ps[1], .out = sig, .left = siglen };
	s[1] = (struct stream){ .fd = pd[1], .out = data, .left = len };
	s[2] = (struct stream){ .fd = pst[0], .in = ms_xmalloc(STATUS_MAX + 1) };
	s[3] = (struct stream){ .fd = perr[0], .in = ms_xmalloc(STATUS_MAX + 1) };
	for (int i = 0; i < 2; i++)
		fcntl(s[i].fd, F_SETFL, fcntl(s[i].fd, F_GETFL) | O_NONBLOCK);
	converse(s, 4);
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	signal(SIGPIPE, old_pipe);
	if (read(prep[0], &e, sizeof(e)) != (ssize_t)sizeof(e))
		e = 0;
	close(prep[0]);
	free(s[3].in);
	if (e != 0) {
		free(s[2].in);
		*why = ms_xasprintf("cannot run %s: %s", name, strerror(e));
		return -1;
	}
	s[2].in[s[2].got] = '\0';
	*status = s[2].in;
	*status_len = s[2].got;
	return 0;
}
