/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_resolve.c - what a list's guessed digests turn out to be.
 *
 * An untagged digest taken by its length or its list's name is a guess
 * (sha512 for 128 hex digits, though whirlpool, sha3-512 and blake2b
 * write them too).  When a file does not match its guess, it is read
 * once more, through every algorithm that may stand in for the guess
 * (ms_manifest_stand_ins: never a weaker one, so that an XXH128 is never
 * taken for an MD5) in one pass; what matches is the list's algorithm
 * for its digests of that length from then on, said once on standard
 * error, and the guess stays when none does, so that a list costs one
 * such read at most; a guess that matches is the list's algorithm so
 * too, and a later file that fails it is not read again.  The list's
 * first guess is its probe: its later records wait for its verdict
 * before they are submitted, so that none of them is read with the
 * wrong guess, unless the probe is big (MS_PROBE_MAX) or the lists are
 * --per-dir's, when waiting would cost more than reading again, with
 * the list's algorithm only, a file hashed with the guess meanwhile.
 *
 * Owns that decision and the reads it takes, on the calling thread;
 * never standard input or a stream, never an archive member (which
 * cannot be read twice).  It prints nothing but that one line.
 */
#include "modes/check_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/engine_sequential.h"
#include "io/source.h"
#include "base/quote.h"
#include "base/util.h"

const struct ms_digest_spec *
ms_check_found(const struct manifest *m, size_t len)
{
	for (size_t i = 0; i < m->nfound; i++)
		if (ms_spec_len(&m->found[i]) == len)
			return &m->found[i];
	return NULL;
}

void
ms_check_matched(struct manifest *m, const struct rec *rec)
{
	const struct ms_selection *sel = rec->task->sel;

	for (size_t i = 0; i < rec->n && i < sel->cnt; i++)
		if ((rec->guessed >> i & 1) &&
		    m->nfound < MS_ARRAY_LEN(m->found) &&
		    ms_check_found(m, ms_spec_len(&sel->spec[i])) == NULL)
			m->found[m->nfound++] = sel->spec[i];
}

void
ms_check_settle(struct run *r, struct rec *rec)
{
	struct ms_task *t = rec->task;
	struct ms_digest_spec now[MS_MANIFEST_DIGESTS];
	const struct ms_digest_spec *found;
	const struct ms_selection *sel;
	bool moved = false;

	if (rec->guessed == 0 || t->sel->cnt != rec->n)
		return;
	for (size_t i = 0; i < rec->n; i++) {
		now[i] = t->sel->spec[i];
		found = ms_check_found(rec->m, ms_spec_len(&now[i]));
		if ((rec->guessed >> i & 1) && found != NULL &&
		    !ms_spec_same(found, &now[i])) {
			now[i] = *found;
			moved = true;
		}
	}
	if (!moved)
		return;
	sel = ms_check_selection_for(&r->reg, now, rec->n);
	/* a selection that merged two of them: keep the guess */
	if (sel->cnt != rec->n || sel->out_len != t->sel->out_len)
		return;
	t->sel = sel;
	if (rec->n == 1)
		rec->how = MS_BY_TRIAL;
}

bool
ms_check_probe(struct run *r, struct rec *rec)
{
	struct manifest *m = rec->m;
	const struct ms_selection *sel = rec->task->sel;
	bool open = false;
	struct stat sb;

	/* --per-dir's lists are many and small: each waiting would drain
	 * the engine once a folder */
	if (m->probed || rec->guessed == 0 || r->engine == NULL ||
	    r->prefix != NULL || ms_source_is_stream(rec->task->path))
		return false;
	for (size_t i = 0; i < rec->n && i < sel->cnt; i++)
		open |= (rec->guessed >> i & 1) &&
		    ms_check_found(m, ms_spec_len(&sel->spec[i])) == NULL;
	if (!open || stat(rec->task->path, &sb) == -1 ||
	    !S_ISREG(sb.st_mode) || (long long)sb.st_size > MS_PROBE_MAX)
		return false;
	m->probed = m->probing = rec->probe = true;
	return true;
}

/* path's digests under sel in one read, into out; -1 with errno. */
static int
read_through(const struct run *r, const char *path,
    const struct ms_selection *sel, unsigned char *out)
{
	size_t cap = r->cfg.buffer_size != 0 ? r->cfg.buffer_size :
	    (size_t)256 << 10;
	struct ms_digest_set set;
	struct ms_source src;
	unsigned char *buf;
	uint64_t size;
	int rc;

	if (ms_source_open(&src, path, MS_IO_READ) == -1)
		return -1;
	buf = ms_xaligned(4096, cap);
	ms_digest_set_create(&set, sel);
	rc = ms_sequential_hash_source(&src, &set, buf, cap, NULL, out, &size);
	ms_digest_set_destroy(&set);
	free(buf);
	ms_source_close(&src);
	return rc;
}

/* Once per list: which algorithm its digests are. */
static void
say_found(struct run *r, const struct manifest *m,
    const struct ms_digest_spec *found, const struct ms_digest_spec *guess,
    enum ms_resolved how)
{
	char a[32], b[32];

	if (r->o->status)
		return;
	ms_output_flush(&r->out);
	ms_warn("%s: %s %s, not %s as taken by %s", m->summary ?
	    ms_quotef(m->name) : "--expect", m->summary ?
	    "untagged digests are" : "the digest is",
	    ms_spec_name(found, a, sizeof(a)), ms_spec_name(guess, b, sizeof(b)),
	    ms_resolved_text(how));
}

/*
 * Which of rec's digests do not match (bit i: digest i), or -1u if one
 * of them is no guess (the line fails whatever stands in) or the list's
 * own algorithm for its length (found: said already).
 */
static unsigned
failed_guesses(const struct rec *rec, const struct manifest *m)
{
	const struct ms_task *t = rec->task;
	const unsigned char *want = rec->want;
	unsigned bad = 0;

	for (size_t i = 0; i < rec->n; want += rec->len[i++]) {
		const struct ms_digest_spec *s = &t->sel->spec[i], *found;

		if (memcmp(t->digest + t->sel->offset[i], want,
		    rec->len[i]) == 0)
			continue;
		found = ms_check_found(m, ms_spec_len(s));
		if (!(rec->guessed >> i & 1) || (found != NULL ?
		    ms_spec_same(found, s) :
		    m->nfound == MS_ARRAY_LEN(m->found)))
			return -1u;
		bad |= 1u << i;
	}
	return bad;
}

/* The index in use of spec, which it holds. */
static size_t
index_of(const struct ms_selection *use, const struct ms_digest_spec *spec)
{
	size_t k = 0;

	while (k < use->cnt - 1 && !ms_spec_same(&use->spec[k], spec))
		k++;
	return k;
}

/*
 * One failed guess of rec, read again through use into out: the digest
 * in use that matches want (wlen bytes), the list's algorithm for the
 * guess's length when none does, or SIZE_MAX.  Records and says what
 * the list turned out to be, if that was not known.  *hit: it matched.
 */
static size_t
pick(struct run *r, const struct rec *rec, const struct ms_digest_spec *guess,
    const struct ms_selection *use, const unsigned char *out,
    const unsigned char *want, size_t wlen, bool *hit)
{
	struct manifest *m = rec->m;
	size_t len = ms_spec_len(guess), k;
	const struct ms_digest_spec *found = ms_check_found(m, len);

	for (k = 0; k < use->cnt; k++)
		if (ms_spec_len(&use->spec[k]) == len &&
		    (found == NULL || ms_spec_same(&use->spec[k], found)) &&
		    memcmp(out + use->offset[k], want, wlen) == 0)
			break;
	*hit = k < use->cnt;
	if (found != NULL)
		return *hit ? k : index_of(use, found);
	if (m->nfound < MS_ARRAY_LEN(m->found)) {
		m->found[m->nfound++] = *hit ? use->spec[k] : *guess;
		m->tried = true;
		if (*hit && !ms_spec_same(&use->spec[k], guess))
			say_found(r, m, &use->spec[k], guess, rec->how);
	}
	return *hit ? k : SIZE_MAX;
}

bool
ms_check_resolve(struct run *r, struct rec *rec)
{
	struct ms_task *t = rec->task;
	struct ms_digest_spec now[MS_MANIFEST_DIGESTS];
	size_t take[MS_MANIFEST_DIGESTS];
	const struct ms_digest_spec *found;
	const struct ms_selection *use, *again;
	struct ms_selection sel = { 0 }, some;
	const unsigned char *want = rec->want;
	unsigned bad, moved = 0, took = 0;	/* bits: digests */
	unsigned char *out;
	bool hit;

	if (rec->n == 0 || t->sel->cnt != rec->n || t->err != 0 ||
	    rec->guessed == 0 || r->engine == NULL ||
	    ms_source_is_stream(t->path) ||
	    (bad = failed_guesses(rec, rec->m)) == 0 || bad == -1u)
		return false;
	/* every failed guess's stand-ins, or the list's algorithm, at once */
	for (size_t i = 0; i < rec->n; i++) {
		now[i] = t->sel->spec[i];
		if (!(bad >> i & 1))
			continue;
		found = ms_check_found(rec->m, ms_spec_len(&now[i]));
		if (found != NULL) {
			ms_selection_add(&sel, found);
			continue;
		}
		ms_manifest_stand_ins(&now[i], &some);
		ms_selection_set_params(&some, &r->o->param);
		/* those this build computes (a row without its library:
		 * said once, by the registry) */
		for (size_t k = 0; k < some.cnt; k++)
			if (ms_check_selection_for(&r->reg, &some.spec[k],
			    1)->cnt != 0)
				ms_selection_add(&sel, &some.spec[k]);
	}
	use = ms_check_selection_for(&r->reg, sel.spec, sel.cnt);
	if (use->cnt == 0)
		return false;	/* a backend did not load: said once */
	out = ms_xmalloc(use->out_len);
	if (read_through(r, t->path, use, out) == -1) {
		free(out);
		return false;	/* FAILED, for the guess did not match */
	}
	/* the list's algorithm, matched or not, is what each is read as */
	for (size_t i = 0; i < rec->n; want += rec->len[i++]) {
		if (!(bad >> i & 1))
			continue;
		take[i] = pick(r, rec, &t->sel->spec[i], use, out, want,
		    rec->len[i], &hit);
		if (take[i] != SIZE_MAX &&
		    !ms_spec_same(&use->spec[take[i]], &now[i])) {
			now[i] = use->spec[take[i]];
			moved |= 1u << i;
			took |= (unsigned)hit << i;
		}
	}
	again = ms_check_selection_for(&r->reg, now, rec->n);
	if (moved != 0 && again->cnt == rec->n &&
	    again->out_len == t->sel->out_len) {
		for (size_t i = 0; i < rec->n; i++)
			if (moved >> i & 1)
				memcpy(t->digest + again->offset[i],
				    out + use->offset[take[i]],
				    ms_spec_len(&now[i]));
		t->sel = again;
		if (rec->n == 1)
			rec->how = MS_BY_TRIAL;
	}
	free(out);
	return took == bad && t->sel == again;
}
