// How much of the calling thread's stack is left: for the kernel's check of fills nested through new
// instances (FillChain in Swift), which stops a cycle with a message before the stack overflows, rather
// than at a fixed depth that a legitimate chain (each fill reading the previous instance's property)
// could reach.
#ifndef INJECTION_STACK_SPACE_H
#define INJECTION_STACK_SPACE_H

#include <stdint.h>

/// Bytes between the calling frame and the low end of the calling thread's stack (stacks grow down on
/// every platform Swift supports), or UINTPTR_MAX when the thread's stack bounds are unknown. The bounds
/// are looked up once per thread (pthread_getattr_np on Linux, pthread_get_stackaddr_np on Darwin).
uintptr_t ik_stack_space_left(void);

#endif
