/*
 * lazylib.c - dlopen a library and fill a table of function pointers.
 *
 * Owns the one mutex that makes loading safe from any thread; callers
 * normally load before starting workers, so it is never contended.
 */
#include "lazylib.h"

#include <dlfcn.h>
#include <pthread.h>

#include "util.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

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
