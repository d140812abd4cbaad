// Field locks; the design is in include/FieldLocks.h.
#include "FieldLocks.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define STRIPES 64

typedef struct {
  const void *address;
  pthread_t thread;
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

int ik_field_lock(const void *address) {
  pthread_once(&stripesOnce, makeStripes);
  ik_stripe *stripe = stripeOf(address);
  pthread_t self = pthread_self();
  pthread_mutex_lock(&stripe->mutex);
  for (int held; (held = indexOf(stripe, address)) >= 0;) {
    if (pthread_equal(stripe->holders[held].thread, self)) {
      pthread_mutex_unlock(&stripe->mutex);
      return 1;
    }
    stripe->waiters += 1;
    pthread_cond_wait(&stripe->released, &stripe->mutex);
    stripe->waiters -= 1;
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
