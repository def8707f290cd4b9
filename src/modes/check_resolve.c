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
 * such read at most.  A file hashed with the guess before that was
 * known is read once more, with the list's algorithm only.
 *
 * Owns that decision and the reads it takes, on the calling thread;
 * never standard input or a stream, never an archive member (which
 * cannot be read twice).  It prints nothing but that one line.
 */
#include "modes/check_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
	rc = ms_hash_source(&src, &set, buf, cap, NULL, out, &size);
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

bool
ms_check_resolve(struct run *r, struct rec *rec)
{
	struct manifest *m = rec->m;
	struct ms_task *t = rec->task;
	const struct ms_digest_spec *guess, *found;
	const struct ms_selection *use;
	struct ms_selection sel = { 0 };
	size_t len = rec->len[0], hit = SIZE_MAX, take;
	unsigned char *out;

	if (rec->n != 1 || t->sel->cnt != 1 || t->err != 0 ||
	    (rec->how != MS_BY_LENGTH && rec->how != MS_BY_NAME) ||
	    r->engine == NULL || ms_source_is_stream(t->path))
		return false;
	guess = &t->sel->spec[0];
	found = ms_check_found(m, ms_spec_len(guess));
	if (found != NULL ? ms_spec_same(found, guess) :
	    m->nfound == MS_ARRAY_LEN(m->found))
		return false;	/* the list's own algorithm did not match */
	if (found != NULL) {
		ms_selection_add(&sel, found);
	} else {
		ms_manifest_stand_ins(guess, &sel);
		ms_selection_set_params(&sel, &r->o->param);
	}
	use = ms_check_selection_for(&r->reg, sel.spec, sel.cnt);
	if (use->cnt == 0)
		return false;	/* a backend did not load: said once */
	out = ms_xmalloc(use->out_len);
	if (read_through(r, t->path, use, out) == -1) {
		free(out);
		return false;	/* FAILED, for the guess did not match */
	}
	for (size_t i = 0; i < use->cnt && hit == SIZE_MAX; i++)
		if (ms_spec_len(&use->spec[i]) == ms_spec_len(guess) &&
		    memcmp(out + use->offset[i], rec->want, len) == 0)
			hit = i;
	if (found == NULL) {
		m->found[m->nfound++] = hit != SIZE_MAX ? use->spec[hit] : *guess;
		m->tried = true;
		if (hit != SIZE_MAX && hit != 0)
			say_found(r, m, &use->spec[hit], guess, rec->how);
	}
	/* the list's algorithm, matched or not, is what the line is read as */
	take = hit != SIZE_MAX ? hit : found != NULL ? 0 : SIZE_MAX;
	if (take != SIZE_MAX && !ms_spec_same(&use->spec[take], guess)) {
		memcpy(t->digest, out + use->offset[take], ms_spec_len(guess));
		t->sel = ms_check_selection_for(&r->reg, &use->spec[take], 1);
		rec->how = MS_BY_TRIAL;
	}
	free(out);
	return hit != SIZE_MAX && rec->how == MS_BY_TRIAL;
}
