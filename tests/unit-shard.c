/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * unit-shard.c - sets of shards (shard.c) and the bookkeeping head
 * (ledger_head.c): text both ways, union, overlap, what is missing, and
 * a head written and read back the same, escaped names and unknown keys
 * included; a path's shard by its key below the operand.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifest/ledger.h"
#include "manifest/shard.h"
#include "tap.h"

static const char *
text(const struct ms_shard_set *s)
{
	static char buf[128];

	ms_shard_set_text(s, buf, sizeof(buf));
	return buf;
}

static void
sets(void)
{
	static const char *const good[] = {
		"1/4", "1-2,4/4", "3/3", "1-7/7", "2,4,6/8", "2147483648/2147483648",
	};
	static const char *const bad[] = {
		"0/4", "5/4", "2-1/4", "1-2,2/4", "1-2,3/4", "2,1/4", "1/", "/4",
		"1/4x", "a/4", "1,/4", "",
	};
	struct ms_shard_set a, b, m;
	uint32_t k;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int rc = ms_shard_set_parse(&a, good[i]);

		tap_ok(rc == 0 && strcmp(text(&a), good[i]) == 0,
		    "'%s' reads and writes back", good[i]);
		if (rc == 0)
			ms_shard_set_free(&a);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		tap_ok(ms_shard_set_parse(&a, bad[i]) == -1, "'%s' refused", bad[i]);

	ms_shard_set_parse(&a, "1-2,4/4");
	ms_shard_set_parse(&b, "3/4");
	tap_ok(!ms_shard_set_overlaps(&a, &b, &k), "1-2,4 and 3 are apart");
	ms_shard_set_missing(&a, &m);
	tap_ok(strcmp(text(&m), "3/4") == 0, "1-2,4 of 4 lacks 3 (%s)", text(&m));
	ms_shard_set_free(&m);
	tap_ok(!ms_shard_set_complete(&a), "1-2,4 of 4 is not complete");
	ms_shard_set_add(&a, &b);
	tap_ok(strcmp(text(&a), "1-4/4") == 0 && ms_shard_set_complete(&a),
	    "with 3 it is whole (%s)", text(&a));
	tap_ok(ms_shard_set_overlaps(&a, &b, &k) && k == 3, "3 is in it twice");
	ms_shard_set_free(&a);
	ms_shard_set_free(&b);
	ms_shard_set_parse(&a, "2,5-6/9");
	ms_shard_set_missing(&a, &m);
	tap_ok(strcmp(text(&m), "1,3-4,7-9/9") == 0, "2,5-6 of 9 lacks %s",
	    text(&m));
	ms_shard_set_free(&a);
	ms_shard_set_free(&m);
}

static void
head(void)
{
	struct ms_ledger_head h = { 0 }, r;
	char *buf = NULL, *line, *save = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	bool ok;

	h.has_stamp = true;
	h.stamp_ns = -5;
	ms_shard_set_parse(&h.shards, "2/3");
	h.algorithms = strdup("md5,sha256");
	h.walk = strdup("rL");
	ms_ledger_head_add_scope(&h, "operand", "a\nb\\c");
	ms_ledger_head_add_scope(&h, "exclude", "*.tmp");
	ms_ledger_head_write(fp, &h);
	fclose(fp);
	tap_ok(strcmp(buf, "#multisum-ledger v1 stamp=-5 fields=size,mtime_ns,"
	    "ctime_ns,ino shard=2/3 algorithms=md5,sha256 walk=rL scope=2\n"
	    "#multisum-scope operand a\\nb\\\\c\n"
	    "#multisum-scope exclude *.tmp\n") == 0, "written as the grammar says");
	line = strtok_r(buf, "\n", &save);
	ok = ms_ledger_head_parse(&r, line);
	while ((line = strtok_r(NULL, "\n", &save)) != NULL)
		ok = ok && ms_ledger_head_scope(&r, line);
	tap_ok(ok && r.has_stamp && r.stamp_ns == -5 &&
	    ms_shard_set_equal(&r.shards, &h.shards) &&
	    ms_ledger_head_differs(&r, &h) == NULL, "read back the same");
	tap_ok(strcmp(r.scope[0], "operand a\nb\\c") == 0, "the name unescaped");
	free(r.scope[1]);
	r.scope_read = 1;
	tap_ok(ms_ledger_head_differs(&r, &h) != NULL &&
	    strcmp(ms_ledger_head_differs(&r, &h), "excludes") == 0,
	    "one exclude fewer: the excludes differ");
	ms_ledger_head_free(&r);
	ok = ms_ledger_head_parse(&r, "#multisum-ledger v1 future=1 stamp=7 "
	    "shard=9/4 scope=x\n");
	tap_ok(ok && r.has_stamp && r.stamp_ns == 7 && r.shards.n == 0 &&
	    r.nscope == 0 && r.algorithms == NULL,
	    "unknown keys skipped, a bad shard or scope ignored");
	ms_ledger_head_free(&r);
	tap_ok(!ms_ledger_head_parse(&r, "#multisum-ledger v2 stamp=1\n"),
	    "another version is no header");
	ms_ledger_head_free(&h);
	free(buf);
}

/* A path's shard is its key's, the part below its operand; off, all. */
static void
paths(void)
{
	struct ms_shard off = { 0, 0 };
	unsigned as_key = 0, slash = 0, once = 0;
	char path[8], name[2] = "a";

	tap_ok(ms_shard_keeps_path(&off, "dir", "dir/a"), "off: every path");
	/* 26 names: their paths' own hashes would put some elsewhere */
	for (; name[0] <= 'z'; name[0]++) {
		unsigned in = 0;

		snprintf(path, sizeof(path), "dir/%s", name);
		for (uint32_t k = 1; k <= 3; k++) {
			struct ms_shard s = { k, 3 };
			bool kept = ms_shard_keeps_path(&s, "dir", path);

			as_key += kept == ms_shard_keeps(&s, name);
			slash += ms_shard_keeps_path(&s, "dir/", path) == kept;
			in += kept;
		}
		once += in == 1;
	}
	tap_ok(as_key == 78, "each path as its key (%u of 78)", as_key);
	tap_ok(slash == 78, "an operand 'dir/' the same (%u of 78)", slash);
	tap_ok(once == 26, "each path in one shard of 3 (%u of 26)", once);
}

int
main(void)
{
	sets();
	head();
	paths();
	return tap_done();
}
