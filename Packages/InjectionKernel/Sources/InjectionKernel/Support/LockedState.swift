#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// State guarded by a `pthread_mutex_t`: the lock the kernel and its plugins use for registries, and the
/// one to use in a plugin of your own.
///
/// Not `Synchronization.Mutex`: on Linux its contended path hands the lock over inside the operating
/// system (a priority-inheritance futex, in the uninstrumented Synchronization library), which the
/// thread sanitizer cannot see, so every contended critical section is reported as a data race (checked
/// on Swift 6.3.1). The sanitizer intercepts pthread mutexes, so concurrency tests can prove code that
/// uses this race-free. The mutex is heap-allocated and never moved after initialization, as POSIX
/// requires; so is the state (a pointer rather than a stored property, so that `withLock` needs no
/// runtime exclusivity check: the mutex already makes its access exclusive).
///
/// ```swift
/// let seen = LockedState<[String]>([])
/// seen.withLock { $0.append("first") }
/// ```
public final class LockedState<State>: @unchecked Sendable {  // `state` is only touched while `mutex` is held
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline let state: UnsafeMutablePointer<State>

  /// State starting as `state`.
  public init(_ state: State) {
    self.state = .allocate(capacity: 1)
    self.state.initialize(to: state)
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    state.deinitialize(count: 1)
    state.deallocate()
  }

  /// Runs `body` on the state while holding the lock (not reentrant: `body` must not lock it again).
  /// Inlinable, so that callers run it specialized for their state.
  @inlinable
  public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&state.pointee)
  }
}

extension LockedState where State: Sendable {
  /// A copy of the state.
  public var value: State { withLock { $0 } }
}
