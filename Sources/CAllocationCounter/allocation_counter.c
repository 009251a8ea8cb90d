/* Counts each thread's allocation requests at the C library's allocation
 * functions, and passes every call on to jemalloc.
 *
 * This file defines malloc, calloc, realloc, posix_memalign, aligned_alloc,
 * memalign and valloc. Linked into a program, its definitions come before
 * jemalloc's and the C library's in symbol lookup, so every caller in the
 * process (the Swift runtime, Foundation, C code) reaches them; each looks up
 * the next definition (`dlsym(RTLD_NEXT, ...)`: jemalloc's, or another
 * counting layer such as a benchmark's, which passes on to jemalloc in turn),
 * calls it, and adds one to the calling thread's counter when it returned
 * memory. free is not defined here: it goes straight to jemalloc.
 *
 * Why not jemalloc's own hooks (`experimental.hooks.install`), which the
 * meter used before: once installed they stay for the life of the process,
 * and every free in it takes jemalloc 5.3's slow path, which fetches the
 * freeing thread's full allocator data even while the thread is being torn
 * down (the C library frees the thread's blocks after jemalloc has cleaned
 * that data up). Test processes that ended many threads crashed inside
 * jemalloc about twice in six full runs with the hooks installed. The
 * functions here install nothing and touch nothing but one thread-local
 * counter in the thread's static TLS block, which lives as long as the
 * thread.
 *
 * Counting matches what the hooks counted: one for every call that returned
 * memory, a realloc included whether its block moved or grew in place. */

#define _GNU_SOURCE
#include "CAllocationCounter.h"

#include <dlfcn.h>
#include <errno.h>
#if defined(__linux__)
#include <jemalloc/jemalloc.h>
#endif
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#    define FEEDSIM_SANITIZED 1
#  endif
#endif
#if !defined(FEEDSIM_SANITIZED) && (defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__))
#  define FEEDSIM_SANITIZED 1
#endif

#if defined(__linux__)

/* Initial-exec TLS: read inside malloc, where a lazily allocated TLS block
 * would recurse into the allocator, and in a thread's teardown, where only
 * the static block is sure to be there. */
static __thread __attribute__((tls_model("initial-exec"))) feedsim_thread_allocations thread_allocations;

feedsim_thread_allocations *feedsim_thread_allocations_get(void) {
    feedsim_thread_allocations *counters = &thread_allocations;
    if (counters->allocated == NULL) {
        uint64_t *allocated = NULL;
        size_t size = sizeof(allocated);
        if (mallctl("thread.allocatedp", &allocated, &size, NULL, 0) != 0 || allocated == NULL) return NULL;
        counters->allocated = allocated;
    }
    return counters;
}

#else

/* Elsewhere jemalloc is not linked (Package.swift links it on Linux only)
 * and nothing counts: the meter reports allocations as not counted. */
feedsim_thread_allocations *feedsim_thread_allocations_get(void) { return NULL; }

#endif

#if defined(FEEDSIM_SANITIZED)

int feedsim_allocation_counting_check(void) { return -1; }

#elif !defined(__linux__)

/* Interposing malloc by defining it in the program is how ELF's symbol
 * lookup works; other systems' dynamic linkers (Mach-O's two-level
 * namespace) do not route other libraries' calls here. FeedSim is built
 * and tested on Linux only. */
int feedsim_allocation_counting_check(void) { return -4; }

#else

typedef void *(*malloc_function)(size_t);
typedef void *(*calloc_function)(size_t, size_t);
typedef void *(*realloc_function)(void *, size_t);
typedef int (*posix_memalign_function)(void **, size_t, size_t);
typedef void *(*aligned_alloc_function)(size_t, size_t);
typedef void *(*memalign_function)(size_t, size_t);
typedef void *(*valloc_function)(size_t);

static _Atomic(malloc_function) next_malloc;
static _Atomic(calloc_function) next_calloc;
static _Atomic(realloc_function) next_realloc;
static _Atomic(posix_memalign_function) next_posix_memalign;
static _Atomic(aligned_alloc_function) next_aligned_alloc;
static _Atomic(memalign_function) next_memalign;
static _Atomic(valloc_function) next_valloc;

/* Set while this thread looks a definition up: the dynamic linker may
 * allocate, and those requests cannot wait for the lookup they are part of.
 * They go to jemalloc's own interface instead, uncounted; they happen once,
 * before any measurement. */
static __thread __attribute__((tls_model("initial-exec"))) bool looking_up;

static void *next_definition(const char *name) {
    looking_up = true;
    void *function = dlsym(RTLD_NEXT, name);
    looking_up = false;
    if (function == NULL) {
        static const char message[] = "feedsim: no allocation function after the allocation counter\n";
        (void)!write(STDERR_FILENO, message, sizeof(message) - 1);
        abort();
    }
    return function;
}

#define NEXT(name)                                                                          \
    ({                                                                                      \
        name##_function function = atomic_load_explicit(&next_##name, memory_order_acquire); \
        if (function == NULL) {                                                             \
            function = (name##_function)next_definition(#name);                            \
            atomic_store_explicit(&next_##name, function, memory_order_release);            \
        }                                                                                   \
        function;                                                                           \
    })

static inline void *counted(void *result) {
    if (result != NULL) thread_allocations.requests += 1;
    return result;
}

/* jemalloc's own interface, for the lookups' requests: alignment 0 means
 * the default. */
static void *during_lookup(size_t size, size_t alignment, bool zero) {
    int flags = (zero ? MALLOCX_ZERO : 0) | (alignment > 0 ? MALLOCX_ALIGN(alignment) : 0);
    return mallocx(size == 0 ? 1 : size, flags);
}

void *malloc(size_t size) {
    if (looking_up) return during_lookup(size, 0, false);
    return counted(NEXT(malloc)(size));
}

void *calloc(size_t count, size_t size) {
    if (looking_up) {
        size_t total;
        if (__builtin_mul_overflow(count, size, &total)) { errno = ENOMEM; return NULL; }
        return during_lookup(total, 0, true);
    }
    return counted(NEXT(calloc)(count, size));
}

void *realloc(void *pointer, size_t size) {
    if (looking_up) {
        if (pointer == NULL) return during_lookup(size, 0, false);
        return rallocx(pointer, size == 0 ? 1 : size, 0);
    }
    return counted(NEXT(realloc)(pointer, size));
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (looking_up) {
        void *block = during_lookup(size, alignment, false);
        if (block == NULL) return ENOMEM;
        *result = block;
        return 0;
    }
    int status = NEXT(posix_memalign)(result, alignment, size);
    if (status == 0) thread_allocations.requests += 1;
    return status;
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (looking_up) return during_lookup(size, alignment, false);
    return counted(NEXT(aligned_alloc)(alignment, size));
}

void *memalign(size_t alignment, size_t size) {
    if (looking_up) return during_lookup(size, alignment, false);
    return counted(NEXT(memalign)(alignment, size));
}

void *valloc(size_t size) {
    if (looking_up) return during_lookup(size, (size_t)sysconf(_SC_PAGESIZE), false);
    return counted(NEXT(valloc)(size));
}

int feedsim_allocation_counting_check(void) {
    feedsim_thread_allocations *counters = feedsim_thread_allocations_get();
    if (counters == NULL) return -3;
    uint64_t requests = counters->requests;
    uint64_t bytes = *counters->allocated;
    /* An allocation made by the C library, as the Swift runtime's are:
     * counted only if this file's malloc is the one the process calls.
     * Called through a volatile pointer, so that the compiler neither
     * inlines strdup into a malloc here nor drops an allocation that is
     * only freed. */
    char *(*volatile duplicate)(const char *) = strdup;
    char *block = duplicate("allocation counter check");
    bool counted_here = counters->requests == requests + 1;
    bool jemalloc_served = *counters->allocated != bytes;
    free(block);
    if (!counted_here) return -2;
    if (!jemalloc_served) return -3;
    return 0;
}

#endif
