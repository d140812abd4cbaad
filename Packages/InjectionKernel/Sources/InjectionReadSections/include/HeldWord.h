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

/// The instance's class word (its metadata's address on Linux; the word the runtime never changes for
/// a Swift object).
static inline __attribute__((always_inline)) uintptr_t ik_class_word(const void *object) {
  return *(const uintptr_t *)object;
}

#endif
