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

int
ms_lazy_load(struct ms_lazy_lib *lib)
{
	pthread_mutex_lock(&lock);
	if (lib->state == 0) {
		void *h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);

		lib->state = 1;
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
