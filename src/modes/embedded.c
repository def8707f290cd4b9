/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * embedded.c - CRC32s carried in file names: where RHash's -k finds one,
 * and the name --embed-crc gives a file.  The renaming is io's
 * (rename.c), the verdicts and lines hash mode's.
 */
#include "modes/embedded.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest/algorithm.h"
#include "base/util.h"

bool
ms_embedded_crc(const char *path, unsigned char crc[4])
{
	const char *slash = strrchr(path, '/');
	const char *name = slash != NULL ? slash + 1 : path;
	size_t n = strlen(name);

	/* from the end, as RHash searches */
	for (size_t i = n >= 10 ? n - 10 + 1 : 0; i-- > 0;) {
		const char *e = name + i;

		if (!((e[0] == '[' && e[9] == ']') || (e[0] == '(' && e[9] == ')')))
			continue;
		if (ms_unhex(crc, e + 1, 4) == 0)
			return true;
	}
	return false;
}

const unsigned char *
ms_embedded_digest(const struct ms_selection *sel, const unsigned char *digest)
{
	for (size_t i = 0; i < sel->cnt; i++)
		if (strcmp(sel->spec[i].algo->name, "crc32") == 0)
			return digest + sel->offset[i];
	ms_bug("no crc32 for a name");
}

char *
ms_embedded_name(const char *path, const unsigned char crc[4], char delim)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash != NULL ? slash + 1 : path;
	const char *dot = strrchr(name, '.');
	size_t at = dot != NULL && dot != name ? (size_t)(dot - path) :
	    strlen(path);
	char hex[9];

	ms_hex(hex, crc, 4);
	for (char *h = hex; *h; h++)
		*h = (char)toupper((unsigned char)*h);
	return ms_xasprintf("%.*s%c[%s]%s", (int)at, path, delim, hex, path + at);
}
