/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * quote.h - file names and arguments quoted for messages, the way GNU
 * coreutils quotes them, so that diagnostics match theirs byte for byte.
 */
#ifndef MS_QUOTE_H
#define MS_QUOTE_H

/*
 * A file name for "NAME: cause" messages: unchanged when it is plain,
 * else in shell quotes with unprintable bytes as $'\ooo' (coreutils'
 * quotef).  The result lives until the fourth call after this one;
 * main thread only.
 */
const char *ms_quotef(const char *name);

/* An argument in locale quotes, 'x' or, in a UTF-8 locale, ‘x’ (quote). */
const char *ms_quote(const char *arg);

#endif
