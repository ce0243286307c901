#ifndef CBrotli_SHIM_H
#define CBrotli_SHIM_H
#include <brotli/decode.h>
#endif
