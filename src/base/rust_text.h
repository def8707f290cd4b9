/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rust_text.h - text the way Rust's standard library makes it, for the
 * b3sum face: lossy UTF-8 (with b3sum 1.2's name escaping on top),
 * io::Error's words and the errors of parsing an integer.
 */
#ifndef MS_RUST_TEXT_H
#define MS_RUST_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Is s (n bytes, NULs allowed) valid UTF-8, as str::from_utf8 has it? */
bool	 ms_rust_utf8_valid(const char *s, size_t n);

/*
 * String::from_utf8_lossy of s: each maximal invalid subsequence becomes
 * one U+FFFD.  With escape, b3sum 1.2's name escaping follows: \ and
 * newline become \\ and \n (*escaped says whether any did; NULL allowed).
 * Returns a malloc'd string.
 */
char	*ms_rust_lossy(const char *s, bool escape, bool *escaped);

/*
 * An errno in io::Error's words: "No such file or directory (os error
 * 2)".  The text lives until the next call; main thread only.
 */
const char *ms_rust_os_error(int err);

/*
 * str::parse::<u64>: an optional '+', then decimal digits only.  Returns
 * -1 with *why set to Rust's words for the failure ("invalid digit found
 * in string") if s is no such number or does not fit.
 */
int	 ms_rust_parse_u64(const char *s, uint64_t *v, const char **why);

#endif
