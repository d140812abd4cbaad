// A lock in two bits of a word that also carries other data: the per-instance lock of a marked property.
//
// A marked property's storage inside its instance is two words (see MarkedStorage.swift): the stored
// value and a control word holding the property's slot address and flags. Bit 0 of the control word is
// this lock, bit 1 says that a thread may be waiting; the other bits belong to the caller, who changes
// them only with atomic read-modify-write operations, so the lock never overwrites them.
//
// An uncontended lock or unlock is one compare-and-swap or fetch-and. A contended locker spins briefly,
// then parks: it takes one of a fixed set of process-wide mutex/condition pairs chosen by the word's
// address, sets the waiting bit while the word is still locked, and waits on the condition. Unlock clears
// both bits and, if the waiting bit was set, broadcasts on the same pair under its mutex. No wakeup is
// lost: a waiter sets the waiting bit and sleeps while holding the pair's mutex, and the unlocker takes
// that mutex before broadcasting, so it broadcasts either before the waiter's compare-and-swap (which
// then fails, the word having changed, and the waiter retries) or after the waiter sleeps. Pairs are
// shared by unrelated words; a waiter woken for another word finds its own still locked and waits again.
// The pair's mutex is held only around those few instructions, never while the lock's owner runs user
// code, so sharing pairs cannot deadlock. The lock is not recursive.
#ifndef INJECTION_WORD_LOCK_H
#define INJECTION_WORD_LOCK_H

#include <stdatomic.h>
#include <stdint.h>

#define IK_WORD_LOCKED ((uintptr_t)1)
#define IK_WORD_PARKED ((uintptr_t)2)

/// The contended path of ik_word_lock.
void ik_word_lock_slow(uintptr_t *word);

/// Wakes the threads parked on `word` (called by an unlock that found the waiting bit set).
void ik_word_wake(uintptr_t *word);

/// Acquires the lock in bit 0 of `*word` (acquire ordering).
static inline __attribute__((always_inline)) void ik_word_lock(uintptr_t *word) {
  _Atomic(uintptr_t) *atomic_word = (_Atomic(uintptr_t) *)word;
  uintptr_t current = atomic_load_explicit(atomic_word, memory_order_relaxed);
  if (__builtin_expect(!(current & IK_WORD_LOCKED), 1) &&
      atomic_compare_exchange_weak_explicit(
        atomic_word, &current, current | IK_WORD_LOCKED, memory_order_acquire, memory_order_relaxed)) {
    return;
  }
  ik_word_lock_slow(word);
}

/// Releases the lock in bit 0 of `*word` (release ordering), waking parked threads if there are any.
static inline __attribute__((always_inline)) void ik_word_unlock(uintptr_t *word) {
  _Atomic(uintptr_t) *atomic_word = (_Atomic(uintptr_t) *)word;
  uintptr_t previous =
    atomic_fetch_and_explicit(atomic_word, ~(IK_WORD_LOCKED | IK_WORD_PARKED), memory_order_release);
  if (__builtin_expect(previous & IK_WORD_PARKED, 0)) ik_word_wake(word);
}

#endif
