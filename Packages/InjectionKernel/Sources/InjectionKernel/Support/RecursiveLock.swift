#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A recursive mutual-exclusion lock (a `pthread_mutex_t` of the recursive kind): for an operation that
/// must run whole, one thread at a time, while it runs user code that may start the same operation again
/// on its own thread — ForcePlugin's `ServiceBox.configureOnce` holds one while its `configure` runs, and
/// a call from inside that `configure` must not wait for itself. A thread that already holds it enters
/// again; others wait (so the user code must not wait for another thread that takes the same lock).
///
/// ```swift
/// let registration = RecursiveLock()
/// registration.withLock { configureOnce() }
/// ```
public final class RecursiveLock: @unchecked Sendable {  // the mutex itself is the synchronization
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// An unlocked lock.
  public init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` while holding the lock (entered again if this thread holds it already).
  public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
