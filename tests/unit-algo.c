/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * unit-algo.c - known answers for every row of the algorithm table, and
 * unit tests of the pure helpers beside it: name resolution and spec
 * names (hex, base64 and sizes are unit-util.c's).
 *
 * The vectors, published facts, are algo-vectors.h.  Every vector is
 * computed through the
 * row's own operations, whole and in awkward pieces (one byte at a time,
 * splits around 64- and 128-byte block edges, ragged runs), in one
 * state that is re-initialised between runs.  A row of ms_algos[] that has
 * no vectors (a newly added algorithm) makes the test fail.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "digest/algorithm.h"
#include "digest/kat.h"
#include "digest/digest_set.h"
#include "digest/state_create.h"
#include "base/util.h"

#include "algo-vectors.h"
#include "tap.h"

/* The messages of algo-vectors.h, built once. */
static unsigned char *msg_data[M_COUNT];
static size_t msg_len[M_COUNT];

static void
build_messages(void)
{
	for (size_t m = 0; m < M_COUNT; m++) {
		const struct message *g = &messages[m];
		size_t ul = g->unit ? strlen(g->unit) : 1;
		unsigned char *p = ms_xmalloc(ul * g->count + 1);

		for (size_t i = 0; i < g->count; i++) {
			if (g->unit != NULL)
				memcpy(p + i * ul, g->unit, ul);
			else
				p[i] = (unsigned char)i;
		}
		msg_data[m] = p;
		msg_len[m] = ul * g->count;
	}
}

/* ------------------------------------------------ running the vectors */

/* Can the row's backend run here?  Loads it once; remembers the answer. */
static bool
row_usable(const struct ms_algo *a)
{
	static signed char state[64];	/* 0 untried, 1 usable, -1 not */
	size_t i = (size_t)(a - ms_algos);
	struct ms_digest_spec s = { .algo = a, .bits = a->bits };

	if (i >= MS_ARRAY_LEN(state))
		return ms_spec_load(&s) == 0;
	if (state[i] == 0)
		state[i] = ms_spec_load(&s) == 0 ? 1 : -1;
	return state[i] == 1;
}

/*
 * How one run feeds a message to update().  Every plan must give the
 * digest of the whole message, whatever the pieces.
 */
enum plan {
	P_WHOLE,	/* one update */
	P_BYTES,	/* one byte per update */
	P_EDGES,	/* two pieces, cut at each block edge in turn */
	P_RAGGED,	/* pieces of 1, 2, 3, ... 131, 1, 2, ... bytes */
	P_CHUNKS,	/* pieces of 4093 bytes, an odd size */
	P_COUNT
};

static const char *const plan_name[P_COUNT] = {
	"whole", "1-byte updates", "split at a block edge", "ragged updates",
	"4093-byte updates",
};

/* The cuts of P_EDGES: both sides of every block size in use. */
static const size_t edges[] = { 1, 55, 56, 63, 64, 65, 127, 128, 129, 136, 137, 168, 1000 };

/* Run state through one digest of m under the plan; hex gets the result. */
static void
run_plan(const struct ms_algo *a, void *state, size_t out_len, enum plan p,
    size_t cut, const unsigned char *m, size_t len, char *hex)
{
	unsigned char out[MS_DIGEST_MAX];
	size_t i, n;

	a->ops->init(state);
	switch (p) {
	case P_WHOLE:
		a->ops->update(state, m, len);
		break;
	case P_BYTES:
		for (i = 0; i < len; i++)
			a->ops->update(state, m + i, 1);
		break;
	case P_EDGES:
		a->ops->update(state, m, cut);
		a->ops->update(state, m + cut, 0);	/* must change nothing */
		a->ops->update(state, m + cut, len - cut);
		break;
	case P_RAGGED:
		for (i = 0, n = 1; i < len; i += n, n = n % 131 + 1) {
			if (n > len - i)
				n = len - i;
			a->ops->update(state, m + i, n);
		}
		break;
	case P_CHUNKS:
		for (i = 0; i < len; i += n) {
			n = len - i < 4093 ? len - i : 4093;
			a->ops->update(state, m + i, n);
		}
		break;
	case P_COUNT:
		ms_bug("plan");
	}
	a->ops->final(state, out);
	ms_hex(hex, out, out_len);
}

static void
test_vector(const struct vector *v)
{
	const struct ms_algo *a = ms_algo_named(v->row);
	unsigned bits = v->bits ? v->bits : a ? a->bits : 0;
	const unsigned char *m = msg_data[v->msg];
	size_t len = msg_len[v->msg];
	char label[160], hex[2 * MS_DIGEST_MAX + 1];
	bool ok = true;
	void *state;

	snprintf(label, sizeof(label), "%s at %u bits of %s", v->row, bits,
	    messages[v->msg].label);
	if (a == NULL) {
		tap_ok(0, "%s: no such row in the table", label);
		return;
	}
	if (strlen(v->hex) != bits / 4 || bits < a->min_bits ||
	    bits > a->max_bits) {
		tap_ok(0, "%s: the vector does not fit the row", label);
		return;
	}
	if (!row_usable(a)) {
		tap_skip("backend not available", "%s", label);
		return;
	}
	state = a->ops->create(&(const struct ms_digest_spec){ .algo = a,
	    .bits = bits });
	if (state == NULL) {
		tap_ok(0, "%s: create failed", label);
		return;
	}
	for (enum plan p = 0; p < P_COUNT && ok; p++) {
		size_t ncuts = p == P_EDGES ? MS_ARRAY_LEN(edges) : 1;

		if ((p == P_BYTES && len > 4096) || (p == P_CHUNKS && len <= 4096))
			continue;
		for (size_t k = 0; k < ncuts && ok; k++) {
			if (p == P_EDGES && edges[k] >= len)
				continue;
			run_plan(a, state, bits / 8, p, edges[k], m, len, hex);
			if (strcmp(hex, v->hex) != 0) {
				ok = false;
				tap_diag("%s, %s%s:", label, plan_name[p],
				    p == P_EDGES ? " (see the cut below)" : "");
				if (p == P_EDGES)
					tap_diag("  cut after %zu bytes", edges[k]);
				tap_diag("  got:  %s", hex);
				tap_diag("  want: %s", v->hex);
			}
		}
	}
	a->ops->destroy(state);
	tap_ok(ok, "%s", label);
}

/*
 * Inputs far longer than any vector (and than the 64 KiB a backend may
 * copy at a time) give one digest however they are cut.  Every row, at its
 * default length.
 */
static void
test_long_inputs(void)
{
	size_t len = 300000;
	unsigned char *m = ms_xmalloc(len);

	for (size_t i = 0; i < len; i++)
		m[i] = (unsigned char)(i * 131 + (i >> 9));
	for (size_t i = 0; i < ms_algo_count; i++) {
		const struct ms_algo *a = &ms_algos[i];
		char want[2 * MS_DIGEST_MAX + 1], got[2 * MS_DIGEST_MAX + 1];
		bool ok = true;
		void *st;

		if (!row_usable(a)) {
			tap_skip("backend not available", "%s: long input", a->name);
			continue;
		}
		st = a->ops->create(&(const struct ms_digest_spec){ .algo = a,
		    .bits = a->bits });
		run_plan(a, st, a->bits / 8, P_WHOLE, 0, m, len, want);
		run_plan(a, st, a->bits / 8, P_RAGGED, 0, m, len, got);
		ok = strcmp(got, want) == 0;
		run_plan(a, st, a->bits / 8, P_CHUNKS, 0, m, len, got);
		ok = ok && strcmp(got, want) == 0;
		run_plan(a, st, a->bits / 8, P_EDGES, 65537, m, len, got);
		ok = ok && strcmp(got, want) == 0;
		a->ops->destroy(st);
		tap_ok(ok, "%s: 300000 bytes whole, ragged, in 4093-byte and 64 KiB + 1 pieces",
		    a->name);
	}
	free(m);
}

/*
 * The length at which row a is the spec kat.c calls name, or 0 if it is
 * not (blake2b-512 is the blake2b-N row; the blake2b row is "blake2b").
 * The "abc" answers are stated there once, for the self-test and for this.
 */
static unsigned
kat_bits(const struct ms_algo *a, const char *name)
{
	size_t fl = a->family ? strlen(a->family) : 0;
	unsigned bits = a->bits;
	char buf[64];

	if (strcmp(name, a->name) != 0) {
		if (a->family == NULL || strncmp(name, a->family, fl) != 0 || name[fl] != '-' ||
		    name[fl + 1] < '1' || name[fl + 1] > '9')
			return 0;
		bits = (unsigned)strtoul(name + fl + 1, NULL, 10);
		if (bits < a->min_bits || bits > a->max_bits || bits % 8 != 0)
			return 0;
	}
	if (strcmp(ms_spec_name(&(const struct ms_digest_spec){ .algo = a,
	    .bits = bits }, buf, sizeof(buf)), name) != 0)
		return 0;
	return bits;
}

/*
 * Every row needs vectors: one for the empty input and one for some other
 * input at its default length, and a variable-length row one more at a
 * length other than its default.
 */
static void
test_coverage(void)
{
	for (size_t i = 0; i < ms_algo_count; i++) {
		const struct ms_algo *a = &ms_algos[i];
		bool empty = false, other = false, length = false;

		for (size_t k = 0; k < MS_ARRAY_LEN(vectors); k++) {
			const struct vector *v = &vectors[k];
			unsigned bits = v->bits ? v->bits : a->bits;

			if (strcmp(v->row, a->name) != 0)
				continue;
			if (bits == a->bits && v->msg == M_EMPTY)
				empty = true;
			if (bits == a->bits && v->msg != M_EMPTY)
				other = true;
			if (bits != a->bits)
				length = true;
		}
		/* and kat.c's "abc" answers */
		for (size_t k = 0; ms_kat_name(k) != NULL; k++) {
			unsigned bits = kat_bits(a, ms_kat_name(k));

			if (bits == a->bits)
				other = true;
			else if (bits != 0)
				length = true;
		}
		tap_ok(empty && other && (length || a->min_bits == a->max_bits),
		    "row %s has vectors (empty input%s%s)", a->name,
		    empty && other ? ", another input" : "",
		    a->min_bits == a->max_bits ? "" : ", another length");
		if (!empty)
			tap_diag("  no vector for the empty input at %u bits", a->bits);
		if (!other)
			tap_diag("  no vector for a non-empty input");
		if (a->min_bits != a->max_bits && !length)
			tap_diag("  no vector at a length other than %u bits", a->bits);
	}
}

/* Every answer of kat.c, through every way of cutting the input. */
static void
test_kat_vectors(void)
{
	const char *name;

	for (size_t i = 0; i < ms_algo_count; i++)
		for (size_t k = 0; (name = ms_kat_name(k)) != NULL; k++) {
			const struct ms_algo *a = &ms_algos[i];
			unsigned bits = kat_bits(a, name);
			struct ms_digest_spec s = { .algo = a, .bits = bits };
			struct vector v = { a->name, bits, M_ABC, NULL };

			if (bits == 0)
				continue;
			v.hex = ms_kat_abc(&s);
			test_vector(&v);
		}
}

/* kat.c's self-test passes on every row, at its default length. */
static void
test_kat_self(void)
{
	for (size_t i = 0; i < ms_algo_count; i++) {
		const struct ms_algo *a = &ms_algos[i];
		struct ms_digest_spec s = { .algo = a, .bits = a->bits };
		char why[200];
		enum ms_kat_result r;

		if (!row_usable(a)) {
			tap_skip("backend not available", "%s: self-test", a->name);
			continue;
		}
		r = ms_kat_check(&s, why, sizeof(why));
		tap_ok(r == MS_KAT_PASS, "%s: kat.c's self-test passes", a->name);
		if (r == MS_KAT_FAIL)
			tap_diag("  %s", why);
		else if (r == MS_KAT_NO_VECTOR)
			tap_diag("  kat.c has no answer for its default length");
	}
}

/*
 * Two states of one row, fed alternately, must not see each other's
 * bytes: backends may share tables, never running state.
 */
static void
test_independent_states(void)
{
	const unsigned char *m = msg_data[M_896];
	size_t len = msg_len[M_896];

	for (size_t i = 0; i < ms_algo_count; i++) {
		const struct ms_algo *a = &ms_algos[i];
		const struct ms_digest_spec spec = { .algo = a, .bits = a->bits };
		size_t out_len = a->bits / 8;
		unsigned char d1[MS_DIGEST_MAX], d2[MS_DIGEST_MAX], d3[MS_DIGEST_MAX];
		void *s1, *s2;

		if (!row_usable(a)) {
			tap_skip("backend not available", "%s: two states", a->name);
			continue;
		}
		s1 = a->ops->create(&spec);
		s2 = a->ops->create(&spec);
		/* the reference: the whole message, alone */
		a->ops->init(s1);
		a->ops->update(s1, m, len);
		a->ops->final(s1, d1);
		/* s1 takes the message in two halves around all of s2's work */
		a->ops->init(s1);
		a->ops->init(s2);
		a->ops->update(s1, m, len / 2);
		a->ops->update(s2, "xyz", 3);
		a->ops->update(s2, m, len);
		a->ops->update(s1, m + len / 2, len - len / 2);
		a->ops->final(s2, d3);
		a->ops->final(s1, d2);
		tap_ok(memcmp(d1, d2, out_len) == 0 && memcmp(d1, d3, out_len) != 0,
		    "%s: two states in turn stay apart", a->name);
		a->ops->destroy(s1);
		a->ops->destroy(s2);
	}
}

/*
 * A digest set of every row at once (and a few lengths) gives each digest
 * at its offset, as the row alone would.
 */
static void
test_digest_set(void)
{
	static const struct { const char *name; unsigned bits; } extra[] = {
		{ "blake2b", 160 }, { "blake2s", 8 }, { "shake128", 4096 },
		{ "sha3", 384 }, { "sha2", 224 },
	};
	struct ms_selection sel;
	struct ms_digest_set set;
	unsigned char *all, one[MS_DIGEST_MAX];
	const unsigned char *m = msg_data[M_KAT255];
	size_t len = msg_len[M_KAT255];
	size_t bad = 0;

	memset(&sel, 0, sizeof(sel));
	for (size_t i = 0; i < ms_algo_count; i++) {
		struct ms_digest_spec s = { .algo = &ms_algos[i],
		    .bits = ms_algos[i].bits };

		if (row_usable(s.algo) && ms_selection_add(&sel, &s) == -1)
			ms_bug("selection full");
	}
	for (size_t i = 0; i < MS_ARRAY_LEN(extra); i++) {
		struct ms_digest_spec s;
		const char *why;

		if (ms_algo_resolve(extra[i].name, extra[i].bits, &s, &why) == 0 &&
		    row_usable(s.algo))
			ms_selection_add(&sel, &s);
	}
	/* a duplicate is dropped */
	{
		size_t cnt = sel.cnt;
		struct ms_digest_spec s = sel.spec[0];

		ms_selection_add(&sel, &s);
		tap_is_int((long)sel.cnt, (long)cnt, "a digest set drops a duplicate");
	}
	if (ms_selection_load(&sel) == -1)
		ms_bug("selection load");
	all = ms_xmalloc(sel.out_len);
	ms_digest_set_create(&set, &sel);
	ms_digest_set_init(&set);
	for (size_t i = 0, n = 1; i < len; i += n, n = n * 2 + 1) {
		if (n > len - i)
			n = len - i;
		ms_digest_set_update(&set, m + i, n);
	}
	ms_digest_set_final(&set, all);
	for (size_t i = 0; i < sel.cnt; i++) {
		const struct ms_digest_spec *s = &sel.spec[i];
		void *st = s->algo->ops->create(s);

		s->algo->ops->init(st);
		s->algo->ops->update(st, m, len);
		s->algo->ops->final(st, one);
		s->algo->ops->destroy(st);
		if (memcmp(all + sel.offset[i], one, ms_spec_len(s)) != 0) {
			tap_diag("  %s at %u bits differs in the set",
			    s->algo->name, s->bits);
			bad++;
		}
	}
	tap_ok(bad == 0, "a digest set of %zu digests matches each alone", sel.cnt);
	/* Set states are cycled too: a second message through the same set. */
	ms_digest_set_init(&set);
	ms_digest_set_update(&set, msg_data[M_ABC], msg_len[M_ABC]);
	ms_digest_set_final(&set, all);
	{
		char hex[2 * MS_DIGEST_MAX + 1];
		size_t k;

		for (k = 0; k < sel.cnt; k++)
			if (strcmp(sel.spec[k].algo->name, "sha256") == 0)
				break;
		ms_hex(hex, all + sel.offset[k], 32);
		tap_is_str(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		    "a digest set re-initialised hashes the next input afresh");
	}
	ms_digest_set_destroy(&set);
	free(all);
}

/* ------------------------------------------------------ name lookup */

static void
resolves(const char *name, unsigned bits, const char *row, unsigned want_bits)
{
	struct ms_digest_spec s;
	const char *why = NULL;
	int rc = ms_algo_resolve(name, bits, &s, &why);
	bool ok = rc == 0 && strcmp(s.algo->name, row) == 0 && s.bits == want_bits;

	tap_ok(ok, "'%s' with -l %u is %s at %u bits", name, bits, row, want_bits);
	if (!ok && rc == 0)
		tap_diag("  got %s at %u bits", s.algo->name, s.bits);
	else if (!ok)
		tap_diag("  refused: %s", why);
}

static void
refuses(const char *name, unsigned bits, const char *want_why)
{
	struct ms_digest_spec s;
	const char *why = NULL;
	int rc = ms_algo_resolve(name, bits, &s, &why);
	bool ok = rc == -1 && why != NULL && strcmp(why, want_why) == 0;

	tap_ok(ok, "'%s' with -l %u is refused: %s", name, bits, want_why);
	if (!ok && rc == 0)
		tap_diag("  resolved to %s at %u bits", s.algo->name, s.bits);
	else if (!ok)
		tap_diag("  reason: %s", why ? why : "(none)");
}

/*
 * Names (with -l's bits) and what they resolve to, or why they are
 * refused, in one list.
 */
#define OK(name, bits, row, want)	{ name, bits, row, want, NULL }
#define NO(name, bits, why)		{ name, bits, NULL, 0, why }
static const struct naming {
	const char	*name;
	unsigned	 bits;
	const char	*row;		/* NULL: refused ... */
	unsigned	 want_bits;
	const char	*why;		/* ... with this reason */
} namings[] = {
	/* case does not matter */
	OK("SHA256", 0, "sha256", 256),
	OK("Sha-256", 0, "sha256", 256),
	OK("BLAKE2B512", 0, "blake2b", 512),
	OK("XXH3_64", 0, "xxh3", 64),
	OK("CRC32B", 0, "crc32", 32),
	/* lengths spelled in the name */
	OK("blake2b-256", 0, "blake2b-N", 256),
	OK("BLAKE2b-256", 0, "blake2b-N", 256),
	OK("blake2b-512", 0, "blake2b", 512),
	OK("blake2b-8", 0, "blake2b-N", 8),
	OK("blake2s-128", 0, "blake2s-N", 128),
	OK("blake2s-256", 0, "blake2s", 256),
	OK("blake2b-256", 256, "blake2b-N", 256),
	NO("blake2b-0", 0, "invalid length"),
	NO("blake2b-520", 0, "invalid length"),
	NO("blake2b-12", 0, "invalid length"),
	NO("blake2s-264", 0, "invalid length"),
	/* families and lengths given with -l (coreutils 9.8's -a sha2 -l 256) */
	OK("sha2", 224, "sha224", 224),
	OK("sha2", 256, "sha256", 256),
	OK("SHA2", 384, "sha384", 384),
	OK("sha2", 512, "sha512", 512),
	OK("sha3", 224, "sha3-224", 224),
	OK("sha3", 512, "sha3-512", 512),
	OK("blake2b", 256, "blake2b-N", 256),
	OK("blake2b", 512, "blake2b", 512),
	OK("blake2s", 128, "blake2s-N", 128),
	OK("shake128", 0, "shake128", 256),
	OK("shake128", 128, "shake128", 128),
	OK("shake128", 4096, "shake128", 4096),
	OK("shake256", 8, "shake256", 8),
	OK("sha256", 256, "sha256", 256),
	NO("sha2", 0, "needs a length (-l)"),
	NO("sha3", 0, "needs a length (-l)"),
	NO("sha2", 200, "invalid length"),
	NO("sha3", 160, "invalid length"),
	NO("sha256", 512, "invalid length"),
	NO("md5", 256, "invalid length"),
	NO("blake2b", 520, "invalid length"),
	NO("blake2b", 12, "invalid length"),
	NO("blake2s", 512, "invalid length"),
	NO("shake128", 4104, "invalid length"),
	NO("shake256", 4, "invalid length"),
	/* not names */
	NO("nosuch", 0, "unknown algorithm"),
	NO("", 0, "unknown algorithm"),
	NO("sha", 0, "unknown algorithm"),
	NO("blake2b-N", 0, "unknown algorithm"),
	NO("md5-128", 0, "unknown algorithm"),
	NO("blake2b-256x", 0, "unknown algorithm"),
	NO("blake2b-99999999999999999999", 0, "unknown algorithm"),
	NO("-256", 0, "unknown algorithm"),
	NO("sha256 ", 0, "unknown algorithm"),
	NO("sha-256 sha2-256", 0, "unknown algorithm"),
};
#undef OK
#undef NO

/*
 * What a selection's rows have, kept as they are added: a digest that
 * reads the file's name (the engine gives it the file alone), one that
 * takes many messages at once (small files share its lanes).
 */
static void
test_selection_flags(void)
{
	struct ms_selection both = { 0 };
	size_t bad = 0, subjects = 0, manys = 0;

	for (size_t i = 0; i < ms_algo_count; i++) {
		struct ms_selection one = { 0 };
		struct ms_digest_spec s = { .algo = &ms_algos[i],
		    .bits = ms_algos[i].bits };
		bool subject = s.algo->ops->subject != NULL;
		bool many = s.algo->ops->many != NULL;

		if (!row_usable(s.algo))
			continue;
		ms_selection_add(&one, &s);
		if (ms_selection_has_subject(&one) != subject ||
		    ms_selection_has_many(&one) != many) {
			tap_diag("  %s: subject %d many %d", s.algo->name,
			    ms_selection_has_subject(&one),
			    ms_selection_has_many(&one));
			bad++;
		}
		if ((subject && subjects++ == 0) || (many && manys++ == 0))
			ms_selection_add(&both, &s);
	}
	tap_is_int((long)bad, 0, "each row's selection has what its ops have");
	tap_ok(subjects == 0 || ms_selection_has_subject(&both),
	    "a selection with a subject row has a subject");
	tap_ok(manys == 0 || ms_selection_has_many(&both),
	    "a selection with a many row has many");
	memset(&both, 0, sizeof(both));
	tap_ok(!ms_selection_has_subject(&both) && !ms_selection_has_many(&both),
	    "an empty selection has neither");
}

static void
test_resolve(void)
{
	/* Every canonical name and every alias names its own row. */
	for (size_t i = 0; i < ms_algo_count; i++) {
		const struct ms_algo *a = &ms_algos[i];
		char buf[256], *save = NULL;
		bool fam_only = a->min_bits != a->max_bits && a->family &&
		    strcmp(a->name, a->family) != 0;

		if (!fam_only)
			resolves(a->name, 0, a->name, a->bits);
		snprintf(buf, sizeof(buf), "%s", a->aliases ? a->aliases : "");
		for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
			resolves(w, 0, a->name, a->bits);
	}
	for (size_t i = 0; i < MS_ARRAY_LEN(namings); i++) {
		const struct naming *n = &namings[i];

		if (n->row != NULL)
			resolves(n->name, n->bits, n->row, n->want_bits);
		else
			refuses(n->name, n->bits, n->why);
	}

	/* which names take -l */
	tap_ok(ms_algo_takes_length("blake2b") && ms_algo_takes_length("SHAKE128") &&
	    ms_algo_takes_length("sha2") && ms_algo_takes_length("sha3") &&
	    !ms_algo_takes_length("sha256") && !ms_algo_takes_length("md5") &&
	    !ms_algo_takes_length("blake2b-256") && !ms_algo_takes_length("nosuch"),
	    "ms_algo_takes_length knows the variable names and families");
}

static void
spec_text(const char *name, unsigned bits, const char *tag, const char *display)
{
	struct ms_digest_spec s;
	const char *why;
	char b1[64], b2[64];

	if (ms_algo_resolve(name, bits, &s, &why) == -1) {
		tap_ok(0, "'%s' resolves (for its tag)", name);
		return;
	}
	tap_is_str(ms_spec_tag(&s, b1, sizeof(b1)), tag, tag);
	tap_is_str(ms_spec_name(&s, b2, sizeof(b2)), display, display);
}

static void
test_spec_names(void)
{
	spec_text("sha256", 0, "SHA256", "sha256");
	spec_text("sha3", 256, "SHA3-256", "sha3-256");
	spec_text("blake2b", 0, "BLAKE2b", "blake2b");
	spec_text("blake2b", 256, "BLAKE2b-256", "blake2b-256");
	spec_text("blake2b-384", 0, "BLAKE2b-384", "blake2b-384");
	spec_text("blake2s-128", 0, "BLAKE2s-128", "blake2s-128");
	spec_text("blake2s", 0, "BLAKE2s", "blake2s");
	spec_text("shake128", 0, "SHAKE128", "shake128");
	spec_text("shake256", 1024, "SHAKE256-1024", "shake256-1024");
	spec_text("xxh3_64", 0, "XXH3", "xxh3");
	spec_text("sha512/256", 0, "SHA2-512/256", "sha512-256");
	spec_text("cksum", 0, "CRC", "cksum");
}

/* ms_state_create: a state of the row's size whose make fails is
 * destroyed, not returned. */
struct two_parts {
	char	*a, *b;
};

static int destroyed;

static bool
make_parts(void *state, const struct ms_digest_spec *spec)
{
	struct two_parts *s = state;

	s->a = malloc(1);
	return spec->bits == 0 && (s->b = malloc(1)) != NULL && s->a != NULL;
}

static void
destroy_parts(void *state)
{
	struct two_parts *s = state;

	destroyed++;
	free(s->a);
	free(s->b);
	free(s);
}

static void
test_state_create(void)
{
	static const struct ms_digest_ops ops = {
		.create = ms_state_create,
		.state_size = sizeof(struct two_parts),
		.make = make_parts, .destroy = destroy_parts,
	};
	const struct ms_algo row = { .name = "two-parts", .ops = &ops };
	struct ms_digest_spec spec = { .algo = &row };
	struct two_parts *s = ops.create(&spec);

	tap_ok(s != NULL && s->a != NULL && s->b != NULL && destroyed == 0,
	    "ms_state_create: a state made whole is returned");
	if (s != NULL)
		destroy_parts(s);
	destroyed = 0;
	spec.bits = 1;
	s = ops.create(&spec);
	tap_ok(s == NULL && destroyed == 1,
	    "ms_state_create: a state half made is destroyed, NULL returned");
}

/* Every row's destroy takes NULL: a half-made state's destroy passes its
 * inner states, made or not, to theirs. */
static void
test_destroy_null(void)
{
	size_t took = 0;

	for (size_t i = 0; i < ms_algo_count; i++) {
		const struct ms_digest_ops *ops = ms_algos[i].ops;

		if (ops->destroy != NULL) {
			ops->destroy(NULL);
			took++;
		}
	}
	tap_ok(took > 0, "%zu rows' destroy took NULL", took);
}

int
main(void)
{
	build_messages();
	test_coverage();
	for (size_t i = 0; i < MS_ARRAY_LEN(vectors); i++)
		test_vector(&vectors[i]);
	test_kat_vectors();
	test_kat_self();
	test_long_inputs();
	test_independent_states();
	test_digest_set();
	test_selection_flags();
	test_resolve();
	test_spec_names();
	test_state_create();
	test_destroy_null();
	for (size_t m = 0; m < M_COUNT; m++)
		free(msg_data[m]);
	return tap_done();
}
