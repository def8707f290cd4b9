/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * check_explain.c - the messages that explain a verdict of check mode:
 * which algorithm verified a line (--debug), what was assumed when a
 * guessed algorithm fails, a non-cryptographic default, and why an entry
 * was not hashed at all.  Prints on standard error only, after the report
 * held so far; the caller decides when (once per manifest).
 */
#include "modes/check_explain.h"

#include <stdio.h>

#include "base/quote.h"
#include "base/util.h"

const char *
ms_explain_err(int err)
{
	switch (err) {
	case MS_ERR_TOO_MANY:
		return "more digests of one archive member than a set holds (48)";
	case MS_ERR_NAMESAKES:
		return "more lines name it than the archive holds members of "
		    "that name (the n-th line takes the n-th member)";
	case MS_ERR_LINK_DIGESTS:
		return "a hard link whose target was read without these digests "
		    "(list the target with them)";
	default:
		return "a hard link whose target the manifest does not list "
		    "(list the target too)";
	}
}

void
ms_explain_debug(struct ms_output *out, const char *manifest,
    unsigned long line, const char *path, const struct ms_selection *sel,
    enum ms_resolved how)
{
	char buf[32];

	ms_output_flush(out);
	fprintf(stderr, "%s: debug: %s: %lu: %s:", ms_program,
	    ms_quotef(manifest), line, ms_quotef(path));
	for (size_t i = 0; i < sel->cnt; i++)
		fprintf(stderr, " %s", ms_spec_name(&sel->spec[i], buf,
		    sizeof(buf)));
	fprintf(stderr, " (by %s)\n", ms_resolved_text(how));
}

bool
ms_explain_hint(struct ms_output *out, const char *manifest,
    const struct ms_digest_spec *s, enum ms_resolved how, bool tried)
{
	const char *also = tried ? ", and matched neither it nor what may "
	    "stand in for it" : "";
	char others[160], buf[32];

	if (how == MS_BY_DECIMAL && manifest != NULL) {
		ms_output_flush(out);
		ms_warn("%s: 'SUM SIZE NAME' lines were taken as cksum's (POSIX "
		    "CRC); if they are sum's, give -a bsd (sum -r) or -a sysv "
		    "(sum -s)", ms_quotef(manifest));
		return true;
	}
	if (how != MS_BY_LENGTH && how != MS_BY_NAME)
		return false;
	ms_manifest_others(s, tried, others, sizeof(others));
	ms_output_flush(out);
	if (manifest == NULL)
		ms_warn("--expect: the digest was taken as %s (by %s)%s; if it "
		    "is of another algorithm, name it with -a or a prefix "
		    "(ALG:HEX)%s%s", ms_spec_name(s, buf, sizeof(buf)),
		    ms_resolved_text(how), also,
		    others[0] ? "; same length: " : "", others);
	else
		ms_warn("%s: untagged digests were taken as %s (by %s)%s; if "
		    "they are of another algorithm, name it with -a%s%s%s",
		    ms_quotef(manifest), ms_spec_name(s, buf, sizeof(buf)),
		    ms_resolved_text(how), also,
		    others[0] ? " (" : "", others, others[0] ? ")" : "");
	return true;
}

bool
ms_explain_note(struct ms_output *out, const char *manifest,
    const struct ms_digest_spec *s, enum ms_resolved how)
{
	char buf[32];

	if (how != MS_BY_LENGTH || s->algo->class != MS_CLASS_NONCRYPTO)
		return false;
	ms_output_flush(out);
	ms_warn("%s: untagged %zu-hex-digit digests are taken as %s, a "
	    "non-cryptographic checksum (-a names another)",
	    ms_quotef(manifest != NULL ? manifest : "--expect"),
	    2 * ms_spec_len(s), ms_spec_name(s, buf, sizeof(buf)));
	return true;
}
