/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lazylib.c - dlopen a library and fill a table of function pointers.
 *
 * Owns the one mutex that makes loading safe from any thread; callers
 * normally load before starting workers, so it is never contended.  Also
 * owns the .note.dlopen notes that name each library we may dlopen.
 */
#include "base/lazylib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>

#include "base/util.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * The freedesktop.org "ELF dlopen metadata" notes (systemd.io/ELF_DLOPEN_
 * METADATA): owner "FDO", type 0x407c0c0a, a JSON array of the features,
 * their priority and sonames.  Packaging tools read them where
 * dpkg-shlibdeps and rpm's generators see no DT_NEEDED entry;
 * `readelf -n src/multisum` shows them.  A linked build needs none, and
 * where objects are not ELF (configure checks) there is nowhere to put them.
 */
#if MS_LAZY_LOADING && MS_ELF_NOTES	/* Mach-O has no such thing */
#define NOTE_OWNER	"FDO"
#define NOTE_TYPE	UINT32_C(0x407c0c0a)
#define DLOPEN_NOTE(var, feature, what, priority, soname)		\
	__attribute__((used, section(".note.dlopen")))			\
	_Alignas(sizeof(uint32_t)) static const struct {		\
		struct { uint32_t namesz, descsz, type; } hdr;		\
		char owner[sizeof(NOTE_OWNER)];				\
		_Alignas(sizeof(uint32_t)) char json[sizeof(		\
		    NOTE_JSON(feature, what, priority, soname))];	\
	} var = {							\
		{ sizeof(NOTE_OWNER), sizeof(NOTE_JSON(feature, what,	\
		    priority, soname)), NOTE_TYPE },			\
		NOTE_OWNER, NOTE_JSON(feature, what, priority, soname),	\
	}
#define NOTE_JSON(feature, what, priority, soname)			\
	"[{\"feature\":\"" feature "\",\"description\":\"" what	\
	"\",\"priority\":\"" priority "\",\"soname\":[\"" soname "\"]}]"

DLOPEN_NOTE(note_crypto, "libcrypto",
    "MD5, SHA-1, SHA-2, SHA-3, SHAKE, BLAKE2b-512, BLAKE2s-256, SM3, "
    "RIPEMD-160, MD4, S3 ETags; Ed25519 and scrypt for signed lists",
    "required", MS_SONAME_CRYPTO);
#if MS_HAVE_LIBB2
DLOPEN_NOTE(note_b2, "libb2",
    "BLAKE2b and BLAKE2s at other lengths, BLAKE2bp, BLAKE2sp",
    "recommended", MS_SONAME_B2);
#endif
#if MS_HAVE_LIBXXHASH
DLOPEN_NOTE(note_xxhash, "libxxhash", "XXH32, XXH64, XXH3, XXH128",
    "recommended", MS_SONAME_XXHASH);
#endif
#if MS_HAVE_LIBARCHIVE
DLOPEN_NOTE(note_archive, "libarchive",
    "--archive: hashing and checking the members of an archive",
    "suggested", MS_SONAME_ARCHIVE);
#endif
#endif

/*
 * DEEPBIND makes the library find its own symbols first: libcrypto
 * resolves some 3,000 of them at load (it is linked with BIND_NOW), and
 * each lookup otherwise fails in every object loaded before it.  That is a
 * quarter of the instructions of a run on an empty file.  The sanitizers'
 * interceptors cannot work with it, so they go without.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif
#if defined(RTLD_DEEPBIND) && !defined(SANITIZED)
#define OPEN_FLAGS	(RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)
#else
#define OPEN_FLAGS	(RTLD_NOW | RTLD_LOCAL)
#endif

#if !MS_LAZY_LOADING
/*
 * Linked: the addresses are known already (an entry written without
 * MS_LAZY_SYM has none, and is looked up among the linked libraries).
 */
int
ms_lazy_load(struct ms_lazy_lib *lib)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; lib->state == 0 && i < lib->cnt; i++) {
		void *p = lib->syms[i].addr;

		if (p == NULL)
			p = dlsym(RTLD_DEFAULT, lib->syms[i].name);
		if (p == NULL) {
			ms_warn("%s lacks %s: the library is too old",
			    lib->soname, lib->syms[i].name);
			lib->state = -1;
		}
		*lib->syms[i].slot = p;
	}
	if (lib->state == 0)
		lib->state = 1;
	pthread_mutex_unlock(&lock);
	return lib->state == 1 ? 0 : -1;
}

void *
ms_lazy_optional(struct ms_lazy_lib *lib, const char *name)
{
	(void)lib;
	return dlsym(RTLD_DEFAULT, name);
}
#else
int
ms_lazy_load(struct ms_lazy_lib *lib)
{
	pthread_mutex_lock(&lock);
	if (lib->state == 0) {
		void *h = dlopen(lib->soname, OPEN_FLAGS);

		lib->state = 1;
		lib->handle = h;
		if (h == NULL) {
			ms_warn("cannot load %s: %s", lib->soname, dlerror());
			lib->state = -1;
		}
		for (size_t i = 0; h != NULL && i < lib->cnt; i++) {
			void *p = dlsym(h, lib->syms[i].name);

			if (p == NULL) {
				ms_warn("%s lacks %s: the library is too old",
				    lib->soname, lib->syms[i].name);
				lib->state = -1;
				break;
			}
			*lib->syms[i].slot = p;
		}
	}
	pthread_mutex_unlock(&lock);
	return lib->state == 1 ? 0 : -1;
}

void *
ms_lazy_optional(struct ms_lazy_lib *lib, const char *name)
{
	return lib->state == 1 ? dlsym(lib->handle, name) : NULL;
}
#endif
