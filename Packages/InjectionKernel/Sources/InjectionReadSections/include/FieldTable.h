// The field table: where each marked property of a class keeps its per-instance state, and its slot.
//
// A marker wrapper stores its state inline in the instance (the kernel's `MarkedStorage`: an immutable
// declaration token, then the held-value word). A read knows the instance and the token, not the
// field's offset (Swift gives a class field's address only through an inout access, which the thread
// sanitizer reports as a conflicting access when two threads read at once), so it looks the offset up
// here, keyed by (the instance's class metadata, the token), together with the property's slot, and
// checks that the entry's field in this instance holds that token (ik_field_find_in).
//
// An open-addressing table, written under a lock and read without one:
// - An entry is written whole (token, offset, slot), then published by a releasing store of its class
//   word; a reader that sees the class word with an acquiring load sees the rest. Entries never change
//   or move once published, and are never removed (one per (class, marked property) ever accessed).
// - Growth copies the entries into a larger table and publishes it with a releasing store. Reclamation:
//   a reader may hold a pointer to any earlier table for as long as it likes (between its load of the
//   table pointer and its last probe), so earlier tables are never freed. Each table is at most half
//   the size of the next, so what they keep is less than the current table's size: bounded by the
//   number of (class, property) pairs, never by the number of instances or reads.
#ifndef INJECTION_FIELD_TABLE_H
#define INJECTION_FIELD_TABLE_H

#include "HeldWord.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ik_field_entry {
  _Atomic(uintptr_t) cls;  // the class metadata's address; 0 while the entry is free
  uintptr_t token;         // the wrapper's declaration token
  intptr_t offset;         // the offset of the property's held-value word in the instance
  uintptr_t slot;          // the address of the property's slot (slots are immortal)
} ik_field_entry;

typedef struct ik_field_table {
  uintptr_t shift;  // 64 - log2(capacity): an index is the hash's top bits
  uintptr_t mask;   // capacity - 1
  uintptr_t count;  // entries in use (written under the insertion lock only)
  ik_field_entry entries[];
} ik_field_table;

/// The current table; NULL until the first insertion.
extern _Atomic(ik_field_table *) ik_field_table_current;

static inline __attribute__((always_inline)) uintptr_t ik_field_hash(uintptr_t cls, uintptr_t token) {
  return (cls ^ token) * (uintptr_t)0x9E3779B97F4A7C15ull;
}

/// The slot address of the property with `token` in instances of `cls`, and its held-value word's
/// offset in `*offset`; 0 when the table has no such entry yet.
static inline __attribute__((always_inline)) uintptr_t ik_field_find(uintptr_t cls, uintptr_t token,
                                                                    intptr_t *offset) {
  ik_field_table *table = atomic_load_explicit(&ik_field_table_current, memory_order_acquire);
  if (__builtin_expect(table == NULL, 0)) return 0;
  uintptr_t index = ik_field_hash(cls, token) >> table->shift;
  for (;;) {
    ik_field_entry *entry = &table->entries[index];
    uintptr_t found = atomic_load_explicit(&entry->cls, memory_order_acquire);
    if (__builtin_expect(found == cls, 1) && entry->token == token) {
      *offset = entry->offset;
      return entry->slot;
    }
    if (found == 0) return 0;
    index = (index + 1) & table->mask;
  }
}

/// Where a property's state is in an instance: its slot (0: not found) and its held-value word's
/// offset. A struct, so that it comes back in two registers and an inlined read keeps no local in memory.
typedef struct ik_field_location {
  uintptr_t slot;
  intptr_t offset;
} ik_field_location;

/// The location of the property with `token` in `instance`; slot 0 when the table has no entry for
/// (the instance's class, token) or when the entry's field in this instance holds another token. The
/// token is per instance, not per class: a wrapper made in an initializer (`_x = Marker()`) has that
/// initializer's position, so one token can name different fields in different instances. Layout
/// relied on: a field's token is the word before its held word, written when the instance is
/// initialized and never again.
static inline __attribute__((always_inline)) ik_field_location ik_field_find_in(const void *instance,
                                                                              uintptr_t token) {
  intptr_t offset = 0;
  uintptr_t slot = ik_field_find(ik_class_word(instance), token, &offset);
  if (__builtin_expect(slot == 0, 0)) return (ik_field_location){0, 0};
  const uintptr_t *held = (const uintptr_t *)((const char *)instance + offset);
  if (__builtin_expect(held[-1] != token, 0)) return (ik_field_location){0, 0};
  return (ik_field_location){slot, offset};
}

/// Adds the entry (cls, token) → (offset, slot) unless the table has one for (cls, token); returns the
/// slot of the entry the table holds then, and its offset in `*held_offset`.
uintptr_t ik_field_insert(uintptr_t cls, uintptr_t token, intptr_t offset, uintptr_t slot, intptr_t *held_offset);

#endif
