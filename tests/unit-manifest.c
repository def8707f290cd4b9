/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * unit-manifest.c - the manifest line parser, native, coreutils and b3sum
 * rules, on lines whose verdict is known.
 */
#include <stdlib.h>
#include <string.h>

#include "manifest/manifest.h"
#include "tap.h"
#include "base/util.h"

#define H_A_SHA256 "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"
#define H_A_MD5 "b1946ac92492d2347c6235b4d2611184"
#define H_A_B2 "f60ce482e5cc1229f39d71313171a8d9f4ca3a87d066bf4b205effb528192a75" \
	"f14f3271e2c1a90e1de53f275b4d4793eef2f5e31ea90d2ce29d2e481c36435f"
#define B64_A_SHA256 "WJG1tSLV3whtD/CxEPvZ0hu0/HFjrzTQgoai6Eb2vgM="

#define BAD(l)			{ l, MS_LINE_BAD, NULL, NULL, NULL }
#define UNSUP(l)		{ l, MS_LINE_UNSUPPORTED, NULL, NULL, NULL }
#define SKIP(l)			{ l, MS_LINE_SKIP, NULL, NULL, NULL }
#define ENTRY(l, n, a, h)	{ l, MS_LINE_ENTRY, n, a, h }

struct want {
	const char	*line;
	enum ms_line	 rc;
	const char	*name;		/* for entries */
	const char	*algo;		/* spec name, "sha256", "blake2b-256" */
	const char	*hex;		/* expected digest, NULL: don't care */
};

static const char *
spec_name(const struct ms_digest_spec *s)
{
	static char buf[32];

	return ms_spec_name(s, buf, sizeof(buf));
}

/* Feed the lines in order (state carries over) and compare each verdict. */
static void
run(const char *what, const struct ms_manifest_rules *r, const char *path,
    const struct want *w, size_t n)
{
	struct ms_manifest_state st = { .reversed = -1 };

	ms_manifest_begin(r, &st, path);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(w[i].line);
		char *line = malloc(len + 1);
		struct ms_manifest_entry e;
		enum ms_line rc;
		bool ok;

		memcpy(line, w[i].line, len + 1);
		rc = ms_manifest_parse(r, &st, line, len, &e);
		ok = rc == w[i].rc;
		if (ok && rc == MS_LINE_ENTRY) {
			char hex[2 * MS_DIGEST_MAX + 1];

			ms_hex(hex, e.d[0].digest, e.d[0].len);
			ok = strcmp(e.name, w[i].name) == 0 &&
			    strcmp(spec_name(&e.d[0].spec), w[i].algo) == 0 &&
			    (w[i].hex == NULL || strcmp(hex, w[i].hex) == 0);
			if (!ok)
				printf("# got name '%s' algo %s digest %s\n", e.name,
				    spec_name(&e.d[0].spec), hex);
		} else if (!ok) {
			printf("# got verdict %d, want %d\n", rc, w[i].rc);
		}
		tap_ok(ok, "%s: line %zu", what, i + 1);
		free(line);
	}
	ms_manifest_end(&st);
}

#define RUN(what, r, path, w)	run(what, r, path, w, MS_ARRAY_LEN(w))

/* Parse one line given as text, in st; e points into a copy that lasts
 * until the next call. */
static enum ms_line
parse_text(const struct ms_manifest_rules *r, struct ms_manifest_state *st,
    const char *text, struct ms_manifest_entry *e)
{
	static char line[256];

	snprintf(line, sizeof(line), "%s", text);
	return ms_manifest_parse(r, st, line, strlen(line), e);
}

static void
test_native(void)
{
	struct ms_manifest_rules r = { .dialect = MS_DIALECT_NATIVE };
	static const struct want gnu[] = {
		SKIP("# comment\n"),
		SKIP("\n"),
		SKIP("\r\n"),
		ENTRY(H_A_SHA256 "  a\n", "a", "sha256", H_A_SHA256),
		ENTRY(H_A_SHA256 " *bin\r\n", "bin", "sha256", NULL),
		ENTRY(H_A_MD5 "  a\n", "a", "md5", H_A_MD5),
		ENTRY(H_A_B2 "  a\n", "a", "sha512", NULL),
		ENTRY("\\" H_A_SHA256 "  new\\nline\\\\x\n", "new\nline\\x", "sha256", NULL),
		BAD("\\" H_A_SHA256 "  bad\\q\n"),
		BAD("\\" H_A_SHA256 "  trailing\\\n"),
		BAD(H_A_SHA256 "\n"),
		BAD(H_A_SHA256 "  \n"),	/* after GNU lines: reversed */
		BAD("garbage\n"),
		BAD("abc  a\n"),
		BAD("0123456789abcdef0123  a\n"),
		ENTRY(B64_A_SHA256 "  a\n", "a", "sha256", H_A_SHA256),
		ENTRY(H_A_SHA256 "  two  spaces \n", "two  spaces ", "sha256", NULL),
	};
	static const struct want tags[] = {
		ENTRY("SHA256 (a) = " H_A_SHA256 "\n", "a", "sha256", H_A_SHA256),
		ENTRY("SHA-256 (a) = " H_A_SHA256 "\n", "a", "sha256", NULL),
		ENTRY("SHA2-256(a)= " H_A_SHA256 "\n", "a", "sha256", NULL),
		ENTRY("MD5   (a) = " H_A_MD5 "\n", "a", "md5", NULL),
		ENTRY("BLAKE2B-512(a)= " H_A_B2 "\n", "a", "blake2b", NULL),
		ENTRY("BLAKE2b-128 (a) = " H_A_MD5 "\n", "a", "blake2b-128", NULL),
		BAD("BLAKE2b (a) = " H_A_MD5 "\n"),
		ENTRY("RMD160 (a) = 0057b0dc5aac7c215a9a458d6c3c85cd21089af8\n", "a", "ripemd160", NULL),
		ENTRY("RIPEMD-160(a)= 0057b0dc5aac7c215a9a458d6c3c85cd21089af8\n", "a", "ripemd160", NULL),
		ENTRY("XXH3 (a) = 99fc819aaba2462a\n", "a", "xxh3", NULL),
		ENTRY("CRC32 (a) = 363a3020\n", "a", "crc32", NULL),
		ENTRY("SHA2-512/256(a)= 7f3f0c0d5219f51459578305ed2bbc198588758da85d08024c79c1195d1cd611\n", "a", "sha512-256", NULL),
		ENTRY("SHA256 (a (b)) = " H_A_SHA256 "\n", "a (b)", "sha256", NULL),
		ENTRY("SHA256 (a) = " B64_A_SHA256 "\n", "a", "sha256", H_A_SHA256),
		ENTRY("\\SHA256 (a\\nb) = " H_A_SHA256 "\n", "a\nb", "sha256", NULL),
		BAD("SHA256 (a) = " H_A_MD5 "\n"),
		BAD("SHA256 (a) " H_A_SHA256 "\n"),
		UNSUP("MD2 (a) = " H_A_MD5 "\n"),
		BAD("CRC (a) = 1234\n"),
		ENTRY("SHA256 () = " H_A_SHA256 "\n", "", "sha256", NULL),
		ENTRY("BLAKE2b-24 (a) = 784e\n", "a", "blake2b-24", "efce1e"),
		ENTRY("SHAKE-128(a)= " H_A_MD5 "\n", "a", "shake128-128", NULL),
		ENTRY("CRC (a) = 82b604a4\n", "a", "cksum", "82b604a4"),
		UNSUP("BLAKE7 (a) = " H_A_SHA256 "\n"),
		ENTRY("SHA512-224 (a) = 4d32058e76908e46640feeaf6e3f47ca6c124e971745748aa0ce8f7a\n", "a", "sha512-224", NULL),
		ENTRY("{\"path\":\"a\\nb\",\"size\":6,\"sha256\":\"" H_A_SHA256 "\"}\n", "a\nb", "sha256", H_A_SHA256),
		ENTRY("XXH3_99fc819aaba2462a  a\n", "a", "xxh3", NULL),
	};
	static const struct want reversed[] = {
		ENTRY(H_A_SHA256 " a\n", "a", "sha256", NULL),
		ENTRY(H_A_SHA256 "  b\n", " b", "sha256", NULL),
	};
	static const struct want nul[] = {
		BAD(H_A_SHA256 "  a\0b\n"),
	};
	static const struct want sfv[] = {
		SKIP("; Generated by a tool\n"),
		ENTRY("a 363A3020\n", "a", "crc32", "363a3020"),
		ENTRY("with space 363a3020\n", "with space", "crc32", NULL),
		BAD("a 363A302\n"),
	};
	static const struct want bom[] = {
		ENTRY("\xef\xbb\xbf" H_A_MD5 "  a\n", "a", "md5", NULL),
		BAD("\xef\xbb\xbf" H_A_MD5 "  a\n"),
	};
	static const struct want b2[] = {
		ENTRY(H_A_B2 "  a\n", "a", "blake2b", NULL),
		ENTRY(H_A_MD5 "  a\n", "a", "blake2b-128", NULL),
	};
	static const struct want dash[] = {
		BAD(H_A_SHA256 "  -\n"),
	};
	size_t len = strlen(nul[0].line) + 3;
	struct ms_manifest_state st = { .reversed = -1 };
	struct ms_manifest_entry e;
	char line[256];

	RUN("native GNU", &r, "list", gnu);
	RUN("native tags", &r, "list", tags);
	RUN("native reversed", &r, "list", reversed);
	RUN("native SFV", &r, "list", sfv);
	RUN("native BOM", &r, "list", bom);
	RUN("native B2SUMS", &r, "dir/B2SUMS", b2);
	RUN("native stdin", &r, "-", dash);

	/* A NUL inside a line: strlen cannot give its length. */
	memcpy(line, H_A_SHA256 "  a\0b\n", len);
	ms_manifest_begin(&r, &st, "list");
	tap_ok(ms_manifest_parse(&r, &st, line, len - 1, &e) == MS_LINE_ENTRY &&
	    strcmp(e.name, "a") == 0, "native: a NUL byte ends a plain name");
	memcpy(line, "\\" H_A_SHA256 "  a\0b\n", len + 1);
	tap_ok(ms_manifest_parse(&r, &st, line, len, &e) == MS_LINE_BAD,
	    "native: a NUL byte spoils an escaped name");
	(void)nul;

	/* One guess per untagged digest; 8 hex digits are SFV's CRC-32. */
	ms_manifest_begin(&r, &st, "list");
	tap_ok(parse_text(&r, &st, "363a3020  a\n", &e) == MS_LINE_ENTRY &&
	    e.how == MS_BY_LENGTH && e.guessed == 1 &&
	    strcmp(e.d[0].spec.algo->name, "crc32") == 0,
	    "native: 8 hex digits are a guess of crc32");
	tap_ok(parse_text(&r, &st, H_A_MD5 "  a\n", &e) ==
	    MS_LINE_ENTRY && e.n == 1 && e.how == MS_BY_LENGTH &&
	    strcmp(e.d[0].spec.algo->name, "md5") == 0,
	    "native: 32 hex digits are MD5 only, never XXH128");
	ms_manifest_end(&st);
}

static void
test_names(void)
{
	static const struct {
		const char	*path;
		const char	*algo;
	} names[] = {
		{ "SHA256SUMS", "sha256" }, { "dir/MD5SUMS", "md5" },
		{ "x.sha256", "sha256" }, { "x.md5", "md5" },
		{ "B2SUMS", "blake2b" }, { "x.sfv", "crc32" },
		{ "x.xxh128", "xxh128" }, { "x.sha3-256", "sha3-256" },
		{ "SHA1SUM", "sha1" }, { "a.sha512sum", "sha512" },
		{ "manifest", NULL }, { "CHECKSUMS", NULL }, { "x.txt", NULL },
	};

	for (size_t i = 0; i < MS_ARRAY_LEN(names); i++) {
		bool sfv = false;
		const struct ms_algo *a = ms_manifest_name_algo(names[i].path, &sfv);

		tap_ok(names[i].algo ? a != NULL && strcmp(a->name, names[i].algo) == 0
		    : a == NULL, "manifest name %s", names[i].path);
	}
}

static const struct ms_algo *
algo(const char *name)
{
	struct ms_digest_spec s;
	const char *why;

	if (ms_algo_resolve(name, 0, &s, &why) == -1)
		abort();
	return s.algo;
}

static void
test_coreutils(void)
{
	struct ms_manifest_rules sha = { .dialect = MS_DIALECT_COREUTILS,
	    .tool = algo("sha256"), .min_line = 66 };
	struct ms_manifest_rules b2 = { .dialect = MS_DIALECT_COREUTILS,
	    .tool = algo("blake2b"), .tag_length = true, .auto_length = true,
	    .min_line = 3 };
	struct ms_manifest_rules ck = { .dialect = MS_DIALECT_CKSUM,
	    .tag_length = true, .min_line = 3 };
	static const struct want sha_lines[] = {
		ENTRY(H_A_SHA256 "  a\n", "a", "sha256", NULL),
		ENTRY("SHA256 (a) = " H_A_SHA256 "\n", "a", "sha256", NULL),
		ENTRY("SHA256(a)= " H_A_SHA256 "\n", "a", "sha256", NULL),
		BAD("SHA256  (a) = " H_A_SHA256 "\n"),
		BAD("SHA-256 (a) = " H_A_SHA256 "\n"),
		BAD("SHA256 (a) = " B64_A_SHA256 "\n"),
		BAD("\xef\xbb\xbf" H_A_SHA256 "  a\n"),
		BAD(" # not a comment\n"),
		ENTRY("\\" H_A_SHA256 "  a\\rb\n", "a\rb", "sha256", NULL),
		BAD(H_A_SHA256 " c\n"),	/* GNU seen first */
	};
	static const struct want b2_lines[] = {
		ENTRY("BLAKE2b (a) = " H_A_B2 "\n", "a", "blake2b", NULL),
		ENTRY("BLAKE2bX (a) = " H_A_B2 "\n", "a", "blake2b", NULL),
		ENTRY("BLAKE2b-128 (a) = " H_A_MD5 "\n", "a", "blake2b-128", NULL),
		ENTRY("BLAKE2b-0x80 (a) = " H_A_MD5 "\n", "a", "blake2b-128", NULL),
		BAD("BLAKE2b-129 (a) = " H_A_MD5 "\n"),
		ENTRY(H_A_MD5 "  a\n", "a", "blake2b-128", NULL),
		ENTRY("ab  a\n", "a", "blake2b-8", NULL),
		BAD("BLAKE2b\n"),
	};
	static const struct want ck_lines[] = {
		ENTRY("SHA256 (a) = " H_A_SHA256 "\n", "a", "sha256", NULL),
		BAD("SHA256  (a) = " H_A_SHA256 "\n"),	/* 9.11 */
		ENTRY("SHA2-256 (a) = " H_A_SHA256 "\n", "a", "sha256", NULL),
		ENTRY("SHA256 (a) = " B64_A_SHA256 "\n", "a", "sha256", NULL),
		BAD("SHA2-128 (a) = " H_A_MD5 "\n"),
		BAD("CRC32B (a) = 1234\n"),
		ENTRY("MD5 (a) = " H_A_MD5 "\n", "a", "md5", NULL),
		ENTRY("SHA256-128 (a) = " H_A_MD5 "\n", "a", "sha256", NULL),
		BAD(H_A_SHA256 "  a\n"),
		BAD("CRC (a) = 1234\n"),
		BAD("md5 (a) = " H_A_MD5 "\n"),
		BAD("SHA2560 (a) = " H_A_SHA256 "\n"),
	};
	struct ms_manifest_state st = { .reversed = -1 };
	struct ms_manifest_entry e;

	RUN("sha256sum", &sha, "list", sha_lines);
	RUN("b2sum", &b2, "list", b2_lines);
	RUN("cksum", &ck, "list", ck_lines);

	/* cksum names the algorithm of the last tag in its warnings. */
	ms_manifest_begin(&ck, &st, "list");
	tap_is_str(ms_manifest_type(&ck, &st), "CRC", "cksum type before a tag");
	parse_text(&ck, &st, "MD5 (a) = " H_A_SHA256 "\n", &e);
	tap_is_str(ms_manifest_type(&ck, &st), "MD5", "cksum type after MD5");
	tap_ok(parse_text(&ck, &st, "SHA256-128 (a) = " H_A_MD5 "\n", &e) ==
	    MS_LINE_ENTRY && e.d[0].len == 16, "cksum: a prefix of SHA256");
	ms_manifest_end(&st);
}

static void
test_expect(void)
{
	struct ms_manifest_entry e;
	struct ms_selection sel = { 0 };
	struct ms_digest_spec s;
	const char *why;

	tap_ok(ms_manifest_expect(H_A_SHA256, NULL, &e, &why) == 0 &&
	    strcmp(e.d[0].spec.algo->name, "sha256") == 0, "--expect by length");
	tap_ok(ms_manifest_expect("xyz", NULL, &e, &why) == -1, "--expect garbage");
	ms_algo_resolve("sha3-256", 0, &s, &why);
	ms_selection_add(&sel, &s);
	tap_ok(ms_manifest_expect(H_A_SHA256, &sel, &e, &why) == 0 &&
	    strcmp(e.d[0].spec.algo->name, "sha3-256") == 0, "--expect with -a");
	tap_ok(ms_manifest_expect(H_A_MD5, &sel, &e, &why) == -1,
	    "--expect length not of -a");

	/* A prefix names the algorithm; noise around the digest is ignored. */
	static const struct {
		const char	*text;
		const char	*algo;
	} pre[] = {
		{ "sha256:" H_A_SHA256, "sha256" },
		{ "sha256=" H_A_SHA256, "sha256" },
		{ "SHA256:" H_A_SHA256, "sha256" },
		{ "sha256-" B64_A_SHA256, "sha256" },
		{ "sha3-256:" H_A_SHA256, "sha3-256" },
		{ "  " H_A_SHA256 "\r\n", "sha256" },
		{ H_A_SHA256 "  a.iso\n", "sha256" },
		{ "xxh128:" H_A_MD5, "xxh128" },
	};
	for (size_t k = 0; k < MS_ARRAY_LEN(pre); k++)
		tap_ok(ms_manifest_expect(pre[k].text, NULL, &e, &why) == 0 &&
		    strcmp(e.d[0].spec.algo->name, pre[k].algo) == 0 &&
		    e.d[0].len == ms_spec_len(&e.d[0].spec),
		    "--expect '%s'", pre[k].text);
	tap_ok(ms_manifest_expect("363a3020", NULL, &e, &why) == 0 &&
	    strcmp(e.d[0].spec.algo->name, "crc32") == 0 && e.guessed == 1,
	    "--expect: 8 hex digits are a guess of crc32");
	tap_ok(ms_manifest_expect("sha256:" H_A_MD5, NULL, &e, &why) == -1,
	    "--expect: a prefix fixes the length");
	/* B21: "784e" is base64 of a 3-byte digest, by -a's length. */
	memset(&sel, 0, sizeof(sel));
	ms_algo_resolve("blake2b-24", 0, &s, &why);
	ms_selection_add(&sel, &s);
	tap_ok(ms_manifest_expect("784e", &sel, &e, &why) == 0 &&
	    e.d[0].len == 3, "--expect: base64 by length, not alphabet");
}

/* Every prefix of hostile lines: no crash, no read past the end. */
static void
test_robust(void)
{
	static const char *const lines[] = {
		"\\SHA256 (a\\", "BLAKE2b-", "BLAKE2b-99999999999999999999999 (",
		"SHA256 (", "SHA256 ((((", "\\\\\\\\", "  \t ", "MD5",
		H_A_SHA256 "  ", "\\" H_A_SHA256 "  \\", "a 363a3020",
	};
	struct ms_manifest_rules rules[] = {
		{ .dialect = MS_DIALECT_NATIVE },
		{ .dialect = MS_DIALECT_COREUTILS, .tool = algo("sha256"),
		  .min_line = 66 },
		{ .dialect = MS_DIALECT_COREUTILS, .tool = algo("blake2b"),
		  .tag_length = true, .auto_length = true, .min_line = 3 },
		{ .dialect = MS_DIALECT_CKSUM, .tag_length = true, .min_line = 3 },
		{ .dialect = MS_DIALECT_COREUTILS, .tool = algo("md5"),
		  .tag_length = true, .min_line = 3 },
	};
	size_t count = 0;

	for (size_t k = 0; k < MS_ARRAY_LEN(rules); k++) {
		struct ms_manifest_state st = { .reversed = -1 };

		ms_manifest_begin(&rules[k], &st, "x.sfv");
		for (size_t i = 0; i < MS_ARRAY_LEN(lines); i++)
			for (size_t n = 0; n <= strlen(lines[i]); n++) {
				/* exact-size heap copy: ASan sees overreads */
				char *p = malloc(n + 1);
				struct ms_manifest_entry e;

				memcpy(p, lines[i], n);
				p[n] = '\0';
				ms_manifest_parse(&rules[k], &st, p, n, &e);
				free(p);
				count++;
			}
		ms_manifest_end(&st);
	}
	tap_ok(count > 0, "%zu hostile prefixes parsed", count);
}

/* Parse text (one line) under r and st; the verdict. */
static enum ms_line
parse1(const struct ms_manifest_rules *r, struct ms_manifest_state *st,
    const char *text, size_t len, struct ms_manifest_entry *e, char *buf)
{
	memcpy(buf, text, len);
	buf[len] = '\0';
	return ms_manifest_parse(r, st, buf, len, e);
}

#define P(r, st, text, e)	parse1(r, st, text, strlen(text), e, buf)

/* Issues 9 and 10: what projects publish, and what multisum writes. */
static void
test_published(void)
{
	struct ms_manifest_rules r = { .dialect = MS_DIALECT_NATIVE };
	struct ms_manifest_state st = { .reversed = -1 };
	struct ms_manifest_entry e;
	struct ms_selection sel = { 0 };
	struct ms_digest_spec s;
	const char *why;
	char buf[512];

	/* SFV and RHash put the name first; by content, not by file name */
	ms_manifest_begin(&r, &st, "list");
	tap_ok(P(&r, &st, "my file.txt 46EA081F\n", &e) == MS_LINE_ENTRY &&
	    strcmp(e.name, "my file.txt") == 0 && e.n == 1 &&
	    strcmp(e.d[0].spec.algo->name, "crc32") == 0 &&
	    e.how == MS_BY_FORMAT, "SFV line by content");
	tap_ok(P(&r, &st, "a  " H_A_MD5 "  f572d396fae9206628714fb2ce00f72e94f2258f  "
	    H_A_SHA256 "\n", &e) == MS_LINE_ENTRY && e.n == 3 &&
	    strcmp(e.name, "a") == 0 &&
	    strcmp(e.d[0].spec.algo->name, "md5") == 0 &&
	    strcmp(e.d[2].spec.algo->name, "sha256") == 0,
	    "rhash --md5 --sha1 --sha256: one entry, three digests");
	ms_manifest_end(&st);

	/* gpg --print-md: one record over two lines, handed out after them */
	ms_manifest_begin(&r, &st, "list");
	tap_ok(P(&r, &st, "f: E7C22B99 4C59D9CF 2B48E549 B1E24666 63604593 "
	    "0D3DA7C1 ACB299D1 C3B7F931\n", &e) == MS_LINE_SKIP,
	    "gpg --print-md: a record opens");
	tap_ok(P(&r, &st, "   F94AAE41 EDDA2C2B 207A36E1 0F8BCB8D 45223E54 "
	    "878F5B31 6E7CE3B6 BC019629\n", &e) == MS_LINE_SKIP,
	    "gpg --print-md: continued");
	tap_ok(P(&r, &st, H_A_MD5 "  a\n", &e) == MS_LINE_ENTRY && st.again &&
	    strcmp(e.name, "f") == 0 &&
	    strcmp(e.d[0].spec.algo->name, "sha512") == 0,
	    "gpg --print-md: the next line closes it");
	tap_ok(P(&r, &st, H_A_MD5 "  a\n", &e) == MS_LINE_ENTRY && !st.again &&
	    strcmp(e.name, "a") == 0, "and is read itself");
	tap_ok(P(&r, &st, "g: B1 94 6A C9 24 92 D2 34  7C 62 35 B4 D2 61 11 84\n",
	    &e) == MS_LINE_SKIP && ms_manifest_finish(&r, &st, &e) ==
	    MS_LINE_ENTRY && strcmp(e.name, "g") == 0 &&
	    strcmp(e.d[0].spec.algo->name, "md5") == 0,
	    "gpg --print-md: the end closes the last record");
	ms_manifest_end(&st);

	/* PGP clear-signed: only the body is inside */
	ms_manifest_begin(&r, &st, "SUMS.asc");
	tap_ok(P(&r, &st, H_A_SHA256 "  before\n", &e) == MS_LINE_ENTRY &&
	    e.outside, "PGP: a line before the header is outside");
	tap_ok(P(&r, &st, "-----BEGIN PGP SIGNED MESSAGE-----\n", &e) ==
	    MS_LINE_SKIP && st.pgp_seen, "PGP: header");
	tap_ok(P(&r, &st, "Hash: SHA256\n", &e) == MS_LINE_SKIP, "PGP: armour");
	tap_ok(P(&r, &st, "\n", &e) == MS_LINE_SKIP, "PGP: blank");
	tap_ok(P(&r, &st, H_A_SHA256 "  a\n", &e) == MS_LINE_ENTRY &&
	    !e.outside, "PGP: the body is inside");
	tap_ok(P(&r, &st, "- " H_A_SHA256 "  -dash\n", &e) == MS_LINE_ENTRY &&
	    !e.outside && strcmp(e.name, "-dash") == 0, "PGP: dash-escaped");
	tap_ok(P(&r, &st, "-----BEGIN PGP SIGNATURE-----\n", &e) == MS_LINE_SKIP,
	    "PGP: signature");
	tap_ok(P(&r, &st, "iHUEARYIAB0WIQSBGYc+EtHZcu0lq9mRc5yhqwS4rQUCaw5FGQAK\n",
	    &e) == MS_LINE_SKIP, "PGP: signature body skipped");
	tap_ok(P(&r, &st, "-----END PGP SIGNATURE-----\n", &e) == MS_LINE_SKIP,
	    "PGP: end");
	tap_ok(P(&r, &st, H_A_SHA256 "  after\n", &e) == MS_LINE_ENTRY &&
	    e.outside, "PGP: a line after the signature is outside");
	ms_manifest_end(&st);

	/* A file of only the digest names the file beside it */
	ms_manifest_begin(&r, &st, "dir/x.iso.sha256");
	tap_ok(P(&r, &st, H_A_SHA256, &e) == MS_LINE_ENTRY &&
	    strcmp(e.name, "dir/x.iso") == 0 &&
	    strcmp(e.d[0].spec.algo->name, "sha256") == 0,
	    "x.iso.sha256 holding only the digest");
	ms_manifest_end(&st);

	/* UTF-16 is refused once, the rest not read */
	ms_manifest_begin(&r, &st, "list");
	tap_ok(parse1(&r, &st, "\xff\xfeS\0H\0\n", 7, &e, buf) == MS_LINE_BAD &&
	    e.why != NULL, "UTF-16: refused with a reason");
	tap_ok(P(&r, &st, H_A_SHA256 "  a\n", &e) == MS_LINE_SKIP,
	    "UTF-16: nothing after it is read");
	ms_manifest_end(&st);

	/* -z: the NUL ends the line, a newline belongs to the name */
	r.zero = true;
	ms_manifest_begin(&r, &st, "list");
	tap_ok(parse1(&r, &st, H_A_SHA256 "  a\nb", 64 + 5, &e, buf) ==
	    MS_LINE_ENTRY && strcmp(e.name, "a\nb") == 0, "-z: newline in a name");
	ms_manifest_end(&st);
	r.zero = false;

	/* -a cksum reads cksum's own "CRC SIZE NAME" */
	ms_algo_resolve("cksum", 0, &s, &why);
	ms_selection_add(&sel, &s);
	r.given = &sel;
	ms_manifest_begin(&r, &st, "list");
	tap_ok(P(&r, &st, "4294967295 0 empty\n", &e) == MS_LINE_ENTRY &&
	    strcmp(e.name, "empty") == 0 && e.d[0].len == 4 &&
	    memcmp(e.d[0].digest, "\xff\xff\xff\xff", 4) == 0,
	    "-a cksum: the legacy line");
	ms_manifest_end(&st);
}

/* b3sum 1.2's -c: its reason for each line it refuses, in its order. */
static void
test_b3sum(void)
{
#define H_B3 "b3e52cb4cd6e9c2d9eb33b0e0f1a29f4a1e1e8f0d2c3b4a5968778695a4b3c2d"
	static const struct {
		const char	*line, *name, *why;
		bool		 escaped;
	} lines[] = {
		{ H_B3 "  a\n", "a", NULL, false },
		{ H_B3 "  a b\r\n", "a b\r", NULL, false },
		{ H_B3 "  back\\slash\n", "back\\slash", NULL, false },
		{ "\\" H_B3 "  new\\nline\\\\\n", "new\nline\\", NULL, true },
		{ "\n", NULL, "Empty line", false },
		{ H_B3 "  \n", NULL, "Short line", false },
		{ "\\" H_B3 "  \n", NULL, "Short line", false },
		{ "#" H_B3 "  a\n", NULL, "Invalid space", false },
		{ "\xc3\xa9" H_B3 "  a\n", NULL, "Non-ASCII prefix", false },
		{ "B3E52CB4CD6E9C2D9EB33B0E0F1A29F4A1E1E8F0D2C3B4A5968778695A4B3C2D"
		  "  a\n", NULL, "Invalid hex", false },
		{ H_B3 " *a\n", NULL, "Invalid space", false },
		{ "\\" H_B3 "  a\\tb\n", NULL, "Invalid backslash escape", false },
		{ "\\" H_B3 "  a\\\n", NULL, "Invalid backslash escape", false },
		{ H_B3 "  a\xef\xbf\xbd\n", NULL,
		  "Unicode replacement character in path", false },
		{ H_B3 "  a\xff\n", NULL, "stream did not contain valid UTF-8",
		  false },
		{ H_B3 "  after the stop\n", NULL, NULL, false },
	};
	struct ms_manifest_rules r = { .dialect = MS_DIALECT_B3SUM,
	    .tool = algo("blake3") };
	struct ms_manifest_state st = { .reversed = -1 };

	ms_manifest_begin(&r, &st, "sums");
	for (size_t i = 0; i < MS_ARRAY_LEN(lines); i++) {
		char *line = ms_xstrdup(lines[i].line);
		struct ms_manifest_entry e;
		enum ms_line rc = ms_manifest_parse(&r, &st, line, strlen(line), &e);
		bool ok;

		if (lines[i].name != NULL)
			ok = rc == MS_LINE_ENTRY && strcmp(e.name, lines[i].name) == 0 &&
			    e.escaped == lines[i].escaped && e.n == 1 &&
			    e.d[0].len == 32 && e.d[0].digest[0] == 0xb3 &&
			    e.d[0].digest[31] == 0x2d;
		else if (lines[i].why != NULL)
			ok = rc == MS_LINE_BAD && strcmp(e.why, lines[i].why) == 0;
		else
			ok = rc == MS_LINE_SKIP;	/* the manifest has ended */
		tap_ok(ok, "b3sum: line %zu (%s)", i + 1, lines[i].why ?
		    lines[i].why : lines[i].name ? "an entry" : "skipped");
		free(line);
	}
	ms_manifest_end(&st);
#undef H_B3
}

/* Is the row named name among sel's? */
static bool
has_row(const struct ms_selection *sel, const char *name)
{
	for (size_t i = 0; i < sel->cnt; i++)
		if (strcmp(sel->spec[i].algo->name, name) == 0)
			return true;
	return false;
}

/*
 * Issue 31: what may stand in for a guess is never weaker: no checksum
 * and no broken digest for a cryptographic guess, whatever its length.
 */
static void
test_stand_ins(void)
{
	struct ms_digest_spec g;
	struct ms_selection sel;
	const char *why;
	size_t weak = 0;

	for (size_t k = 0; k < ms_algo_count; k++) {
		const struct ms_algo *a = &ms_algos[k];

		if (a->class == MS_CLASS_NONCRYPTO || a->legacy != MS_LEGACY_NONE)
			continue;
		g = (struct ms_digest_spec){ .algo = a, .bits = a->bits };
		ms_manifest_stand_ins(&g, &sel);
		for (size_t i = 1; i < sel.cnt; i++)
			if (sel.spec[i].algo->class == MS_CLASS_NONCRYPTO ||
			    sel.spec[i].algo->class == MS_CLASS_BROKEN ||
			    ms_spec_len(&sel.spec[i]) != ms_spec_len(&g))
				weak++;
	}
	tap_ok(weak == 0, "no checksum or broken digest stands in for a digest");
	ms_algo_resolve("md5", 0, &g, &why);
	ms_manifest_stand_ins(&g, &sel);
	tap_ok(sel.spec[0].algo == g.algo && !has_row(&sel, "xxh128") &&
	    !has_row(&sel, "md4") && has_row(&sel, "blake2b-N"),
	    "md5: not xxh128 nor md4; blake2b-128");
	ms_algo_resolve("sha512", 0, &g, &why);
	ms_manifest_stand_ins(&g, &sel);
	tap_ok(has_row(&sel, "whirlpool") && has_row(&sel, "sha3-512") &&
	    has_row(&sel, "blake2b") && !has_row(&sel, "blake2b-N"),
	    "sha512: whirlpool, sha3-512, blake2b once");
	ms_algo_resolve("crc32", 0, &g, &why);
	ms_manifest_stand_ins(&g, &sel);
	tap_ok(has_row(&sel, "crc32c") && has_row(&sel, "xxh32") &&
	    !has_row(&sel, "cksum"), "crc32: crc32c and xxh32, not cksum's");
}

int
main(void)
{
	test_native();
	test_names();
	test_coreutils();
	test_expect();
	test_robust();
	test_published();
	test_b3sum();
	test_stand_ins();
	return tap_done();
}
