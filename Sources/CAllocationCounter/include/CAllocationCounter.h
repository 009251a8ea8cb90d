#ifndef FEEDSIM_CALLOCATIONCOUNTER_H
#define FEEDSIM_CALLOCATIONCOUNTER_H

#include <stdint.h>

/// What the calling thread has allocated so far.
///
/// `requests` counts the thread's calls to the allocation functions of the C
/// library's interface that returned memory: malloc, calloc, realloc (one
/// for each call that returned memory, whether the block moved or grew in
/// place), posix_memalign, aligned_alloc, memalign and valloc. This module
/// defines those functions, adds one to the counter and passes each call on
/// to the next definition in the process (jemalloc's), so jemalloc stays the
/// allocator. `allocated` points at jemalloc's own running total of bytes the
/// thread allocated (`thread.allocatedp`). Both only grow; a reader takes
/// differences.
typedef struct feedsim_thread_allocations {
    uint64_t requests;
    const uint64_t *allocated;
} feedsim_thread_allocations;

/// Whether this process counts allocations: 0 when an allocation made here
/// raised both of the thread's counters (the counting functions are the
/// process's malloc, and jemalloc served the request), else a negative
/// number saying which part is missing: -1 the counting functions are not
/// in this build (sanitizer builds leave them out: the sanitizer owns
/// malloc), -2 the allocation was not counted (another malloc comes first in
/// the process), -3 jemalloc's per-thread byte counter is unavailable or did
/// not move (jemalloc is not the allocator), -4 the system is not Linux
/// (counting relies on ELF symbol interposition; FeedSim is tested on Linux
/// only).
int feedsim_allocation_counting_check(void);

/// The calling thread's counters; the pointer stays valid for the thread's
/// life. NULL when jemalloc's `thread.allocatedp` is unavailable.
feedsim_thread_allocations *feedsim_thread_allocations_get(void);

#endif
