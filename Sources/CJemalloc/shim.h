#ifndef FEEDSIM_CJEMALLOC_SHIM_H
#define FEEDSIM_CJEMALLOC_SHIM_H
#include <jemalloc/jemalloc.h>
#endif
