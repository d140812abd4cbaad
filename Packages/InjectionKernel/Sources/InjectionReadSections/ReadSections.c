// The registry of reader threads and the writer's wait; see include/ReadSections.h for the argument.
#include "ReadSections.h"

#include <pthread.h>
#include <sched.h>
#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

__thread ik_reader ik_current_reader IK_TLS_MODEL;
_Atomic(uintptr_t) ik_grace_period = 1;
int ik_readers_fence = 1;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static ik_reader *registry_head;  // guarded by registry_lock
static int registry_count;        // guarded by registry_lock
static int registry_ready;        // guarded by registry_lock
static pthread_key_t exit_key;    // its destructor unlinks an exiting thread's record

static void unregister_reader(void *record) {
  ik_reader *reader = record;
  pthread_mutex_lock(&registry_lock);
  for (ik_reader **link = &registry_head; *link; link = &(*link)->next) {
    if (*link == reader) {
      *link = reader->next;
      registry_count -= 1;
      break;
    }
  }
  pthread_mutex_unlock(&registry_lock);
  reader->next = 0;
  reader->registered = IK_READER_EXITED;  // later sections hold the registry lock (see ReadSections.h)
}

static void prepare_registry(void) {  // registry_lock held
  if (registry_ready) return;
  registry_ready = 1;
  pthread_key_create(&exit_key, unregister_reader);
#if defined(__linux__)
  long commands = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (commands > 0 && (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
      syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
    ik_readers_fence = 0;
  }
#endif
}

void ik_register_reader(void) {
  ik_reader *reader = &ik_current_reader;
  pthread_mutex_lock(&registry_lock);
  if (reader->registered == IK_READER_EXITED) {
    // Held until the section ends: no writer's grace period can run meanwhile, so whatever the section
    // loads stays alive until it is over, with the record out of the registry.
    reader->holds_registry = 1;
    return;
  }
  prepare_registry();
  reader->next = registry_head;
  registry_head = reader;
  registry_count += 1;
  pthread_mutex_unlock(&registry_lock);
  reader->registered = IK_READER_LINKED;
  pthread_setspecific(exit_key, reader);
}

void ik_end_locked_section(void) {
  ik_current_reader.holds_registry = 0;
  pthread_mutex_unlock(&registry_lock);
}

int ik_registered_reader_count(void) {
  pthread_mutex_lock(&registry_lock);
  int count = registry_count;
  pthread_mutex_unlock(&registry_lock);
  return count;
}

void ik_synchronize(void) {
  ik_reader *self = &ik_current_reader;
  pthread_mutex_lock(&registry_lock);
  int others = registry_count - (self->registered == IK_READER_LINKED ? 1 : 0);
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
