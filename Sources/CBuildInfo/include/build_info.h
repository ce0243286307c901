#ifndef FLYR_BUILD_INFO_H
#define FLYR_BUILD_INFO_H

// The git commit the binary was built from, or "" when the build recorded none.
const char *flyr_build_commit(void);

#endif
