#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keeps the answer of an uncached read (a getter injection runs on every read) alive on the reading
/// thread until that thread's next slow-path read or write of a marked property, or until it exits.
///
/// Reads hand out their answer from a ``ResolvedAccess`` without retaining it when nothing between the
/// read and the last use of its value could release anything. Any later kernel call on the same
/// thread is such a release point for the compiler (it cannot see through it), so a value still in use
/// across it has been retained by then; other threads never touch this thread's answer. The cost: an
/// object that only a getter's answer still owns (say, a weakly injected object whose owner let go) is
/// deallocated at that thread's next slow path instead of at once. One thread-specific key serves the
/// whole process.
enum TransientAnswers {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, releaseHeldAnswer)
    precondition(status == 0, "InjectionKernel: pthread_key_create failed (\(status))")
    return key
  }()

  /// Makes `answer` the object this thread keeps alive, releasing the one it kept before.
  static func hold(_ answer: AnyObject) {
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passRetained(answer).toOpaque())
    if let previous { Unmanaged<AnyObject>.fromOpaque(previous).release() }
  }

  /// Releases what this thread keeps alive, if anything; call it at the start of every slow path so
  /// that a released object is gone before a getter looks at it again.
  static func drop() {
    guard let previous = pthread_getspecific(key) else { return }
    pthread_setspecific(key, nil)
    Unmanaged<AnyObject>.fromOpaque(previous).release()
  }
}

#if canImport(Darwin)
  private func releaseHeldAnswer(_ pointer: UnsafeMutableRawPointer) {
    Unmanaged<AnyObject>.fromOpaque(pointer).release()
  }
#else
  private func releaseHeldAnswer(_ pointer: UnsafeMutableRawPointer?) {
    if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
  }
#endif
