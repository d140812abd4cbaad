// Field locks: the per-instance, per-property lock of a marked property's slow paths (writes, fills,
// getters that change the stored value), for state that lives inline in the instance and so has no
// room for a lock of its own.
//
// A lock is identified by the address of the property's held-value word. The process has 64 stripes,
// each a mutex, a condition variable and the list of the locks currently held whose address hashes to
// it (with their holding threads). Taking a lock holds the stripe's mutex only to look at and change
// that list, never while the caller's critical section runs: two locks that share a stripe do not
// exclude each other, and a critical section that takes another field's lock (a factory reading another
// object's property) cannot deadlock on a stripe. The thread sanitizer sees the mutex and the condition
// variable, hence the order between one holder's critical section and the next.
#ifndef INJECTION_FIELD_LOCKS_H
#define INJECTION_FIELD_LOCKS_H

/// Takes the lock of `address`, waiting while another thread holds it. Returns 0; or, without taking it,
/// 1 when the calling thread holds it already (a critical section re-entering its own property: a
/// cycle, which the caller reports), or 2 when waiting for it would close a cycle of waits across
/// threads (the thread holding it waits, directly or through others, for a lock the calling thread
/// holds: a deadlock, which the caller reports instead of joining it).
///
/// Waiting threads publish what they wait for in their own record, and the holders list names each
/// holder's record; a thread about to wait follows that chain (see `closesCycle` in FieldLocks.c for why
/// a cycle it reports is real). The thread whose wait completes a cycle finds it. Cycles through other
/// waits (a lock of the caller's own, a queue's `sync`) are not seen. A critical section must not end its
/// thread (`pthread_exit`): the lock would stay held, and other threads' walks would read the ended
/// thread's record.
int ik_field_lock(const void *address);

/// Releases the lock of `address`, which the calling thread holds.
void ik_field_unlock(const void *address);

#endif
