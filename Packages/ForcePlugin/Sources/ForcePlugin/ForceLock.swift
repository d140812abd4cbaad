#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// State guarded by a `pthread_mutex_t`, for the plugin's registries.
///
/// Not `Synchronization.Mutex`: on Linux its contended path hands the lock over inside the kernel
/// (priority-inheritance futex, in the uninstrumented Synchronization library), which the thread
/// sanitizer cannot see, so every contended critical section is reported as an access race (checked on
/// Swift 6.3.1 with four threads updating a `Mutex<[String: Int]>`). The sanitizer intercepts pthread
/// mutexes, so the concurrency tests can prove these registries race-free. The mutex is heap-allocated
/// and never moved after initialization, as POSIX requires.
final class ForceLock<State>: @unchecked Sendable {  // `state` is only touched while `mutex` is held
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var state: State

  init(_ state: State) {
    self.state = state
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` on the state while holding the lock.
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&state)
  }
}
