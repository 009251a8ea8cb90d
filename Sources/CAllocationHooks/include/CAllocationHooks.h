#ifndef FEEDSIM_CALLOCATIONHOOKS_H
#define FEEDSIM_CALLOCATIONHOOKS_H

#include <stdint.h>

/// What jemalloc has reported about the calling thread's allocations.
///
/// `requests` is incremented by jemalloc's allocation hooks, on the thread
/// that made the request, for every call that returned memory (malloc,
/// calloc, aligned allocations, a realloc that moved) or resized a block in
/// place (a realloc that did not move). `allocated` points at jemalloc's own
/// running total of bytes the thread allocated (`thread.allocatedp`).
/// Both only grow; a reader takes differences.
typedef struct feedsim_thread_allocations {
    uint64_t requests;
    const uint64_t *allocated;
} feedsim_thread_allocations;

/// Installs the counting hooks in jemalloc, once per process; later calls
/// return the first call's result. 0 on success, else jemalloc's error.
int feedsim_allocation_hooks_install(void);

/// The calling thread's counters; the pointer stays valid for the thread's
/// life. NULL when jemalloc's `thread.allocatedp` is unavailable.
feedsim_thread_allocations *feedsim_thread_allocations_get(void);

#endif
