/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_select.c - the registry of selections of one check run: every
 * list of digests the entries need is loaded once and shared, and one
 * whose backend cannot load is kept empty, so that its message comes
 * once.  It never hashes and never reports.
 */
#include "modes/check_int.h"

#include <stdlib.h>

#include "base/util.h"

/* A selection of the registry, and what it was asked for. */
struct ms_check_sel {
	struct ms_selection wanted;
	struct ms_selection sel;	/* == wanted, or empty if unusable */
};

static struct ms_check_sel *
sel_new(const struct ms_selection *want)
{
	struct ms_check_sel *g = ms_xcalloc(1, sizeof(*g));

	g->wanted = *want;
	if (ms_selection_load(want) == 0)
		g->sel = *want;
	return g;
}

const struct ms_selection *
ms_check_selection_for(struct ms_check_registry *g,
    const struct ms_digest_spec *spec, size_t cnt)
{
	struct ms_selection want = { 0 };

	for (size_t i = 0; i < cnt; i++)
		ms_selection_add(&want, &spec[i]);
	for (size_t i = 0; i < g->nsels; i++)
		if (ms_selection_equal(&g->sels[i]->wanted, &want))
			return &g->sels[i]->sel;
	g->sels = ms_xrealloc(g->sels, (g->nsels + 1) * sizeof(*g->sels));
	g->sels[g->nsels] = sel_new(&want);
	return &g->sels[g->nsels++]->sel;
}

void
ms_check_registry_free(struct ms_check_registry *g)
{
	for (size_t i = 0; i < g->nsels; i++)
		free(g->sels[i]);
	free(g->sels);
	g->sels = NULL;
	g->nsels = 0;
}
