import InjectionKernel

/// A minimal lock for the plugin's bookkeeping (the kernel's `LockedState`, which the thread sanitizer
/// understands).
final class AuditLock: Sendable {
  private let state = LockedState<Void>(())

  func locked<Result>(_ body: () -> Result) -> Result {
    state.withLock { _ in body() }
  }
}
