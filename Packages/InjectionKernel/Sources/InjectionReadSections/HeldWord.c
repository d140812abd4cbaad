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

// The running fills (see include/FillFrames.h).
#include "FillFrames.h"
__thread const void *ik_fill_frames[IK_FILL_FRAMES];
__thread long ik_fill_depth = 0;
