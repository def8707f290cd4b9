/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * hash.h - hash mode, shared by multisum and its faces (the coreutils
 * tools, b3sum), which differ only in the few quirks a struct
 * ms_hash_style names.
 */
#ifndef MS_HASH_H
#define MS_HASH_H

#include <stdbool.h>

#include "modes/options.h"

struct ms_hash_style {
	/* Written (a warning per line of it) once, before the first
	 * result: cksum --debug's lines naming the CRC implementation; NULL
	 * for none.  crc_debug_each: before every result. */
	const char	*crc_debug;
	bool		 crc_debug_each;
	/* b3sum 1.2's messages: a file named in lossy UTF-8 (unescaped),
	 * the cause in io::Error's words (rust_text.h). */
	bool		 rust_words;
	/* "-" is not read but refused with this reason (b3sum --keyed, whose
	 * key was standard input); NULL: read as any operand. */
	const char	*stdin_refusal;
	/* Every input read is then refused with this reason in place of its
	 * line, but for the line's lead (ms_format_lead): b3sum 1.2 parses
	 * -l only once a file is hashed and its line begun. */
	const char	*late_refusal;
};

/*
 * Hash every operand of o (o->files, --files-from lists, directory walks
 * or --archive members; standard input if none) through the engine and
 * write the result lines in operand order to standard output or -o.
 * o->sel must be loaded.  Returns the exit status.
 */
int	 ms_hash_run(const struct ms_options *o, const struct ms_hash_style *style);

/* multisum's hash mode: ms_hash_run in its native style. */
int	 ms_hash_main(const struct ms_options *o);

#endif
