import InjectionKernel

/// A minimal lock for the plugin's bookkeeping (the kernel's `LockedState`, which the thread sanitizer
/// understands). It counts its critical sections: a `LockedState` should guard real state (the kernel
/// guide explains why not `Void`).
final class AuditLock: Sendable {
  private let sections = LockedState<Int>(0)

  func locked<Result>(_ body: () -> Result) -> Result {
    sections.withLock { count in
      count += 1
      return body()
    }
  }
}
