/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * openssl.h - libcrypto mapped and initialised once, as the digests want
 * it (no openssl.cnf, no legacy name tables, no clean-up at exit).
 *
 * backend_openssl.c owns it; the signature layer, which resolves
 * libcrypto's Ed25519 and scrypt functions into a table of its own, calls
 * it first so that libcrypto is set up the same way whoever comes first.
 */
#ifndef MS_OPENSSL_H
#define MS_OPENSSL_H

/* Map libcrypto and initialise it, once; -1 after a message. */
int	 ms_openssl_initialise(void);

#endif
