// The emptied-fill mark's address; the argument for reading it without ordering is in
// include/HeldWord.h.
#include "HeldWord.h"

_Atomic(uintptr_t) ik_emptied_fill_mark = 0;

void ik_emptied_fill_record(uintptr_t bits) {
  atomic_store_explicit(&ik_emptied_fill_mark, bits, memory_order_release);
}

__thread uintptr_t ik_reading_slot = 0;
__thread uintptr_t ik_reading_inner_slot = 0;
__thread long ik_recording_depth = 0;
__thread long ik_telling_scope_end = 0;
__thread long ik_consistent_reads_depth = 0;
__thread uintptr_t ik_running_selection = 0;
__thread uintptr_t ik_running_code = 0;

// The running fills (see include/FillFrames.h).
#include "FillFrames.h"

#include <pthread.h>
#include <stdlib.h>

__thread const void **ik_fill_frames = 0;
__thread long ik_fill_depth = 0;

static pthread_key_t fill_frames_key;
static pthread_once_t fill_frames_once = PTHREAD_ONCE_INIT;
static int fill_frames_key_ready;

static void free_fill_frames(void *frames) {
  ik_fill_frames = 0;  // a fill in a later exit destructor makes a new array (and the key frees it again)
  free(frames);
}

static void make_fill_frames_key(void) {
  fill_frames_key_ready = pthread_key_create(&fill_frames_key, free_fill_frames) == 0;
}

const void **ik_fill_frames_make(void) {
  const void **frames = calloc(IK_FILL_FRAMES, sizeof(void *));
  if (!frames) abort();  // a fill that cannot note itself could not report a cycle
  pthread_once(&fill_frames_once, make_fill_frames_key);
  if (fill_frames_key_ready) pthread_setspecific(fill_frames_key, frames);
  ik_fill_frames = frames;
  return frames;
}
