/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-manifest.c - libFuzzer target: manifest lines, as -c reads them,
 * under every rule set: multisum's own (with and without -a, for a
 * manifest named after an algorithm and for an SFV file), each
 * coreutils personality's and b3sum's.  The first input byte picks the
 * rules and the manifest's name; the rest is the manifest, parsed line by line as
 * check mode hands it over (newline included, NUL after it; again when
 * it ended a record).  Checks:
 * no crash, no sanitizer report, and every entry sane (a name inside the
 * line or the state's, a digest no longer than the buffer, a known
 * algorithm), and the same after the last line (a record still open).
 */
#include "fuzz.h"

#include "digest/algorithm.h"
#include "manifest/manifest.h"

/* The manifest names whose rules differ. */
static const char *const names[] = {
	"MANIFEST", "SHA256SUMS", "x.md5", "x.sfv", "x.xxh128", "B2SUMS",
	"-", "x.json",
};

/* The personalities' tools, by algorithm name. */
static const char *const tools[] = {
	"md5", "sha1", "sha224", "sha256", "sha384", "sha512", "blake2b",
};

static void
rules_for(unsigned pick, struct ms_manifest_rules *r,
    struct ms_selection *given)
{
	struct ms_digest_spec s;
	const char *why;

	memset(r, 0, sizeof(*r));
	switch (pick % 4) {
	case 0:		/* multisum -c */
		r->dialect = MS_DIALECT_NATIVE;
		break;
	case 1:		/* multisum -c -a sha256,md5 */
		r->dialect = MS_DIALECT_NATIVE;
		if (ms_algo_resolve("sha256", 0, &s, &why) == 0)
			ms_selection_add(given, &s);
		if (ms_algo_resolve("md5", 0, &s, &why) == 0)
			ms_selection_add(given, &s);
		r->given = given;
		break;
	case 2:		/* sha256sum -c & co; b2sum has lengths */
		if (ms_algo_resolve(tools[(pick / 4) % 7], 0, &s, &why) == -1)
			abort();
		r->dialect = MS_DIALECT_COREUTILS;
		r->tool = s.algo;
		r->tag_length = strcmp(tools[(pick / 4) % 7], "blake2b") == 0;
		r->auto_length = r->tag_length;
		r->min_line = r->tag_length ? 3 : s.bits / 4 + 2;
		break;
	default:	/* cksum -c, or b3sum -c */
		if (pick & 0x80) {
			r->dialect = MS_DIALECT_B3SUM;
			r->tool = ms_algo_named("blake3");
			break;
		}
		r->dialect = MS_DIALECT_CKSUM;
		r->tag_length = true;
		break;
	}
}

/*
 * An entry is sane: its name in the line or the state's (a digest-only
 * file's, a gpg record's, a Windows record's, a storage tool's
 * record's), not empty for b3sum, digests of a known algorithm that fit
 * their buffer.
 */
static void
check(const struct ms_manifest_rules *r, const struct ms_manifest_state *st,
    const struct ms_manifest_entry *e, const char *line, size_t len)
{
	if (e->name == NULL || ((line == NULL || e->name < line ||
	    e->name > line + len) && e->name != st->own_name &&
	    e->name != st->gpg_given && e->name != st->win.given &&
	    e->name != st->rec_given) ||
	    e->n == 0 || e->d[0].spec.algo == NULL ||
	    e->d[0].len > sizeof(e->d[0].digest) ||
	    (r->dialect == MS_DIALECT_B3SUM && strlen(e->name) == 0))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ms_manifest_rules r;
	struct ms_manifest_state st;
	struct ms_selection given = { 0 };
	struct ms_manifest_entry e;
	unsigned pick;
	char *text, *p, *end;

	if (size < 1)
		return 0;
	pick = data[0];
	rules_for(pick, &r, &given);
	text = fuzz_text(data + 1, size - 1);
	end = text + size - 1;
	memset(&st, 0, sizeof(st));
	ms_manifest_begin(&r, &st, names[(pick >> 2) % 8]);
	for (p = text; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		char *line = fuzz_text((const uint8_t *)p, len);

		memset(&e, 0, sizeof(e));
		if (ms_manifest_parse(&r, &st, line, len, &e) ==
		    MS_LINE_ENTRY)
			check(&r, &st, &e, line, len);
		(void)ms_manifest_type(&r, &st);
		free(line);
		/* a record a line ended: the line is read again, as -c does */
		if (!st.again)
			p += len;
	}
	memset(&e, 0, sizeof(e));
	if (ms_manifest_finish(&r, &st, &e) == MS_LINE_ENTRY)
		check(&r, &st, &e, NULL, 0);
	ms_manifest_end(&st);
	free(text);
	return 0;
}
