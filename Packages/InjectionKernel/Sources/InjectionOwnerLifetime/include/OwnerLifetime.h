// Owner lifetime: a deallocation hook for Swift classes on platforms without Objective-C associated
// objects (Linux), so that values associated with an object are released when it dies.
//
// Layout relied on (Swift ABI, swift/ABI/Metadata.h, TargetHeapMetadataHeaderPrefix and
// TargetTypeMetadataHeader; stable since Swift 5):
//   class metadata address point - 16: HeapObjectDestroyer *destroy
//   class metadata address point -  8: const ValueWitnessTable *
//   class metadata address point +  0: kind / isa word (0 for a pure Swift class without ObjC interop)
//   HeapObject +0: const HeapMetadata *metadata (the object's dynamic class)
// where `using HeapObjectDestroyer = SWIFT_CC(swift) void(SWIFT_CONTEXT HeapObject *)`: the runtime
// releases the last strong reference by calling `metadata->destroy(object)` with the object in the
// Swift context register. `destroy` is the class's deallocating deinit: the user's `deinit` bodies (of
// the class and its superclasses), the stored properties' destruction, then the memory's release. Only
// the most-derived class's entry is called, so a hook is installed per dynamic class.
//
// The hook replaces that word with ik_owner_destroy_hook, remembering the original per metadata. On
// each destroy of an object of a hooked class it calls, on the destroying thread:
//   will_destroy(object) -> record   (the kernel detaches the object's associations from its tables;
//                                     NULL when it has none)
//   push (object, record) on this thread's dying stack (a deinit may create the record there)
//   original destroy(object)         (the deinit runs; ik_owner_dying_slot finds the record)
//   pop; did_destroy(record)         (if any: the kernel releases the values, outside every lock)
// So no other thread can see the associations once the object's memory may be reused (they are
// detached before it is freed), and the object's own deinit still reads and writes them.
//
// Installation order and visibility: under one mutex, the original is recorded in the table (and the
// table published with a release store) before the destroy word is replaced with a release store. A
// thread that destroys an object carrying associations synchronizes with the thread that attached
// them through the object's reference count (a final release acquires everything before the other
// threads' releases), and the attaching thread installed the hook before attaching. A destroy that
// sees the new word without such an edge looks the original up again under the mutex if its lock-free
// lookup misses.
#ifndef INJECTION_OWNER_LIFETIME_H
#define INJECTION_OWNER_LIFETIME_H

#include <stdint.h>

/// Called before an object of a hooked class runs its deinit; returns an opaque retained record (or
/// NULL when the object has no associations).
typedef void *_Nullable (*ik_will_destroy_fn)(void *_Nonnull object);
/// Called after the original destroy returned (the object's memory is freed) with the record the
/// dying stack held (never NULL).
typedef void (*ik_did_destroy_fn)(void *_Nonnull record);

/// Sets the callbacks (once, before the first installation; later calls are ignored).
void ik_owner_lifetime_set_callbacks(ik_will_destroy_fn _Nonnull will_destroy, ik_did_destroy_fn _Nonnull did_destroy);

/// Installs the hook in the class metadata at `metadata` (its address point). Returns 0 when installed
/// now or before, otherwise an errno value: the metadata's page could not be made writable.
int ik_owner_lifetime_install(const void *_Nonnull metadata);

/// Whether the hook is installed in `metadata` (a lock-free lookup).
int ik_owner_lifetime_is_installed(const void *_Nonnull metadata);

/// Where this thread's running destroy of `object` keeps its record (NULL inside: none yet), or NULL
/// when this thread is not destroying `object`. Only this thread touches the slot.
void *_Nullable *_Nullable ik_owner_dying_slot(const void *_Nonnull object);

/// Whether `object`'s deinit has begun (the runtime's swift_isDeallocating).
int ik_owner_is_deallocating(const void *_Nonnull object);

/// Whether this thread is running the destroy of any hooked object.
int ik_owner_dying_depth(void);

/// How many classes are hooked.
long ik_owner_lifetime_hooked_count(void);

#endif
