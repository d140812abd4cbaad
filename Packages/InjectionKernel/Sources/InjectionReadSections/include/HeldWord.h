// Atomic access to a marked property's held-value word: the second word of its `MarkedStorage`, inside
// the instance (or inside an associated storage's cell). Swift declares the word as a strong reference,
// so the instance's destruction releases whatever it holds last; while the instance lives, the kernel
// reads it only with these loads and replaces it only with ik_held_exchange under the field's lock.
#ifndef INJECTION_HELD_WORD_H
#define INJECTION_HELD_WORD_H

#include <stdatomic.h>
#include <stdint.h>

static inline __attribute__((always_inline)) uintptr_t ik_held_load(const void *word) {
  return atomic_load_explicit((_Atomic(uintptr_t) *)word, memory_order_acquire);
}

static inline __attribute__((always_inline)) uintptr_t ik_held_exchange(void *word, uintptr_t value) {
  return atomic_exchange_explicit((_Atomic(uintptr_t) *)word, value, memory_order_acq_rel);
}

/// The address of the kernel's emptied-fill mark (`EmptiedFill.mark`), 0 until the mark exists: fast
/// reads compare held words with it without calling the mark's lazy initializer. Correct from any
/// thread: a held word holds the mark only after its publisher made the mark (which stored this address
/// first) and published it with a releasing exchange; a reader that loads the mark with an acquiring
/// ik_held_load then sees this address. A reader that sees 0 here has loaded no mark.
extern _Atomic(uintptr_t) ik_emptied_fill_mark;

static inline __attribute__((always_inline)) uintptr_t ik_emptied_fill_bits(void) {
  return atomic_load_explicit(&ik_emptied_fill_mark, memory_order_relaxed);
}

/// Records the mark's address (once, from the mark's initializer).
void ik_emptied_fill_record(uintptr_t bits);

/// The slot of the outermost marked-property read in progress on this thread whose slow path runs
/// plugin code (a factory, a getter), 0 when none: messages of values built during a read name the
/// property the user's code read. Only its own thread reads and writes it.
extern __thread uintptr_t ik_reading_slot;

/// The slot of the innermost such read in progress on this thread (the one whose plugin code runs now),
/// 0 when none. Only its own thread reads and writes it.
extern __thread uintptr_t ik_reading_inner_slot;

/// Notes that a slow-path read of the property whose slot is at `slot` begins; returns what to pass to
/// ik_reading_end (the read it is nested in, or 0 when this read is the outermost).
static inline __attribute__((always_inline)) uintptr_t ik_reading_begin(uintptr_t slot) {
  uintptr_t enclosing = ik_reading_inner_slot;
  ik_reading_inner_slot = slot;
  if (enclosing == 0) ik_reading_slot = slot;
  return enclosing;
}

/// The slot of the outermost read in progress on this thread (see ik_reading_slot), or 0.
static inline __attribute__((always_inline)) uintptr_t ik_reading_current(void) { return ik_reading_slot; }

/// The slot of the innermost read in progress on this thread (see ik_reading_inner_slot), or 0.
static inline __attribute__((always_inline)) uintptr_t ik_reading_innermost(void) { return ik_reading_inner_slot; }

/// How many batches the calling thread is recording (InjectionRules.recording, nested), and the calls
/// that read and change it. Only its own thread reads and writes it: a task spawned while a batch is
/// recorded runs later, elsewhere, and may commit.
extern __thread long ik_recording_depth;

static inline __attribute__((always_inline)) long ik_recording_get(void) { return ik_recording_depth; }

static inline __attribute__((always_inline)) void ik_recording_set(long depth) { ik_recording_depth = depth; }

/// Whether the calling thread runs what an override scope's end tells plugins (InjectionScope.end()):
/// its commits go to the ended scope without an error. Per thread, not per task: a task that code
/// starts must not inherit it.
extern __thread long ik_telling_scope_end;

static inline __attribute__((always_inline)) long ik_telling_scope_end_get(void) { return ik_telling_scope_end; }

static inline __attribute__((always_inline)) void ik_telling_scope_end_set(long telling) {
  ik_telling_scope_end = telling;
}

/// How many `Injection.withConsistentReads` bodies the calling thread is running (nested). A commit there
/// would change the configuration the body waits to see stable, and the body would run again for ever.
/// Only its own thread reads and writes it.
extern __thread long ik_consistent_reads_depth;

static inline __attribute__((always_inline)) long ik_consistent_reads_get(void) { return ik_consistent_reads_depth; }

static inline __attribute__((always_inline)) void ik_consistent_reads_set(long depth) {
  ik_consistent_reads_depth = depth;
}

/// The address of the `PropertySelection` whose `filter` predicates the calling thread is running, 0 when
/// none: a predicate that calls back into the kernel while it commits is named in the stop that follows.
/// Valid only while those predicates run (the caller sets it around them and restores it after). Only its
/// own thread reads and writes it.
extern __thread uintptr_t ik_running_selection;

static inline __attribute__((always_inline)) uintptr_t ik_running_selection_get(void) { return ik_running_selection; }

static inline __attribute__((always_inline)) void ik_running_selection_set(uintptr_t selection) {
  ik_running_selection = selection;
}

/// The address of a Swift `String` describing app code that a plugin's builder runs during a commit (a
/// key closure), 0 when none: named, like a filter, in the stop of a call back into the kernel. Valid
/// only while that code runs. Only its own thread reads and writes it.
extern __thread uintptr_t ik_running_code;

static inline __attribute__((always_inline)) uintptr_t ik_running_code_get(void) { return ik_running_code; }

static inline __attribute__((always_inline)) void ik_running_code_set(uintptr_t code) { ik_running_code = code; }

/// Notes that the read ik_reading_begin returned `enclosing` for has ended.
static inline __attribute__((always_inline)) void ik_reading_end(uintptr_t enclosing) {
  ik_reading_inner_slot = enclosing;
  if (enclosing == 0) ik_reading_slot = 0;
}

/// The instance's class: its metadata's address. On Linux that is the object's first word, which the
/// runtime never changes for a Swift object. On Apple platforms the first word of an `NSObject`
/// subclass's instance is a non-pointer isa that also carries reference-count bits, so the class is
/// asked of the Objective-C runtime (Apple-platform code, not run by this project's Linux CI).
#if defined(__APPLE__)
#include <objc/runtime.h>
static inline __attribute__((always_inline)) uintptr_t ik_class_word(const void *object) {
  return (uintptr_t)object_getClass((id)object);
}
#else
static inline __attribute__((always_inline)) uintptr_t ik_class_word(const void *object) {
  return *(const uintptr_t *)object;
}
#endif

#endif
