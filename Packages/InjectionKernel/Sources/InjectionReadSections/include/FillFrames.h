// The fills running on the calling thread, outermost first, for the kernel's check of fills nested
// through new instances (FillChain in Swift): a fixed per-thread array of slot addresses, so that a fill
// that nests nothing — almost every fill — pays a few instructions. Slots are never freed, so their
// addresses stay valid here without a reference count.
#ifndef INJECTION_FILL_FRAMES_H
#define INJECTION_FILL_FRAMES_H

#include <stdint.h>

/// How many running fills are remembered per thread; deeper ones are counted but not remembered.
#define IK_FILL_FRAMES 512

// On the heap, reached through one word of thread-local storage: a 4 KB thread-local array would take
// the static TLS space that a library opened with dlopen needs (glibc refuses such a library).
extern __thread const void **ik_fill_frames;
extern __thread long ik_fill_depth;

/// Makes the calling thread's array (freed when the thread exits) and returns it.
const void **ik_fill_frames_make(void);

/// Notes that a fill of `slot` starts on this thread; returns how many fills of `slot` (among the first
/// IK_FILL_FRAMES remembered) are running on it already.
static inline __attribute__((always_inline)) long ik_fill_enter(const void *slot) {
  const void **frames = ik_fill_frames;
  if (!frames) frames = ik_fill_frames_make();
  long depth = ik_fill_depth;
  long remembered = depth < IK_FILL_FRAMES ? depth : IK_FILL_FRAMES;
  long nested = 0;
  for (long i = 0; i < remembered; i++) nested += frames[i] == slot;
  if (depth < IK_FILL_FRAMES) frames[depth] = slot;
  ik_fill_depth = depth + 1;
  return nested;
}

/// Notes that the innermost fill running on this thread is over.
static inline __attribute__((always_inline)) void ik_fill_leave(void) { ik_fill_depth -= 1; }

/// How many fills are running on this thread.
static inline __attribute__((always_inline)) long ik_fill_running(void) { return ik_fill_depth; }

/// The slot of the `index`th running fill (outermost first), for `index` below IK_FILL_FRAMES and the
/// number running (so after a fill started: the array exists).
static inline __attribute__((always_inline)) const void *ik_fill_frame(long index) { return ik_fill_frames[index]; }

#endif
