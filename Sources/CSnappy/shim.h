#ifndef CSnappy_SHIM_H
#define CSnappy_SHIM_H
#include <snappy-c.h>
#endif
