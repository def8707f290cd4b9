/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-json.c - libFuzzer target: the strict JSON reader (base/json_read.c)
 * and the attestations read through it (signature_attest.c: an
 * .intoto.jsonl or a .sigstore.json, first byte picks, signatures not
 * checked).  Checks: no crash, no sanitizer report; a document read is a
 * tree whose links point forward inside it, and written back (its
 * strings by json.c's writer) it reads again to the same tree; an
 * attestation is refused with a reason or handed on as lines, never both.
 */
#include "fuzz.h"

#include <stdio.h>

#include "base/json.h"
#include "base/json_read.h"
#include "signature/signature_int.h"

static void
write_node(FILE *out, const struct ms_jdoc *d, const struct ms_jnode *n)
{
	const struct ms_jnode *k;

	switch (n->type) {
	case MS_J_NULL: fputs("null", out); return;
	case MS_J_TRUE: fputs("true", out); return;
	case MS_J_FALSE: fputs("false", out); return;
	case MS_J_NUMBER: fputs(n->str, out); return;
	case MS_J_STRING: ms_json_string(out, n->str); return;
	case MS_J_ARRAY:
	case MS_J_OBJECT:
		putc(n->type == MS_J_ARRAY ? '[' : '{', out);
		for (k = ms_jread_first(d, n); k != NULL; k = ms_jread_next(d, k)) {
			if (k != ms_jread_first(d, n))
				putc(',', out);
			if (n->type == MS_J_OBJECT) {
				ms_json_string(out, k->key);
				putc(':', out);
			}
			write_node(out, d, k);
		}
		putc(n->type == MS_J_ARRAY ? ']' : '}', out);
	}
}

/* Same tree, and no NUL inside a string (which the writer cannot say)? */
static bool
same(const struct ms_jdoc *a, const struct ms_jdoc *b)
{
	if (a->cnt != b->cnt)
		return false;
	for (size_t i = 0; i < a->cnt; i++) {
		const struct ms_jnode *x = &a->n[i], *y = &b->n[i];

		if (x->type != y->type || x->kid != y->kid || x->next != y->next ||
		    x->len != y->len || (x->str != NULL &&
		    memcmp(x->str, y->str, x->len) != 0) ||
		    (x->key != NULL && strcmp(x->key, y->key) != 0))
			return false;
	}
	return true;
}

static void
check_json(const uint8_t *data, size_t size)
{
	struct ms_jdoc d, again;
	const char *why;
	char *buf = NULL;
	size_t len = 0;
	bool nul = false;
	FILE *out;

	if (ms_jread((const char *)data, size, &d, &why) == -1) {
		if (why == NULL)
			abort();
		return;
	}
	for (size_t i = 0; i < d.cnt; i++) {
		const struct ms_jnode *n = &d.n[i];

		if ((n->kid != 0 && (n->kid <= i || n->kid >= d.cnt)) ||
		    (n->next != 0 && (n->next <= i || n->next >= d.cnt)) ||
		    (n->str != NULL && n->str[n->len] != '\0'))
			abort();
		nul |= (n->str != NULL && strlen(n->str) != n->len) ||
		    (n->key != NULL && strlen(n->key) != n->key_len);
	}
	if (!nul) {
		if ((out = open_memstream(&buf, &len)) == NULL)
			abort();
		write_node(out, &d, &d.n[0]);
		fclose(out);
		if (ms_jread(buf, len, &again, &why) == -1 || !same(&d, &again))
			abort();
		ms_jread_free(&again);
		free(buf);
	}
	ms_jread_free(&d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *body = NULL, *why;
	size_t body_len = 0, skipped;

	if (size == 0)
		return 0;
	if (data[0] < 0x80) {
		check_json(data + 1, size - 1);
		return 0;
	}
	why = ms_attest_read(NULL, data[0] & 1 ? "x.sigstore.json" :
	    "x.intoto.jsonl", (const char *)data + 1, size - 1, &body,
	    &body_len, &skipped);
	/* refused: no body; read: a body for any length it says */
	if (why != NULL ? body != NULL : body == NULL && body_len != 0)
		abort();
	free(why);
	free(body);
	return 0;
}
