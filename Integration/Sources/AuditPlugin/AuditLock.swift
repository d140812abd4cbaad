import Synchronization

/// A minimal lock for the plugin's bookkeeping.
final class AuditLock: Sendable {
  private let mutex = Mutex<Void>(())

  func locked<Result: Sendable>(_ body: () -> Result) -> Result {
    mutex.withLock { _ in body() }
  }
}
