#include "late_bound.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// Opens the first of `names` that loads and fills `table` (an array of function pointers in the
// order of `symbols`). Returns 0, or -1 with a message in `message`.
static int bindLibrary(const char *const *names, const char *const *symbols, void **table, size_t count,
                char *message, size_t size) {
    void *library = NULL;
    const char *why = "not found";
    for (const char *const *n = names; *n && !library; n++) {
        library = dlopen(*n, RTLD_NOW | RTLD_LOCAL);
        if (!library) why = dlerror();
    }
    if (!library) {
        snprintf(message, size, "cannot load %s: %s", names[0], why);
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        table[i] = dlsym(library, symbols[i]);
        if (!table[i]) {
            snprintf(message, size, "%s has no function %s", names[0], symbols[i]);
            return -1;  // the library stays loaded: nothing else will use it, and unloading GDAL is not safe
        }
    }
    return 0;
}

#define FLYR_SYMBOL_NAME(name) #name,

// A library's table, its loader run once, and `flyr_<lib>` handing it out. `...`: the names to
// try, the development symlink first (the headers the project was compiled against are its
// version), then the run-time soname Debian 12 ships, for a machine with only the run-time package.
#define FLYR_BINDING(lib, Type, FUNCTIONS, ...)                                                           \
    static const char *const lib##Names[] = {__VA_ARGS__, NULL};                                        \
    static const char *const lib##Symbols[] = {FUNCTIONS(FLYR_SYMBOL_NAME)};                            \
    static Type lib##Table;                                                                             \
    static int lib##Status = -1;                                                                        \
    static char lib##Message[512];                                                                      \
    static pthread_once_t lib##Once = PTHREAD_ONCE_INIT;                                                \
    static void lib##Bind(void) {                                                                       \
        lib##Status = bindLibrary(lib##Names, lib##Symbols, (void **)&lib##Table,                       \
                                  sizeof lib##Symbols / sizeof *lib##Symbols, lib##Message, sizeof lib##Message); \
    }                                                                                                   \
    const Type *flyr_##lib(const char **error) {                                                        \
        pthread_once(&lib##Once, lib##Bind);                                                            \
        *error = lib##Status == 0 ? NULL : lib##Message;                                                \
        return lib##Status == 0 ? &lib##Table : NULL;                                                   \
    }                                                                                                   \
    _Static_assert(sizeof(Type) == sizeof lib##Symbols / sizeof *lib##Symbols * sizeof(void *),         \
                   "one pointer per symbol");

FLYR_BINDING(gdal, FlyrGDAL, FLYR_GDAL_FUNCTIONS, "libgdal.so", "libgdal.so.32")
FLYR_BINDING(pq, FlyrPQ, FLYR_PQ_FUNCTIONS, "libpq.so", "libpq.so.5")
FLYR_BINDING(proj, FlyrPROJ, FLYR_PROJ_FUNCTIONS, "libproj.so", "libproj.so.25")
FLYR_BINDING(curl, FlyrCurl, FLYR_CURL_FUNCTIONS, "libcurl.so", "libcurl.so.4")
