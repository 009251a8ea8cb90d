#include "CAllocationHooks.h"

#include <jemalloc/jemalloc.h>
#include <pthread.h>
#include <stddef.h>

/* The layout of jemalloc's `hooks_t` (include/jemalloc/internal/hook.h in
 * jemalloc 5.x), which `experimental.hooks.install` takes but the public
 * header does not declare. */
typedef void (*feedsim_hook_alloc)(void *extra, int type, void *result, uintptr_t result_raw, uintptr_t args_raw[3]);
typedef void (*feedsim_hook_dalloc)(void *extra, int type, void *address, uintptr_t args_raw[3]);
typedef void (*feedsim_hook_expand)(void *extra, int type, void *address, size_t old_usize, size_t new_usize,
                                    uintptr_t result_raw, uintptr_t args_raw[4]);
typedef struct {
    feedsim_hook_alloc alloc_hook;
    feedsim_hook_dalloc dalloc_hook;
    feedsim_hook_expand expand_hook;
    void *extra;
} feedsim_hooks;

/* Initial-exec TLS: the hooks run inside malloc, where a lazily allocated
 * TLS block would recurse into the allocator. */
static __thread __attribute__((tls_model("initial-exec"))) feedsim_thread_allocations thread_allocations;

/* The hooks neither allocate nor lock: one thread-local increment. */
static void count_allocation(void *extra, int type, void *result, uintptr_t result_raw, uintptr_t args_raw[3]) {
    (void)extra; (void)type; (void)result_raw; (void)args_raw;
    if (result != NULL) thread_allocations.requests += 1;
}

static void count_resize(void *extra, int type, void *address, size_t old_usize, size_t new_usize,
                         uintptr_t result_raw, uintptr_t args_raw[4]) {
    (void)extra; (void)type; (void)address; (void)old_usize; (void)new_usize; (void)result_raw; (void)args_raw;
    thread_allocations.requests += 1;
}

static feedsim_hooks hooks = { count_allocation, NULL, count_resize, NULL };
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int install_status = -1;

static void install(void) {
    void *handle = NULL;
    size_t handle_size = sizeof(handle);
    feedsim_hooks *new_hooks = &hooks;
    install_status = mallctl("experimental.hooks.install", &handle, &handle_size, new_hooks, sizeof(feedsim_hooks));
    if (install_status == 0 && handle == NULL) install_status = -1;
}

int feedsim_allocation_hooks_install(void) {
    pthread_once(&install_once, install);
    return install_status;
}

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
