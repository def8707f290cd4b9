/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lazylib.h - load a shared library on first use instead of at start-up.
 *
 * libcrypto, libb2 and libarchive cost start-up time (relocations, their
 * own dependencies) even in runs that never call them, so their backends
 * resolve the few functions they use through dlopen(3) of the soname that
 * configure found.  This file owns dlopen and dlsym, and the ELF notes
 * that tell package managers which libraries the program will dlopen.
 *
 * With configure --disable-lazy-loading the libraries are linked as usual:
 * each table entry then also holds the function's own address, which
 * makes the linker record the library, and loading only copies it.
 */
#ifndef MS_LAZYLIB_H
#define MS_LAZYLIB_H

#include <stddef.h>

/* The soname of each library configure found, which the tables load. */
#if !defined(MS_SONAME_CRYPTO) || \
    (MS_HAVE_LIBB2 && !defined(MS_SONAME_B2)) || \
    (MS_HAVE_LIBXXHASH && !defined(MS_SONAME_XXHASH)) || \
    (MS_HAVE_LIBARCHIVE && !defined(MS_SONAME_ARCHIVE))
#error "configure must define MS_SONAME_* for each library it found"
#endif

struct ms_lazy_sym {
	const char	*name;
	void		**slot;		/* where the address goes */
	void		 *addr;		/* the linked function; NULL if lazy */
};

struct ms_lazy_lib {
	const char	*soname;	/* "libcrypto.so.3" */
	const struct ms_lazy_sym *syms;
	size_t		 cnt;
	int		 state;		/* 0 untried, 1 loaded, -1 failed */
	void		*handle;
};

/*
 * Load lib and resolve every symbol, once; later calls return the first
 * outcome.  On failure prints one line naming the library and the cause,
 * for the user, and returns -1.
 */
int	 ms_lazy_load(struct ms_lazy_lib *lib);

/* A symbol the library may lack (a faster variant): NULL if absent. */
void	*ms_lazy_optional(struct ms_lazy_lib *lib, const char *name);

#if MS_LAZY_LOADING
#define MS_LAZY_SYM(table, field)	{ #field, (void **)&(table).field, NULL }
#else
#define MS_LAZY_SYM(table, field)	{ #field, (void **)&(table).field, \
					  (void *)(field) }
#endif

/*
 * A library's table from one list of its functions: the struct of
 * pointers the backend calls through, the symbols that fill it and the
 * library to load, so that no function is named twice and the struct and
 * the symbols cannot drift apart (a field with no symbol would be a call
 * through NULL).  list(X, table) expands X(table, fn) for each function:
 *
 *	#define EVP_FUNCS(X, t)	X(t, EVP_MD_fetch) X(t, EVP_MD_CTX_new)
 *	MS_LAZY_LIB(libcrypto, MS_SONAME_CRYPTO, evp, EVP_FUNCS);
 *
 * then evp.EVP_MD_fetch(...) once ms_lazy_load(&libcrypto) returned 0.
 * A macro, as a function cannot declare a struct's fields.
 */
#define MS_LAZY_FIELD(table, fn)	__typeof__(fn) *fn;
#define MS_LAZY_ENTRY(table, fn)	MS_LAZY_SYM(table, fn),
#define MS_LAZY_LIB(lib, so, table, list)				\
	static struct { list(MS_LAZY_FIELD, table) } table;		\
	static const struct ms_lazy_sym table##_syms[] = {		\
		list(MS_LAZY_ENTRY, table)				\
	};								\
	static struct ms_lazy_lib lib = {				\
		.soname = (so), .syms = table##_syms,			\
		.cnt = sizeof(table##_syms) / sizeof(table##_syms[0]),	\
	}

#endif
