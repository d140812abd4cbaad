// Field locks; the design is in include/FieldLocks.h.
#include "FieldLocks.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define STRIPES 64

/// What a thread publishes of its waits, for the cycle check of other threads (see FieldLocks.h). Only
/// its own thread writes it; others read it only while the thread holds a field lock, under that lock's
/// stripe mutex, so the thread (and this record, in its TLS) is alive while they read.
typedef struct {
  /// The address of the lock the thread waits for; NULL when it waits for none.
  _Atomic(const void *) waitingFor;
  /// While the thread waits for `waitingFor`, the wait's number: odd and never used again by any thread
  /// (`nextWait`), so that two equal readings mean one uninterrupted wait of one thread in between — even
  /// when a thread that ended left its record's address to a new thread; 0 when it waits for none.
  _Atomic(uint64_t) waits;
} ik_waiter;

/// The number of the next wait to begin: odd numbers, one per wait in the process.
static _Atomic(uint64_t) nextWait = 1;

static __thread ik_waiter currentWaiter;

typedef struct {
  const void *address;
  ik_waiter *holder;  // the holding thread's record
} ik_holder;

typedef struct {
  pthread_mutex_t mutex;
  pthread_cond_t released;
  ik_holder *holders;  // the locks held, guarded by `mutex` (as are the counts)
  int count;
  int capacity;
  int waiters;
} ik_stripe;

static ik_stripe stripes[STRIPES];
static pthread_once_t stripesOnce = PTHREAD_ONCE_INIT;

static void makeStripes(void) {
  for (int i = 0; i < STRIPES; i++) {
    pthread_mutex_init(&stripes[i].mutex, NULL);
    pthread_cond_init(&stripes[i].released, NULL);
  }
}

static ik_stripe *stripeOf(const void *address) {
  uintptr_t bits = (uintptr_t)address;
  return &stripes[((bits >> 3) ^ (bits >> 9)) & (STRIPES - 1)];
}

static int indexOf(ik_stripe *stripe, const void *address) {
  for (int i = 0; i < stripe->count; i++) {
    if (stripe->holders[i].address == address) return i;
  }
  return -1;
}

/// One step of a wait chain: the lock at `address` is held by `holder`, seen waiting in its wait
/// numbered `waits`.
typedef struct {
  const void *address;
  ik_waiter *holder;
  uint64_t waits;
} ik_link;

#define MAX_CHAIN 64

/// Whether the calling thread, which holds its locks and waits for `address`, closes a cycle of waits:
/// `address` is held by a thread that waits for a lock held by a thread that waits … for a lock the
/// calling thread holds. Reads each link under the stripe mutex of the lock it names (one at a time, so
/// this takes no two stripe mutexes at once), then reads every link again: only a chain whose every
/// thread was in the same wait at both readings counts. Such a thread is blocked between the readings
/// and cannot release or take a lock, so at a moment between the two walks every link held at once: a
/// deadlock, which nothing can end. A chain that changed is no cycle now (if one forms later, the thread
/// whose wait completes it finds it). Chains longer than MAX_CHAIN are not followed.
static int closesCycle(const void *address) {
  ik_link chain[MAX_CHAIN];
  int length = 0;
  const void *next = address;
  for (;;) {
    if (length == MAX_CHAIN) return 0;
    ik_stripe *stripe = stripeOf(next);
    pthread_mutex_lock(&stripe->mutex);
    int held = indexOf(stripe, next);
    ik_waiter *holder = held >= 0 ? stripe->holders[held].holder : NULL;
    const void *awaited = NULL;
    uint64_t waits = 0;
    if (holder != NULL && holder != &currentWaiter) {
      waits = atomic_load(&holder->waits);
      awaited = atomic_load(&holder->waitingFor);
    }
    pthread_mutex_unlock(&stripe->mutex);
    if (holder == NULL) return 0;
    if (holder == &currentWaiter) break;
    if (waits == 0 || awaited == NULL) return 0;
    for (int i = 0; i < length; i++) {
      if (chain[i].holder == holder) return 0;  // a cycle that does not pass through this thread
    }
    chain[length++] = (ik_link){next, holder, waits};
    next = awaited;
  }
  for (int i = 0; i < length; i++) {
    ik_stripe *stripe = stripeOf(chain[i].address);
    pthread_mutex_lock(&stripe->mutex);
    int held = indexOf(stripe, chain[i].address);
    int same = held >= 0 && stripe->holders[held].holder == chain[i].holder
      && atomic_load(&chain[i].holder->waits) == chain[i].waits;
    pthread_mutex_unlock(&stripe->mutex);
    if (!same) return 0;
  }
  return 1;
}

int ik_field_lock(const void *address) {
  pthread_once(&stripesOnce, makeStripes);
  ik_stripe *stripe = stripeOf(address);
  ik_waiter *self = &currentWaiter;
  int announced = 0;
  pthread_mutex_lock(&stripe->mutex);
  for (int held; (held = indexOf(stripe, address)) >= 0;) {
    if (stripe->holders[held].holder == self) {
      pthread_mutex_unlock(&stripe->mutex);
      return 1;
    }
    if (!announced) {
      // Published before the check (sequentially consistent, as the other threads' loads are): of two
      // threads that begin waiting for each other at once, at least one sees the other's wait.
      announced = 1;
      atomic_store(&self->waitingFor, address);
      atomic_store(&self->waits, atomic_fetch_add(&nextWait, 2));
      pthread_mutex_unlock(&stripe->mutex);
      if (closesCycle(address)) {
        atomic_store(&self->waitingFor, NULL);
        atomic_store(&self->waits, 0);
        return 2;
      }
      pthread_mutex_lock(&stripe->mutex);
      continue;  // the holder may have let go meanwhile
    }
    stripe->waiters += 1;
    pthread_cond_wait(&stripe->released, &stripe->mutex);
    stripe->waiters -= 1;
  }
  if (announced) {
    atomic_store(&self->waitingFor, NULL);
    atomic_store(&self->waits, 0);
  }
  if (stripe->count == stripe->capacity) {
    int capacity = stripe->capacity == 0 ? 4 : 2 * stripe->capacity;
    ik_holder *grown = realloc(stripe->holders, (size_t)capacity * sizeof(ik_holder));
    if (grown == NULL) {
      fputs("DeluxeInjection: out of memory taking a field lock\n", stderr);
      abort();
    }
    stripe->holders = grown;
    stripe->capacity = capacity;
  }
  stripe->holders[stripe->count++] = (ik_holder){address, self};
  pthread_mutex_unlock(&stripe->mutex);
  return 0;
}

void ik_field_unlock(const void *address) {
  ik_stripe *stripe = stripeOf(address);
  pthread_mutex_lock(&stripe->mutex);
  int held = indexOf(stripe, address);
  if (held >= 0) stripe->holders[held] = stripe->holders[--stripe->count];
  if (stripe->waiters > 0) pthread_cond_broadcast(&stripe->released);
  pthread_mutex_unlock(&stripe->mutex);
}
