#ifndef CZstd_SHIM_H
#define CZstd_SHIM_H
#include <zstd.h>
#endif
