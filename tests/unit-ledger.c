/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * unit-ledger.c - the ledger's fast reading path against manifest.c's
 * generic parser: for odd manifests and for thousands of randomly
 * damaged ones, both must give the same table (names, digests,
 * bookkeeping, flags, counts), and every entry marked plain must be,
 * byte for byte, what the run would write for it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "manifest/format.h"
#include "manifest/ledger.h"
#include "io/text_input.h"
#include "tap.h"
#include "base/util.h"

#define A_SHA256 "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"
#define B_SHA256 "e258d248fda94c63753607f7c4494ee0fcbe92f1a76bfdac795c9d84101eb317"
#define A_MD5 "60b725f10c9c85c70d97880dfe8191b3"
#define STAT1 "#@ 2 1700000000123456789 1700000000123456789 4242\n"
#define STAT2 "#@ 3 1700000001000000000 1700000002000000000 77\n"
#define HDR "#multisum-ledger v1 stamp=1800000000000000000 fields=size,mtime_ns,ctime_ns,ino\n"

static char path[64];

static void
write_file(const char *text, size_t n)
{
	FILE *f;

	/* a new file each time: rewriting one in place may flush it (ext4) */
	unlink(path);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(text, 1, n, f) != n || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

static void
select_algos(struct ms_selection *sel, const char *list)
{
	char buf[64], *tok, *save = NULL;

	memset(sel, 0, sizeof(*sel));
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		struct ms_digest_spec spec;
		const char *why;

		if (ms_algo_resolve(tok, 0, &spec, &why) == -1 ||
		    ms_selection_add(sel, &spec) == -1) {
			fprintf(stderr, "no %s\n", tok);
			exit(2);
		}
	}
}

struct setup {
	const char	*algos;
	struct ms_selection sel;
	struct ms_ledger_shape shape;
	struct ms_format_opts fmt;
};

static void
setup(struct setup *s, const char *algos)
{
	s->algos = algos;
	select_algos(&s->sel, algos);
	memset(&s->shape, 0, sizeof(s->shape));
	memset(&s->fmt, 0, sizeof(s->fmt));
	if (s->sel.cnt == 1) {
		s->shape.kind = MS_SHAPE_GNU;
		s->fmt.format = MS_FORMAT_GNU;
	} else {
		s->shape.kind = MS_SHAPE_BSD;
		s->fmt.format = MS_FORMAT_BSD;
		for (size_t i = 0; i < s->sel.cnt; i++) {
			char buf[48];

			snprintf(s->shape.tag[i], sizeof(s->shape.tag[i]), "%s",
			    ms_spec_tag(&s->sel.spec[i], buf, sizeof(buf)));
		}
	}
}

/*
 * Load text with the fast path (plain and shaped) and the generic parser;
 * true if they agree.  *plain: entries marked plain.
 */
/* The file at path, opened through the door the modes use. */
static const struct ms_manifest_input *
door(struct ms_manifest_input *in)
{
	if (ms_text_input(in, path) == -1)
		abort();
	return in;
}

static bool
agree(struct setup *s, const char *text, size_t n, const char **why,
    size_t *plain)
{
	struct ms_ledger fast, shaped, slow;
	struct ms_manifest_input in[3];
	bool ok;

	write_file(text, n);
	*why = NULL;
	*plain = 0;
	if (ms_ledger_load(&fast, door(&in[0]), &s->sel) == -1 ||
	    ms_ledger_load_shaped(&shaped, door(&in[1]), &s->sel, &s->shape) == -1 ||
	    ms_ledger_load_generic(&slow, door(&in[2]), &s->sel) == -1) {
		*why = "load failed";
		return false;
	}
	if ((*why = ms_ledger_differs(&fast, &slow)) == NULL &&
	    (*why = ms_ledger_differs(&shaped, &slow)) == NULL)
		*why = ms_ledger_plain_differs(&shaped, &s->fmt, text, n, plain);
	for (size_t i = 0; i < fast.cnt; i++)
		if (fast.e[i].flags & MS_LEDGER_PLAIN)
			*why = "plain without a shape";
	ok = *why == NULL;
	ms_ledger_free(&fast);
	ms_ledger_free(&shaped);
	ms_ledger_free(&slow);
	return ok;
}

static const struct {
	const char	*what;
	const char	*algos;
	const char	*text;
	size_t		 plain;		/* entries that must come out plain */
} cases[] = {
	{ "GNU ledger", "sha256",
	    HDR STAT1 A_SHA256 "  d/a\n" STAT2 B_SHA256 "  d/b\n", 2 },
	{ "BSD ledger", "md5,sha256",
	    HDR STAT1 "MD5 (d/a) = " A_MD5 "\nSHA256 (d/a) = " A_SHA256 "\n"
	    STAT2 "MD5 (d/(b) = x) = " A_MD5 "\nSHA256 (d/(b) = x) = " A_SHA256 "\n", 2 },
	{ "BSD lines out of order", "md5,sha256",
	    HDR STAT1 "SHA256 (d/a) = " A_SHA256 "\nMD5 (d/a) = " A_MD5 "\n", 0 },
	{ "escaped names", "sha256",
	    HDR STAT1 "\\" A_SHA256 "  d/a\\nb\\\\c\n" STAT2 "\\" A_SHA256 "  d/\\q\n", 0 },
	{ "CRLF", "sha256",
	    HDR STAT1 A_SHA256 "  d/a\r\n" STAT2 A_SHA256 "  d/b\r\r\n", 0 },
	{ "CRLF bookkeeping", "sha256",
	    HDR "#@ 2 1 1 1\r\n" A_SHA256 "  d/a\n", 0 },
	{ "missing #@ lines", "sha256",
	    HDR A_SHA256 "  d/a\n" STAT1 STAT2 A_SHA256 "  d/b\n"
	    "# a comment\n" A_SHA256 "  d/c\n", 1 },
	{ "sha256sum manifest", "sha256",
	    A_SHA256 "  d/a\n" A_SHA256 " *d/b\n" B_SHA256 "  d/c\n", 0 },
	{ "reversed lines", "sha256",
	    HDR STAT1 A_SHA256 " d/a\n" STAT2 A_SHA256 "  d/b\n", 0 },
	{ "upper case, leading zeros, -0", "sha256",
	    HDR STAT1 "5891B5B522D5DF086D0FF0B110FBD9D21BB4FC7163AF34D08286A2E846F6BE03  d/a\n"
	    "#@ 02 1 1 1\n" A_SHA256 "  d/b\n" "#@ 2 -0 1 1\n" A_SHA256 "  d/c\n"
	    "#@ 2 1 1 1 \n" A_SHA256 "  d/d\n" "#@ 2 1 1 1\n" A_SHA256 "  d/e\n", 1 },
	{ "short digests, names that look like tags", "md5",
	    HDR STAT1 A_MD5 "  (x) = y\n" STAT2 A_MD5 "  d/(b\n", 1 },
	{ "names that look like tags", "sha256",
	    HDR STAT1 A_SHA256 "  (x) = y\n" STAT2 A_SHA256 "   (z\n"
	    STAT1 A_SHA256 "   \n" STAT2 A_SHA256 "  \n", 0 },
	{ "a NUL byte", "sha256",
	    HDR STAT1 A_SHA256 "  d/a\0b\n" STAT2 A_SHA256 "  d/b\n", 1 },
	{ "duplicates and foreign lines", "sha256",
	    HDR STAT1 A_SHA256 "  d/a\n" STAT2 A_SHA256 "  d/a\n"
	    STAT1 "MD5 (d/m) = " A_MD5 "\n" STAT2 "SHA256 (d/t) = " A_SHA256 "\n", 2 },
	{ "PGP armour", "sha256",
	    "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n" STAT1
	    A_SHA256 "  d/a\n-----BEGIN PGP SIGNATURE-----\nxx\n"
	    "-----END PGP SIGNATURE-----\n" A_SHA256 "  d/b\n", 0 },
	{ "gpg and SFV lines", "sha256",
	    HDR "d/g: 58 91 B5 B5 22 D5 DF 08 6D 0F F0 B1 10 FB D9 D2\n"
	    "    1B B4 FC 71 63 AF 34 D0 82 86 A2 E8 46 F6 BE 03\n"
	    STAT1 A_SHA256 "  d/a\n; sfv\nd/s " A_SHA256 "\n" A_SHA256 "  d/b\n", 0 },
	{ "a storage tool's record open (fuzz-ledger)", "sha256",
	    HDR "crc32c_hash: \nSHA256 (d/a) = " A_SHA256 "\n" STAT1
	    "md5_hash: x\n" A_SHA256 "  d/b\n" STAT2 A_SHA256 "  d/c\n", 1 },
	{ "gsutil and AWS records open", "sha256",
	    HDR "Hashes [hex] for d/g:\n" A_SHA256 "  d/a\n{\n"
	    A_SHA256 "  d/b\n}\n" STAT1 A_SHA256 "  d/c\n", 1 },
	{ "a CertUtil record and a hashdeep table", "sha256",
	    HDR "SHA256 hash of d/w:\n" A_SHA256 "  d/a\n"
	    "%%%% HASHDEEP-1.0\n%%%% size,sha256,filename\n"
	    A_SHA256 "  d/b\n", 0 },
	{ "tabs and padding", "md5,sha256",
	    HDR STAT1 "MD5  (d/a) = " A_MD5 "\nSHA256 (d/a)\t= " A_SHA256 "\n"
	    STAT2 "MD5 (d/b) =  " A_MD5 "\nSHA256 (d/b) = " A_SHA256 " \n", 0 },
	{ "no newline at the end", "sha256",
	    HDR STAT1 A_SHA256 "  d/a\n" STAT2 A_SHA256 "  d/b", 1 },
	{ "a CR and no newline at the end", "sha256",
	    HDR STAT1 A_SHA256 "  d/a\n" STAT2 A_SHA256 "  d/b\r", 1 },
	{ "BSD lines parted by #@", "md5,sha256",
	    HDR STAT1 "MD5 (d/a) = " A_MD5 "\n" STAT2 "SHA256 (d/a) = " A_SHA256 "\n", 0 },
};

/* An entry of a manifest, in GNU or BSD lines, for the damage test. */
static size_t
base_text(char *buf, size_t cap, bool bsd, const struct ms_selection *sel)
{
	size_t n = (size_t)snprintf(buf, cap, "%s", HDR);
	int hl = (int)(2 * ms_spec_len(&sel->spec[0]));

	for (int i = 0; i < 6 && n < cap; i++) {
		n += (size_t)snprintf(buf + n, cap - n, "#@ %d 17%d0000000 17%d0000000 %d\n",
		    i, i, i, 100 + i);
		if (bsd)
			n += (size_t)snprintf(buf + n, cap - n,
			    "MD5 (d/%c) = %s\nSHA256 (d/%c) = %s\n", 'a' + i,
			    A_MD5, 'a' + i, A_SHA256);
		else
			n += (size_t)snprintf(buf + n, cap - n, "%.*s  d/%c\n",
			    hl, i % 2 ? A_SHA256 : B_SHA256, 'a' + i);
	}
	return n;
}

/* Random damage: bytes that matter to one rule or another. */
static void
damage(char *buf, size_t *n, unsigned *seed)
{
	static const char alphabet[] = " \t\r\n()=\\#@-0aAfFxS:;*{";
	int edits = 1 + rand_r(seed) % 3;

	for (int k = 0; k < edits && *n > 0; k++) {
		size_t at = (size_t)rand_r(seed) % *n;
		char c = rand_r(seed) % 8 == 0 ? '\0' :
		    alphabet[rand_r(seed) % (int)(sizeof(alphabet) - 1)];

		switch (rand_r(seed) % 3) {
		case 0:		/* replace */
			buf[at] = c;
			break;
		case 1:		/* insert */
			memmove(buf + at + 1, buf + at, *n - at);
			buf[at] = c;
			(*n)++;
			break;
		default:	/* delete */
			memmove(buf + at, buf + at + 1, *n - at - 1);
			(*n)--;
			break;
		}
	}
}

int
main(void)
{
	struct setup gnu, bsd, md5, crc;
	struct setup *fuzz[] = { &gnu, &bsd, &md5, &crc };
	const char *why;
	size_t plain;
	unsigned seed = 11;

	snprintf(path, sizeof(path), "unit-ledger.%ld.tmp", (long)getpid());
	setup(&gnu, "sha256");
	setup(&bsd, "md5,sha256");
	setup(&md5, "md5");
	setup(&crc, "crc32");
	for (size_t i = 0; i < MS_ARRAY_LEN(cases); i++) {
		struct setup *s = strcmp(cases[i].algos, "sha256") == 0 ? &gnu :
		    strcmp(cases[i].algos, "md5") == 0 ? &md5 : &bsd;
		/* the literal's own length: some hold a NUL */
		size_t n = strlen(cases[i].text);

		if (strcmp(cases[i].what, "a NUL byte") == 0)
			n += 1 + strlen(cases[i].text + n + 1);
		tap_ok(agree(s, cases[i].text, n, &why, &plain) &&
		    plain == cases[i].plain, "%s: fast path and parser agree, "
		    "%zu plain", cases[i].what, cases[i].plain);
		if (why != NULL || plain != cases[i].plain)
			tap_diag("%s (%zu plain)", why ? why : "plain count", plain);
	}
	for (size_t b = 0; b < MS_ARRAY_LEN(fuzz); b++) {
		struct setup *s = fuzz[b];
		size_t bad = 0, plains = 0, tries = 1500;
		const char *first = NULL;

		for (size_t t = 0; t < tries; t++) {
			char buf[4096];
			size_t n = base_text(buf, sizeof(buf) - 8, s == &bsd,
			    &s->sel);

			damage(buf, &n, &seed);
			if (!agree(s, buf, n, &why, &plain)) {
				bad++;
				if (first == NULL)
					first = why;
			}
			plains += plain;
		}
		tap_ok(bad == 0, "%s: %zu damaged manifests read alike",
		    s->algos, tries);
		if (bad > 0)
			tap_diag("%zu differ, first: %s", bad, first);
		/* most damage leaves most entries intact: plain ones seen */
		tap_ok(plains > tries, "%s: plain entries among them (%zu)",
		    s->algos, plains);
	}
	unlink(path);
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
