// A malloc-counting preload for the benchmarks' per-instance figures (Scripts/bench.sh builds it and
// runs the benchmark runner with LD_PRELOAD). Counts allocation calls and the usable bytes held live;
// the runner reads both through dlsym. glibc only.
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

_Atomic unsigned long bench_malloc_count;
_Atomic long bench_malloc_live_bytes;

static void *counted(void *pointer) {
  if (pointer) {
    atomic_fetch_add_explicit(&bench_malloc_count, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&bench_malloc_live_bytes, (long)malloc_usable_size(pointer), memory_order_relaxed);
  }
  return pointer;
}

static void uncount(void *pointer) {
  if (pointer) atomic_fetch_sub_explicit(&bench_malloc_live_bytes, (long)malloc_usable_size(pointer), memory_order_relaxed);
}

void *malloc(size_t size) { return counted(__libc_malloc(size)); }
void *calloc(size_t count, size_t size) { return counted(__libc_calloc(count, size)); }
void *memalign(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size)); }
void *aligned_alloc(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size)); }
int posix_memalign(void **result, size_t alignment, size_t size) {
  void *pointer = counted(__libc_memalign(alignment, size));
  if (!pointer) return 12;  // ENOMEM
  *result = pointer;
  return 0;
}
void *realloc(void *pointer, size_t size) {
  uncount(pointer);
  return counted(__libc_realloc(pointer, size));
}
void free(void *pointer) {
  uncount(pointer);
  __libc_free(pointer);
}
