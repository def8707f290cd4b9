/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_root.c - where the names a list holds are below: --root, a
 * Python RECORD's folder above its .dist-info, an attestation's own
 * folder, a Debian Packages index's repository top (the folder above
 * its dists/).  Path arithmetic only: it opens no list and says nothing
 * (realpath is its one look at the file system).
 */
#include "modes/check_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/*
 * What a list's names are below when its format says (RECORD,
 * attestations): --root, else for a Python RECORD the folder above its
 * *.dist-info, for an attestation its own folder ("" for the current
 * one), else the current folder, as for any list.
 */
char *
ms_check_list_root(const struct run *r, const char *path, bool attest)
{
	const char *end = NULL;

	if (r->o->root != NULL) {
		size_t n = strlen(r->o->root);

		return ms_xasprintf("%s%s", r->o->root,
		    n > 0 && r->o->root[n - 1] == '/' ? "" : "/");
	}
	if (attest && (end = strrchr(path, '/')) != NULL)
		end++;
	if (!attest && ms_manifest_pyrecord_named(path)) {
		end = strrchr(path, '/');	/* NAME.dist-info/RECORD */
		while (end > path && end[-1] != '/')
			end--;
	}
	return end == NULL ? ms_xstrdup("") :
	    ms_xstrndup(path, (size_t)(end - path));
}

/*
 * A Debian Packages index named from inside a repository's dists/
 * ("Packages" in dists/x/main/binary-all): the way up to the folder
 * above dists/, "../../../../" after the path's own folder (malloc), or
 * NULL when the path shows its dists/ (the parser's rule) or has none.
 */
char *
ms_check_repository_top(const char *path)
{
	const char *slash = strrchr(path, '/'), *at;
	char *real, *top = NULL, *up;
	size_t n = 0;

	if (strcmp(path, "-") == 0 || strncmp(path, "dists/", 6) == 0 ||
	    strstr(path, "/dists/") != NULL || (real = realpath(path, NULL)) == NULL)
		return NULL;
	if ((at = strstr(real, "/dists/")) != NULL) {
		while ((up = strstr(at + 1, "/dists/")) != NULL)
			at = up;
		for (const char *p = at + 1; (p = strchr(p, '/')) != NULL; p++)
			n++;
		top = ms_xasprintf("%.*s", slash != NULL ?
		    (int)(slash - path + 1) : 0, path);
		while (n-- > 0) {
			up = ms_xasprintf("%s../", top);
			free(top);
			top = up;
		}
	}
	free(real);
	return top;
}
