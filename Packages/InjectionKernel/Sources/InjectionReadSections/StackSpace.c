// The calling thread's remaining stack; see include/StackSpace.h.
#define _GNU_SOURCE
#include "StackSpace.h"

#include <pthread.h>

#include "ReadSections.h"  // IK_TLS_MODEL

/// The low end of this thread's stack: 0 until looked up, 1 when it cannot be known.
static __thread uintptr_t stack_low IK_TLS_MODEL;

static uintptr_t look_up_stack_low(void) {
#if defined(__APPLE__)
  pthread_t self = pthread_self();
  uintptr_t high = (uintptr_t)pthread_get_stackaddr_np(self);
  size_t size = pthread_get_stacksize_np(self);
  return high > size ? high - size : 1;
#elif defined(__linux__)
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 1;
  void *address = 0;
  size_t size = 0;
  int failed = pthread_attr_getstack(&attributes, &address, &size);
  pthread_attr_destroy(&attributes);
  return failed || !address ? 1 : (uintptr_t)address;
#else
  return 1;
#endif
}

uintptr_t ik_stack_space_left(void) {
  char here;
  if (stack_low == 0) stack_low = look_up_stack_low();
  if (stack_low == 1) return UINTPTR_MAX;
  uintptr_t position = (uintptr_t)&here;
  return position > stack_low ? position - stack_low : 0;
}
