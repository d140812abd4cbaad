// Read sections: the reclamation scheme behind the kernel's lock-free reads.
//
// A reader marks the few loads of a fast-path read with ik_read_section_enter/exit. A thread that
// unpublishes an object (a replaced stored value, a slot's replaced answer) calls ik_synchronize()
// before releasing it: that call returns only once every read section that might have loaded the old
// pointer has ended. Readers copy (retain) the value they return inside the section, so nothing a
// reader uses after the section can be freed by another thread.
//
// Reader cost: a load of the global grace-period number, two stores to the thread's own record (the
// number while inside, 0 outside), a test of two of its flags and, on systems without membarrier(2), one
// full fence. On Linux the writer issues membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), which makes every
// running thread of the process execute a full memory barrier; that stands in for the reader's fence
// between its store of its state and the load of the published pointer (the asymmetric-fence argument of
// userspace RCU's "memb" flavour).
//
// Memory-ordering argument, for a writer W that unpublished pointer P and then called ik_synchronize(),
// and a reader R whose section loads the published pointer:
//   W: store(new pointer) [seq_cst]; period += 1 [seq_cst]; membarrier (or fence); load R.state [acquire]
//   R: p = load(period) [acquire]; store R.state = p [relaxed]; (barrier: W's membarrier, or R's own
//      fence); load pointer
// Both sides have a full barrier between their store and their load, so at least one of them sees the
// other's store: either W sees R's nonzero state and waits until it is 0 (R's section ended with a
// release store that orders all of R's loads before W's release of P) or equals W's new period; or R
// loads the new pointer and never sees P. A state equal to W's new period was stored after R's acquire
// load of that period, which W wrote after unpublishing P, so that section cannot see P either (and W
// does not wait for a reader that keeps entering new sections). Sections never nest and never wait for a
// writer: optimized, they hold loads and a retain only; unoptimized, their generic code also asks the
// Swift runtime for type metadata, which may wait for another thread instantiating the same metadata
// (under the thread sanitizer it takes a lock on every request), and the runtime runs no code of this
// library while it holds those locks. So W's wait is short.
#ifndef INJECTION_READ_SECTIONS_H
#define INJECTION_READ_SECTIONS_H

#include <stdatomic.h>
#include <stdint.h>

#if defined(__linux__)
#define IK_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define IK_TLS_MODEL
#endif

/// One thread's reader record; lives in the thread's static TLS block and is linked into the process's
/// registry (guarded by the registry lock) from the thread's first section until its thread-exit
/// destructor unlinks it.
///
/// A thread reads on after that destructor when a later thread-exit destructor (another library's, in
/// the same or a later round) releases an object whose deinit reads a marked property. Linking the
/// record again could leave it in the registry once the thread is gone (glibc runs at most four rounds of
/// destructors, so the last one may never run again), pointing at freed or reused TLS: a writer would
/// then read garbage or loop on a cycle. So an exited thread never links its record again; each of its
/// later sections holds the registry lock instead, which keeps every writer's grace period from running
/// alongside it.
typedef struct ik_reader {
  /// The grace period the thread's current read section began in, 0 outside sections; written only by
  /// its own thread.
  _Atomic(uintptr_t) state;
  /// IK_READER_NEW before the thread's first section, IK_READER_LINKED while the record is in the
  /// registry, IK_READER_EXITED after the thread-exit destructor unlinked it; read and written only by
  /// its own thread.
  int registered;
  /// 1 while a section of an exited thread holds the registry lock; only its own thread uses it.
  int holds_registry;
  /// The next record of the registry.
  struct ik_reader *next;
} ik_reader;

#define IK_READER_NEW 0
#define IK_READER_LINKED 1
#define IK_READER_EXITED (-1)

extern __thread ik_reader ik_current_reader IK_TLS_MODEL;

/// The current grace period (never 0); advanced by each ik_synchronize().
extern _Atomic(uintptr_t) ik_grace_period;

/// 1 when readers must fence themselves (membarrier(2) is unavailable); set once, under the registry
/// lock, before the first reader of the process enters a section.
extern int ik_readers_fence;

/// The slow path of a section's start: links a new thread's record into the registry, or, for a thread
/// whose exit destructor unlinked it, takes the registry lock for the section (released by its end).
void ik_register_reader(void);

/// The slow path of a section's end on an exited thread: releases the registry lock.
void ik_end_locked_section(void);

/// The number of reader records in the registry (for tests and diagnostics).
int ik_registered_reader_count(void);

/// Returns once every read section that was running when it was called has ended.
void ik_synchronize(void);

static inline __attribute__((always_inline)) void ik_read_section_enter(void) {
  ik_reader *reader = &ik_current_reader;
  if (__builtin_expect(reader->registered != IK_READER_LINKED, 0)) ik_register_reader();
  uintptr_t period = atomic_load_explicit(&ik_grace_period, memory_order_acquire);
  atomic_store_explicit(&reader->state, period, memory_order_relaxed);
#if defined(__linux__)
  if (__builtin_expect(ik_readers_fence, 0)) atomic_thread_fence(memory_order_seq_cst);
#else
  atomic_thread_fence(memory_order_seq_cst);
#endif
  // A compiler barrier the optimizer treats as a call: nothing moves out of the section.
  __asm__ __volatile__("" ::: "memory");
}

static inline __attribute__((always_inline)) void ik_read_section_exit(void) {
  __asm__ __volatile__("" ::: "memory");
  ik_reader *reader = &ik_current_reader;
  atomic_store_explicit(&reader->state, 0, memory_order_release);
  if (__builtin_expect(reader->holds_registry, 0)) ik_end_locked_section();
}

#endif
