// See include/OwnerLifetime.h for the hook's contract and the ABI layout it relies on.
#include "OwnerLifetime.h"

#if !defined(__APPLE__)  // Apple platforms keep associations as Objective-C associated objects

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define IK_SWIFTCALL __attribute__((swiftcall))
#define IK_SWIFT_CONTEXT __attribute__((swift_context))

typedef IK_SWIFTCALL void (*ik_destroy_fn)(IK_SWIFT_CONTEXT void *object);

/// The destroy word's offset from the metadata's address point (HeapMetadataHeaderPrefix).
static const long destroyOffset = -2 * (long)sizeof(void *);

// The originals, in an open-addressing table keyed by metadata address. Entries are only added (a class
// stays hooked for the process's lifetime: metadata is never freed); writers hold `installLock`, readers
// are lock-free: an entry's original is stored before its key (release), read after it (acquire). A
// full table is copied into one twice its size, published with a release store; old tables are never
// freed (their total is below the final table's size), so a reader still probing one stays valid, and
// every entry it can need is in it (see the header on visibility).
typedef struct {
  _Atomic(const void *) key;
  _Atomic(ik_destroy_fn) original;
} ik_hook_entry;

typedef struct {
  long capacity;  // a power of two
  long count;     // guarded by installLock
  ik_hook_entry entries[];
} ik_hook_table;

static pthread_mutex_t installLock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(ik_hook_table *) table = NULL;
static _Atomic(ik_will_destroy_fn) willDestroy = NULL;
static _Atomic(ik_did_destroy_fn) didDestroy = NULL;

static unsigned long slotOf(const void *key, long capacity) {
  unsigned long bits = (unsigned long)key;
  bits ^= bits >> 17;
  bits *= 0x9E3779B97F4A7C15ul;
  return (bits >> 20) & (unsigned long)(capacity - 1);
}

static ik_destroy_fn lookup(ik_hook_table *current, const void *metadata) {
  if (current == NULL) return NULL;
  for (unsigned long i = slotOf(metadata, current->capacity), probes = 0; probes < (unsigned long)current->capacity;
       i = (i + 1) & (unsigned long)(current->capacity - 1), probes++) {
    const void *key = atomic_load_explicit(&current->entries[i].key, memory_order_acquire);
    if (key == metadata) return atomic_load_explicit(&current->entries[i].original, memory_order_relaxed);
    if (key == NULL) return NULL;
  }
  return NULL;
}

static ik_hook_table *makeTable(long capacity) {
  ik_hook_table *made = calloc(1, sizeof(ik_hook_table) + (size_t)capacity * sizeof(ik_hook_entry));
  if (made == NULL) abort();
  made->capacity = capacity;
  return made;
}

static void insert(ik_hook_table *into, const void *metadata, ik_destroy_fn original) {
  unsigned long i = slotOf(metadata, into->capacity);
  while (atomic_load_explicit(&into->entries[i].key, memory_order_relaxed) != NULL) {
    i = (i + 1) & (unsigned long)(into->capacity - 1);
  }
  atomic_store_explicit(&into->entries[i].original, original, memory_order_relaxed);
  atomic_store_explicit(&into->entries[i].key, metadata, memory_order_release);
  into->count += 1;
}

/// Records `original` for `metadata` (installLock held), growing the table at half load.
static void remember(const void *metadata, ik_destroy_fn original) {
  ik_hook_table *current = atomic_load_explicit(&table, memory_order_relaxed);
  if (current == NULL || (current->count + 1) * 2 > current->capacity) {
    ik_hook_table *grown = makeTable(current == NULL ? 64 : current->capacity * 2);
    if (current != NULL) {
      for (long i = 0; i < current->capacity; i++) {
        const void *key = atomic_load_explicit(&current->entries[i].key, memory_order_relaxed);
        if (key != NULL) insert(grown, key, atomic_load_explicit(&current->entries[i].original, memory_order_relaxed));
      }
    }
    atomic_store_explicit(&table, grown, memory_order_release);
    current = grown;
  }
  insert(current, metadata, original);
}

// This thread's dying stack: one node per destroy in progress, in the hook's own frame (no allocation).
typedef struct ik_dying_node {
  const void *object;
  void *record;
  struct ik_dying_node *next;
} ik_dying_node;

static _Thread_local ik_dying_node *dyingTop = NULL;
static _Thread_local int dyingDepth = 0;

void *_Nullable *ik_owner_dying_slot(const void *object) {
  for (ik_dying_node *node = dyingTop; node != NULL; node = node->next) {
    if (node->object == object) return &node->record;
  }
  return NULL;
}

extern _Bool swift_isDeallocating(const void *object);

int ik_owner_is_deallocating(const void *object) { return swift_isDeallocating(object); }

int ik_owner_dying_depth(void) { return dyingDepth; }

// Releasing a record releases its values; a value that is itself a hooked owner is destroyed then, and
// its record is released inside that release, and so on: a chain of owners linked through associated
// values nests one release per link, and a long one would overflow the stack. So releases nest as they
// always did up to `maxNesting` deep (an owner's values are released when it dies, in the order Swift
// releases them); deeper, a record waits in a first-in-first-out list that the release at the top of the
// nesting takes in turn before it returns. Every record is released on the destroying thread, before
// the outermost destroy returns.
typedef struct ik_pending_record {
  void *record;
  struct ik_pending_record *next;
} ik_pending_record;

enum { maxNesting = 64 };
static _Thread_local ik_pending_record *pendingFirst = NULL;
static _Thread_local ik_pending_record *pendingLast = NULL;
static _Thread_local int releaseNesting = 0;

static void releaseRecord(void *record) {
  ik_did_destroy_fn release = atomic_load_explicit(&didDestroy, memory_order_acquire);
  if (releaseNesting >= maxNesting) {
    ik_pending_record *pending = malloc(sizeof(ik_pending_record));
    if (pending != NULL) {
      *pending = (ik_pending_record){record, NULL};
      if (pendingLast != NULL) pendingLast->next = pending; else pendingFirst = pending;
      pendingLast = pending;
      return;
    }
    // Out of memory: nest rather than lose the record.
  }
  releaseNesting += 1;
  release(record);
  releaseNesting -= 1;
  if (releaseNesting > 0) return;
  while (pendingFirst != NULL) {
    ik_pending_record *next = pendingFirst;
    pendingFirst = next->next;
    if (pendingFirst == NULL) pendingLast = NULL;
    void *waiting = next->record;
    free(next);
    releaseNesting += 1;
    release(waiting);
    releaseNesting -= 1;
  }
}

static IK_SWIFTCALL void ik_owner_destroy_hook(IK_SWIFT_CONTEXT void *object) {
  const void *metadata = *(const void *const *)object;
  ik_destroy_fn original = lookup(atomic_load_explicit(&table, memory_order_acquire), metadata);
  if (original == NULL) {
    pthread_mutex_lock(&installLock);
    original = lookup(atomic_load_explicit(&table, memory_order_acquire), metadata);
    pthread_mutex_unlock(&installLock);
  }
  if (original == NULL) {
    fputs("DeluxeInjection: an object's class has the owner-lifetime hook but no original destroy\n", stderr);
    abort();
  }
  // The node stays on the stack while the deinit runs: a record created in the deinit (the object had
  // none) is stored in it and released with the others.
  ik_dying_node node = {object, atomic_load_explicit(&willDestroy, memory_order_acquire)(object), dyingTop};
  dyingTop = &node;
  dyingDepth += 1;
  original(object);
  dyingTop = node.next;
  dyingDepth -= 1;
  if (node.record != NULL) releaseRecord(node.record);
}

void ik_owner_lifetime_set_callbacks(ik_will_destroy_fn will_destroy, ik_did_destroy_fn did_destroy) {
  pthread_mutex_lock(&installLock);
  if (atomic_load_explicit(&willDestroy, memory_order_relaxed) == NULL) {
    atomic_store_explicit(&didDestroy, did_destroy, memory_order_release);
    atomic_store_explicit(&willDestroy, will_destroy, memory_order_release);
  }
  pthread_mutex_unlock(&installLock);
}

int ik_owner_lifetime_is_installed(const void *metadata) {
  return lookup(atomic_load_explicit(&table, memory_order_acquire), metadata) != NULL;
}

long ik_owner_lifetime_hooked_count(void) {
  pthread_mutex_lock(&installLock);
  ik_hook_table *current = atomic_load_explicit(&table, memory_order_relaxed);
  long count = current == NULL ? 0 : current->count;
  pthread_mutex_unlock(&installLock);
  return count;
}

/// The protection (PROT_* bits) of the mapping holding `address`, from /proc/self/maps; -1 if not found.
static int protectionOf(unsigned long address) {
  FILE *maps = fopen("/proc/self/maps", "r");
  if (maps == NULL) return -1;
  char line[512];
  int result = -1;
  while (fgets(line, sizeof line, maps) != NULL) {
    unsigned long start, end;
    char perms[5];
    if (sscanf(line, "%lx-%lx %4s", &start, &end, perms) == 3 && address >= start && address < end) {
      result = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) | (perms[2] == 'x' ? PROT_EXEC : 0);
      break;
    }
  }
  fclose(maps);
  return result;
}

int ik_owner_lifetime_install(const void *metadata) {
  pthread_mutex_lock(&installLock);
  if (lookup(atomic_load_explicit(&table, memory_order_relaxed), metadata) != NULL) {
    pthread_mutex_unlock(&installLock);
    return 0;
  }
  _Atomic(ik_destroy_fn) *word = (_Atomic(ik_destroy_fn) *)((char *)metadata + destroyOffset);
  // Metadata of classes in a shared library or a position-independent executable is in relocated
  // read-only data (RELRO) once the loader finished: make that page writable for one store, then give
  // it its protection back (nobody else writes RELRO pages; installations are serialized by
  // installLock; the word is 8-byte aligned, so it lies within one page).
  unsigned long page = (unsigned long)sysconf(_SC_PAGESIZE);
  unsigned long address = (unsigned long)word;
  unsigned long first = address & ~(page - 1);
  int protection = protectionOf(address);
  if (protection < 0) {
    pthread_mutex_unlock(&installLock);
    return EFAULT;
  }
  int writable = (protection & PROT_WRITE) != 0;
  if (!writable && mprotect((void *)first, page, protection | PROT_READ | PROT_WRITE) != 0) {
    int error = errno;
    pthread_mutex_unlock(&installLock);
    return error;
  }
  ik_destroy_fn original = atomic_load_explicit(word, memory_order_relaxed);
  remember(metadata, original);
  atomic_store_explicit(word, ik_owner_destroy_hook, memory_order_release);
  if (!writable) mprotect((void *)first, page, protection);
  pthread_mutex_unlock(&installLock);
  return 0;
}

#else

void ik_owner_lifetime_set_callbacks(ik_will_destroy_fn will_destroy, ik_did_destroy_fn did_destroy) {}
int ik_owner_lifetime_install(const void *metadata) { return 0; }
int ik_owner_lifetime_is_installed(const void *metadata) { return 0; }
void *_Nullable *ik_owner_dying_slot(const void *object) { return NULL; }
int ik_owner_dying_depth(void) { return 0; }
long ik_owner_lifetime_hooked_count(void) { return 0; }
int ik_owner_is_deallocating(const void *object) { return 0; }

#endif
