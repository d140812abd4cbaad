// Read sections: the reclamation scheme behind the kernel's lock-free reads.
//
// A reader marks the few loads of a fast-path read with ik_read_section_enter/exit. A thread that
// unpublishes an object (a replaced stored value, a slot's replaced answer) calls ik_synchronize()
// before releasing it: that call returns only once every read section that might have loaded the old
// pointer has ended. Readers copy (retain) the value they return inside the section, so nothing a
// reader uses after the section can be freed by another thread.
//
// Reader cost: a load of the thread's record pointer (thread-local) at each end, a load of the global
// grace-period number, two stores to the thread's own record (the number while inside, 0 outside) and,
// on systems without membarrier(2), one full fence. On Linux the writer issues membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), which makes every
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

/// One thread's reader record, on the heap: linked into the process's registry (guarded by the registry
/// lock) from the thread's first section until its thread-exit destructor unlinks and frees it. The
/// thread reaches it through `ik_current_reader`; writers reach it only through the registry, under the
/// registry lock.
///
/// Reclamation: a record is freed only by its own thread's exit destructor, after it unlinked the record
/// under the registry lock and cleared `ik_current_reader`. Writers read records only while holding that
/// lock and only through the list, so none can still hold the pointer; the thread itself runs no section
/// during its destructor's unlinking (sections never call out), and later sections use no record.
///
/// The record is on the heap, not in the thread's TLS block, because a thread may link it after its exit
/// destructors began: a destructor (another library's) releases an object whose deinit reads a marked
/// property. glibc runs at most four rounds of destructors, so the kernel's own destructor, armed by that
/// first section, may never run: the record then stays in the registry after the thread is gone. A record
/// in TLS would point at memory that a later thread reuses (linking the same address again made the
/// registry a cycle, and a writer waited forever) or that is unmapped; a heap record stays valid, with
/// state 0 since its last section ended. A later thread with the same `pthread_t` takes it over (glibc
/// gives a thread's identity — its descriptor's address — to a new thread only after the old one has
/// exited for good), so such records are bounded by the number of thread identities glibc reuses, not by
/// the number of threads.
///
/// A thread reads on after its own exit destructor ran when a later destructor (in the same or a later
/// round) releases an object whose deinit reads a marked property. Linking a new record then could leave
/// it in the registry for good, as above, and a thread may exit many times in a process's life; so an
/// exited thread never links a record again: each of its later sections holds the registry lock instead,
/// which keeps every writer's grace period from running alongside it.
///
/// fork(2) copies the registry but only the forking thread: `pthread_atfork` handlers keep the registry
/// lock from being copied held, and the child frees the other threads' records (one may have been
/// copied mid-section, with a state no thread would ever clear). If the process has no thread-specific
/// key left for the kernel's exit destructor, records are never unlinked; they stay linked and valid,
/// and are taken over by later threads with the same identity, as above.
typedef struct ik_reader {
  /// The grace period the thread's current read section began in, 0 outside sections; written only by
  /// its own thread.
  _Atomic(uintptr_t) state;
  /// The next record of the registry.
  struct ik_reader *next;
  /// The thread that linked it (`pthread_self()`), for a later thread with the same identity to take a
  /// record left linked over (see ik_register_reader).
  uintptr_t owner;
} ik_reader;

/// The calling thread's linked record; NULL before its first section and after its exit destructor
/// unlinked it (then each section takes the slow path and holds the registry lock).
extern __thread ik_reader *ik_current_reader IK_TLS_MODEL;

/// The current grace period (never 0); advanced by each ik_synchronize().
extern _Atomic(uintptr_t) ik_grace_period;

/// 1 when readers must fence themselves (membarrier(2) is unavailable); set once, under the registry
/// lock, before the first reader of the process enters a section.
extern int ik_readers_fence;

/// The slow path of a section's start: links a new thread's record into the registry and returns it,
/// or, for a thread whose exit destructor unlinked its record, takes the registry lock for the section
/// (released by its end) and returns a record of the thread's own that is in no registry.
ik_reader *ik_register_reader(void);

/// The slow path of a section's end on an exited thread: releases the registry lock.
void ik_end_locked_section(void);

/// The number of reader records in the registry (for tests and diagnostics).
int ik_registered_reader_count(void);

/// Returns once every read section that was running when it was called has ended.
void ik_synchronize(void);

static inline __attribute__((always_inline)) void ik_read_section_enter(void) {
  ik_reader *reader = ik_current_reader;
  if (__builtin_expect(reader == 0, 0)) reader = ik_register_reader();
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
  ik_reader *reader = ik_current_reader;
  if (__builtin_expect(reader == 0, 0)) {
    ik_end_locked_section();  // an exited thread's section: it holds the registry lock
    return;
  }
  atomic_store_explicit(&reader->state, 0, memory_order_release);
}

#endif
