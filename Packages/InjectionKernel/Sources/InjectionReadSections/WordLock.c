// The contended paths of the word lock; see include/WordLock.h for the protocol and why no wakeup is lost.
#include "WordLock.h"

#include <pthread.h>
#include <sched.h>

enum { parking_pairs = 64, spins_before_parking = 64 };

static struct parking_pair {
  pthread_mutex_t mutex;
  pthread_cond_t condition;
} pairs[parking_pairs];

static pthread_once_t pairs_once = PTHREAD_ONCE_INIT;

static void initialize_pairs(void) {
  for (int index = 0; index < parking_pairs; index++) {
    pthread_mutex_init(&pairs[index].mutex, 0);
    pthread_cond_init(&pairs[index].condition, 0);
  }
}

static struct parking_pair *pair_for(uintptr_t *word) {
  pthread_once(&pairs_once, initialize_pairs);
  uintptr_t address = (uintptr_t)word;
  return &pairs[((address >> 4) ^ (address >> 10)) % parking_pairs];
}

void ik_word_lock_slow(uintptr_t *word) {
  _Atomic(uintptr_t) *atomic_word = (_Atomic(uintptr_t) *)word;
  int spins = 0;
  for (;;) {
    uintptr_t current = atomic_load_explicit(atomic_word, memory_order_relaxed);
    if (!(current & IK_WORD_LOCKED)) {
      if (atomic_compare_exchange_weak_explicit(
            atomic_word, &current, current | IK_WORD_LOCKED, memory_order_acquire, memory_order_relaxed)) {
        return;
      }
      continue;
    }
    if (spins < spins_before_parking) {
      spins += 1;
      sched_yield();
      continue;
    }
    struct parking_pair *pair = pair_for(word);
    pthread_mutex_lock(&pair->mutex);
    current = atomic_load_explicit(atomic_word, memory_order_relaxed);
    if ((current & IK_WORD_LOCKED) &&
        ((current & IK_WORD_PARKED) ||
         atomic_compare_exchange_strong_explicit(
           atomic_word, &current, current | IK_WORD_PARKED, memory_order_relaxed, memory_order_relaxed))) {
      pthread_cond_wait(&pair->condition, &pair->mutex);
    }
    pthread_mutex_unlock(&pair->mutex);
  }
}

void ik_word_wake(uintptr_t *word) {
  struct parking_pair *pair = pair_for(word);
  pthread_mutex_lock(&pair->mutex);
  pthread_cond_broadcast(&pair->condition);
  pthread_mutex_unlock(&pair->mutex);
}
