/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-ledger.c - libFuzzer target: a manifest read back by --update and
 * --audit (ledger_read.c).  Its fast path for the lines multisum writes
 * must read every input exactly as manifest.c's generic parser does.  The
 * first input byte picks the selection (sha256; md5,sha256; crc32; md5),
 * the rest is the manifest, loaded three ways (fast, fast marking plain
 * entries, generic).  Checks: no crash, no sanitizer report, the three
 * tables the same (ms_ledger_differs), and every entry marked plain
 * the very bytes a run writes for it (ms_ledger_plain_differs).
 */
#include "fuzz.h"

#include <stdio.h>
#include <unistd.h>

#include "digest/algorithm.h"
#include "digest/digest_set.h"
#include "manifest/format.h"
#include "manifest/ledger.h"
#include "io/text_input.h"

static const char *const sets[][2] = {
	{ "sha256", NULL }, { "md5", "sha256" }, { "crc32", NULL },
	{ "md5", NULL },
};

static char path[64];

static void
remove_path(void)
{
	unlink(path);
}

static void
select_set(unsigned pick, struct ms_selection *sel,
    struct ms_ledger_shape *shape, struct ms_format_opts *fmt)
{
	memset(sel, 0, sizeof(*sel));
	memset(shape, 0, sizeof(*shape));
	memset(fmt, 0, sizeof(*fmt));
	for (size_t i = 0; i < 2 && sets[pick][i] != NULL; i++) {
		struct ms_digest_spec spec;
		const char *why;

		if (ms_algo_resolve(sets[pick][i], 0, &spec, &why) == -1 ||
		    ms_selection_add(sel, &spec) == -1)
			abort();
	}
	shape->kind = sel->cnt == 1 ? MS_SHAPE_GNU : MS_SHAPE_BSD;
	fmt->format = sel->cnt == 1 ? MS_FORMAT_GNU : MS_FORMAT_BSD;
	for (size_t i = 0; shape->kind == MS_SHAPE_BSD && i < sel->cnt; i++) {
		char buf[48];

		snprintf(shape->tag[i], sizeof(shape->tag[i]), "%s",
		    ms_spec_tag(&sel->spec[i], buf, sizeof(buf)));
	}
}

/*
 * The file at path, opened through the door the modes use.  The door may
 * refuse it (a damaged gzip or xz stream): then it must refuse it alike
 * every time, and there is nothing to load.
 */
static int
open_doors(struct ms_manifest_input in[3])
{
	int refused = 0;

	for (int i = 0; i < 3; i++)
		refused += ms_text_input(&in[i], path) == -1;
	if (refused != 0 && refused != 3)
		abort();
	return refused == 0 ? 0 : -1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ms_selection sel;
	struct ms_ledger_shape shape;
	struct ms_format_opts fmt;
	struct ms_ledger fast, shaped, slow;
	struct ms_manifest_input in[3];
	const char *why;
	size_t plain;
	FILE *f;

	if (size < 1)
		return 0;
	if (path[0] == '\0') {
		int fd;

		snprintf(path, sizeof(path), "/tmp/fuzz-ledger.XXXXXX");
		if ((fd = mkstemp(path)) == -1)
			abort();
		close(fd);
		atexit(remove_path);
	}
	select_set(data[0] % (sizeof(sets) / sizeof(sets[0])), &sel, &shape,
	    &fmt);
	if ((f = fopen(path, "wb")) == NULL ||
	    fwrite(data + 1, 1, size - 1, f) != size - 1 || fclose(f) != 0)
		abort();
	if (open_doors(in) == -1)
		return 0;
	if (ms_ledger_load(&fast, &in[0], &sel) == -1 ||
	    ms_ledger_load_shaped(&shaped, &in[1], &sel, &shape) == -1 ||
	    ms_ledger_load_generic(&slow, &in[2], &sel) == -1)
		abort();
	if ((why = ms_ledger_differs(&fast, &slow)) != NULL ||
	    (why = ms_ledger_differs(&shaped, &slow)) != NULL) {
		fprintf(stderr, "fast and generic readings differ: %s\n", why);
		abort();
	}
	if ((why = ms_ledger_plain_differs(&shaped, &fmt, (const char *)data + 1,
	    size - 1, &plain)) != NULL) {
		fprintf(stderr, "a plain entry: %s\n", why);
		abort();
	}
	ms_ledger_free(&fast);
	ms_ledger_free(&shaped);
	ms_ledger_free(&slow);
	return 0;
}
