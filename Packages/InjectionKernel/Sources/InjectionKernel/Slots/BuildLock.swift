internal import InjectionReadSections

/// A lock held while a value is built once for everyone (a shared value, a container's singleton), whose
/// waits join the kernel's check for cycles across threads: the same check as marked properties' fills
/// and writes (their field locks), so a cycle through any mix of them — thread 1 builds `A`, which needs
/// `B`; thread 2 fills a property whose factory needs `A` — is refused to the thread that would close it,
/// instead of leaving every thread in it waiting for ever.
///
/// ```swift
/// let buildLock = BuildLock()
/// switch buildLock.lock() {
/// case .taken: defer { buildLock.unlock() }; /* build */
/// case .heldByThisThread: /* the build needs itself: report the cycle */
/// case .wouldDeadlock: /* another thread's build waits for one of this thread's: report the cycle */
/// }
/// ```
public final class BuildLock: Sendable {
  /// What ``lock()`` did.
  public enum Outcome: Sendable {
    /// The calling thread holds the lock now; call ``unlock()`` when the build is over.
    case taken
    /// The calling thread holds it already (its build needs itself); not taken again.
    case heldByThisThread
    /// Waiting would close a cycle of waits across threads; not taken.
    case wouldDeadlock
  }

  /// A lock nobody holds.
  public init() {}

  /// Takes the lock, waiting while another thread holds it — unless this thread holds it already, or
  /// the thread holding it waits, directly or through others, for a lock (or a marked property's field)
  /// this thread holds.
  public func lock() -> Outcome {
    switch ik_field_lock(identity) {
    case 0: .taken
    case 1: .heldByThisThread
    default: .wouldDeadlock
    }
  }

  /// Releases the lock, which the calling thread took with ``lock()``.
  public func unlock() {
    ik_field_unlock(identity)
  }

  /// The lock's identity in the field locks' table: this object's address, which no field shares (a
  /// field's held word lies inside another live object, past its header) while this object lives.
  private var identity: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }
}
