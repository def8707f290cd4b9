/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * scope.c - the bookkeeping head of a run: which shard, which algorithms
 * and what was walked, from the options, so that --merge can tell the
 * shards of one run from others.  The text of the head is ledger_head.c's.
 */
#include "modes/scope.h"

#include <string.h>

#include "base/util.h"

void
ms_scope_head(const struct ms_options *o, struct ms_ledger_head *h)
{
	const struct ms_selection *sel = &o->sel;
	char name[64];
	size_t len = 1;

	memset(h, 0, sizeof(*h));
	ms_shard_set_of(&h->shards, &o->shard);
	for (size_t i = 0; i < sel->cnt; i++)
		len += strlen(ms_spec_name(&sel->spec[i], name, sizeof(name))) + 1;
	h->algorithms = ms_xmalloc(len);
	h->algorithms[0] = '\0';
	for (size_t i = 0; i < sel->cnt; i++) {
		if (i > 0)
			strcat(h->algorithms, ",");
		strcat(h->algorithms, ms_spec_name(&sel->spec[i], name,
		    sizeof(name)));
	}
	h->walk = ms_xasprintf("%s%s%s", o->walk.recursive ? "r" : "",
	    o->walk.dereference ? "L" : "",
	    o->walk.recursive || o->walk.dereference ? "" : "-");
	for (size_t i = 0; i < o->nfiles; i++)
		ms_ledger_head_add_scope(h, "operand", o->files[i]);
	if (o->files_from != NULL)
		ms_ledger_head_add_scope(h, o->files_from_nul ? "files0-from" :
		    "files-from", o->files_from);
	for (size_t i = 0; i < o->walk.nexcludes; i++)
		ms_ledger_head_add_scope(h, "exclude", o->walk.excludes[i]);
}
