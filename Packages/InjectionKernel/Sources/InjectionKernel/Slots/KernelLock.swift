#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A non-recursive mutual-exclusion lock whose critical sections may return any value.
///
/// `Synchronization.Mutex` requires `sending` results, which the kernel's critical sections (returning
/// shared, immutable objects) cannot always express; this wraps a heap-allocated `pthread_mutex_t`
/// (never moved after initialization, as POSIX requires).
@usableFromInline
final class KernelLock: @unchecked Sendable {  // the mutex itself is the synchronization
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

  @usableFromInline
  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` while holding the lock.
  @inlinable
  @inline(__always)
  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
