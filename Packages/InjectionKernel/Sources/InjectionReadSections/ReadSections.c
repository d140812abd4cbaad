// The registry of reader threads and the writer's wait; see include/ReadSections.h for the argument.
#include "ReadSections.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

__thread ik_reader *ik_current_reader IK_TLS_MODEL;
_Atomic(uintptr_t) ik_grace_period = 1;
int ik_readers_fence = 1;

/// Whether the calling thread's exit destructor unlinked its record (it never links one again).
static __thread int exited IK_TLS_MODEL;
/// The record an exited thread's sections write their state to: in no registry (they hold its lock).
static __thread ik_reader exited_record IK_TLS_MODEL;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static ik_reader *registry_head;  // guarded by registry_lock
static int registry_count;        // guarded by registry_lock
static int registry_ready;        // guarded by registry_lock
static pthread_key_t exit_key;    // its destructor unlinks and frees an exiting thread's record
static int exit_key_ready;        // whether exit_key was created (set once, under registry_lock)

static void unregister_reader(void *pointer) {
  ik_reader *record = pointer;
  pthread_mutex_lock(&registry_lock);
  for (ik_reader **link = &registry_head; *link; link = &(*link)->next) {
    if (*link == record) {
      *link = record->next;
      registry_count -= 1;
      break;
    }
  }
  pthread_mutex_unlock(&registry_lock);
  // Unlinked under the lock that every writer walks the registry with: no writer holds it any more
  // (see ik_reader in ReadSections.h), and this thread's later sections use no record.
  ik_current_reader = 0;
  exited = 1;
  free(record);
}

// fork(2) copies the registry but only the forking thread: the handlers keep the lock from being copied
// held, and the child drops the other threads' records (one of them may have been copied mid-section,
// with a state no thread will ever clear).
static void before_fork(void) { pthread_mutex_lock(&registry_lock); }
static void after_fork_in_parent(void) { pthread_mutex_unlock(&registry_lock); }
static void after_fork_in_child(void) {
  ik_reader *kept = 0;
  for (ik_reader *record = registry_head, *next; record; record = next) {
    next = record->next;
    if (record == ik_current_reader) {
      kept = record;
    } else {
      free(record);  // its thread does not exist here
    }
  }
  registry_head = kept;
  if (kept) kept->next = 0;
  registry_count = kept ? 1 : 0;
  pthread_mutex_unlock(&registry_lock);
}

static void prepare_registry(void) {  // registry_lock held
  if (registry_ready) return;
  registry_ready = 1;
  // Without a key of its own (every key taken), no record is ever unlinked: they stay linked, valid and
  // taken over by later threads with the same identity, rather than handed to another library's key.
  exit_key_ready = pthread_key_create(&exit_key, unregister_reader) == 0;
  pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
#if defined(__linux__)
  long commands = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (commands > 0 && (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
      syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
    ik_readers_fence = 0;
  }
#endif
}

ik_reader *ik_register_reader(void) {
  pthread_mutex_lock(&registry_lock);
  if (exited) {
    // Held until the section ends (ik_end_locked_section): no writer's grace period can run meanwhile,
    // so whatever the section loads stays alive until it is over, with no record in the registry.
    return &exited_record;
  }
  prepare_registry();
  uintptr_t self = (uintptr_t)pthread_self();
  // A record left linked by an earlier thread with this identity (its first section came too late in
  // its exit for its destructor to run): that thread is gone, so the record is free to take over. Its
  // state is 0: its last section ended.
  ik_reader *record = 0;
  for (ik_reader *candidate = registry_head; candidate; candidate = candidate->next) {
    if (candidate->owner == self) {
      record = candidate;
      break;
    }
  }
  if (!record) {
    record = calloc(1, sizeof(ik_reader));
    if (!record) abort();  // a reader without a record cannot be waited for
    record->owner = self;
    record->next = registry_head;
    registry_head = record;
    registry_count += 1;
  }
  pthread_mutex_unlock(&registry_lock);
  ik_current_reader = record;
  // Unlinks and frees it when the thread exits — unless the thread's exit destructors are in their last
  // round already; the record then stays linked, and allocated, until a thread with this identity takes
  // it over (see ik_reader).
  if (exit_key_ready) pthread_setspecific(exit_key, record);
  return record;
}

void ik_end_locked_section(void) { pthread_mutex_unlock(&registry_lock); }

int ik_registered_reader_count(void) {
  pthread_mutex_lock(&registry_lock);
  int count = registry_count;
  pthread_mutex_unlock(&registry_lock);
  return count;
}

void ik_synchronize(void) {
  ik_reader *self = ik_current_reader;  // this thread's own record, if linked: it is in no section now
  pthread_mutex_lock(&registry_lock);
  int others = registry_count - (self ? 1 : 0);
  if (others > 0) {
    uintptr_t period = atomic_fetch_add_explicit(&ik_grace_period, 1, memory_order_seq_cst) + 1;
#if defined(__linux__)
    if (ik_readers_fence) {
      atomic_thread_fence(memory_order_seq_cst);  // readers fence themselves in this mode
    } else if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) {
      __builtin_trap();  // cannot fail once registered; readers rely on it, so never go on without it
    }
#else
    atomic_thread_fence(memory_order_seq_cst);
#endif
    for (ik_reader *reader = registry_head; reader; reader = reader->next) {
      if (reader == self) continue;
      unsigned spins = 0;
      for (;;) {
        uintptr_t state = atomic_load_explicit(&reader->state, memory_order_acquire);
        if (state == 0 || state == period) break;
        if (++spins > 64) sched_yield();
      }
    }
  }
  pthread_mutex_unlock(&registry_lock);
}
