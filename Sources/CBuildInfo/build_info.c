#include "build_info.h"

#include <stddef.h>

// Defined only by an object scripts/package-deb.sh links in (-Xlinker): a new commit then costs a
// link, not a rebuild, and a plain `swift build` leaves it undefined (a weak symbol's address is 0).
extern const char flyr_build_commit_text[] __attribute__((weak));

const char *flyr_build_commit(void) {
    return flyr_build_commit_text != NULL ? flyr_build_commit_text : "";
}
