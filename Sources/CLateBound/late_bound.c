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

// The development symlink first (the headers the project was compiled against are its version),
// then the run-time sonames Debian 12 ships, for a machine that has only the run-time packages.
static const char *const gdalNames[] = {"libgdal.so", "libgdal.so.32", NULL};
static const char *const gdalSymbols[] = {FLYR_GDAL_FUNCTIONS(FLYR_SYMBOL_NAME)};
static FlyrGDAL gdal;
static int gdalStatus = -1;
static char gdalMessage[512];
static pthread_once_t gdalOnce = PTHREAD_ONCE_INIT;

static void bindGDAL(void) {
    gdalStatus = bindLibrary(gdalNames, gdalSymbols, (void **)&gdal, sizeof gdalSymbols / sizeof *gdalSymbols,
                      gdalMessage, sizeof gdalMessage);
}

const FlyrGDAL *flyr_gdal(const char **error) {
    pthread_once(&gdalOnce, bindGDAL);
    *error = gdalStatus == 0 ? NULL : gdalMessage;
    return gdalStatus == 0 ? &gdal : NULL;
}

static const char *const pqNames[] = {"libpq.so", "libpq.so.5", NULL};
static const char *const pqSymbols[] = {FLYR_PQ_FUNCTIONS(FLYR_SYMBOL_NAME)};
static FlyrPQ pq;
static int pqStatus = -1;
static char pqMessage[512];
static pthread_once_t pqOnce = PTHREAD_ONCE_INIT;

static void bindPQ(void) {
    pqStatus = bindLibrary(pqNames, pqSymbols, (void **)&pq, sizeof pqSymbols / sizeof *pqSymbols, pqMessage, sizeof pqMessage);
}

const FlyrPQ *flyr_pq(const char **error) {
    pthread_once(&pqOnce, bindPQ);
    *error = pqStatus == 0 ? NULL : pqMessage;
    return pqStatus == 0 ? &pq : NULL;
}

_Static_assert(sizeof(FlyrGDAL) == sizeof gdalSymbols / sizeof *gdalSymbols * sizeof(void *), "one pointer per GDAL symbol");
_Static_assert(sizeof(FlyrPQ) == sizeof pqSymbols / sizeof *pqSymbols * sizeof(void *), "one pointer per libpq symbol");
