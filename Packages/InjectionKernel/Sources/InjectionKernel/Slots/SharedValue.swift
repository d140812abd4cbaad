import Synchronization

/// A value created once, by the first read of any instance, and then shared by all of them.
///
/// Concurrent first reads create exactly one value: the creator runs under a lock and the others wait.
public final class SharedValue<Value>: @unchecked Sendable {  // `value` is guarded by `lock`
  private let lock = KernelLock()
  private var value: Value?
  private let create: @Sendable () -> Value

  /// A shared value that `create` builds on first use.
  public init(_ create: @escaping @Sendable () -> Value) {
    self.create = create
  }

  /// The value, created now if this is the first use.
  public func get() -> Value {
    lock.withLock {
      if let value { return value }
      let created = create()
      value = created
      return created
    }
  }

  /// Whether the value has been created.
  public var isCreated: Bool { lock.withLock { value != nil } }

  /// The value if it has been created, without creating it.
  @usableFromInline var createdValue: Value? { lock.withLock { value } }
}
