// The field table; the layout and the reclamation argument are in include/FieldTable.h.
#include "FieldTable.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

_Atomic(ik_field_table *) ik_field_table_current = NULL;

static pthread_mutex_t insertLock = PTHREAD_MUTEX_INITIALIZER;

static void place(ik_field_table *table, uintptr_t cls, uintptr_t token, intptr_t offset, uintptr_t slot) {
  uintptr_t index = ik_field_hash(cls, token) >> table->shift;
  while (atomic_load_explicit(&table->entries[index].cls, memory_order_relaxed) != 0) {
    index = (index + 1) & table->mask;
  }
  ik_field_entry *entry = &table->entries[index];
  entry->token = token;
  entry->offset = offset;
  entry->slot = slot;
  atomic_store_explicit(&entry->cls, cls, memory_order_release);
  table->count += 1;
}

static ik_field_table *grown(ik_field_table *from) {
  uintptr_t capacity = from == NULL ? 64 : 2 * (from->mask + 1);
  unsigned bits = 0;
  while (((uintptr_t)1 << bits) < capacity) bits += 1;
  ik_field_table *table = calloc(1, sizeof(ik_field_table) + capacity * sizeof(ik_field_entry));
  if (table == NULL) {
    fputs("DeluxeInjection: out of memory growing the field table\n", stderr);
    abort();
  }
  table->shift = 64 - bits;
  table->mask = capacity - 1;
  for (uintptr_t i = 0; from != NULL && i <= from->mask; i++) {
    ik_field_entry *entry = &from->entries[i];
    uintptr_t cls = atomic_load_explicit(&entry->cls, memory_order_relaxed);
    if (cls != 0) place(table, cls, entry->token, entry->offset, entry->slot);
  }
  return table;
}

uintptr_t ik_field_insert(uintptr_t cls, uintptr_t token, intptr_t offset, uintptr_t slot, intptr_t *held_offset) {
  pthread_mutex_lock(&insertLock);
  intptr_t existingOffset = 0;
  uintptr_t existing = ik_field_find(cls, token, &existingOffset);
  if (existing == 0) {
    ik_field_table *table = atomic_load_explicit(&ik_field_table_current, memory_order_relaxed);
    if (table == NULL || 2 * (table->count + 1) > table->mask + 1) {
      // Earlier tables are never freed: readers may still be probing them (see the header).
      table = grown(table);
      atomic_store_explicit(&ik_field_table_current, table, memory_order_release);
    }
    place(table, cls, token, offset, slot);
    existing = slot;
    existingOffset = offset;
  }
  pthread_mutex_unlock(&insertLock);
  *held_offset = existingOffset;
  return existing;
}
