/// What a slot serves to reads at its current injection, for one value type (immutable).
///
/// ``InjectionSlot`` publishes one of these (retained) in its `answer` word; every instance of the class
/// reads it, so a value or shared injection costs nothing per instance. A commit unpublishes it and
/// retires it through ``ReadSection``; the next slow-path read builds the new one.
@usableFromInline
final class SlotAnswer<Value>: @unchecked Sendable {  // immutable after init
  /// Whether fast reads may serve this answer (a getter runs on every read: `false`).
  @usableFromInline let isServedByReads: Bool
  /// What an instance with nothing stored reads; `nil` when such a read must take the slow path
  /// (nothing injected into a non-optional, a fill, a shared value not created yet).
  @usableFromInline let fallback: Value?

  @inlinable
  init(isServedByReads: Bool, fallback: Value?) {
    self.isServedByReads = isServedByReads
    self.fallback = fallback
  }

  /// The answer for `injection` (`nil`: the property's own behaviour) of a slot whose optional value
  /// type reads `none` when empty.
  @inlinable
  init(injection: PropertyInjection<Value>?, none: Value?) {
    switch injection?.read ?? .original {
    case .value(let value): (isServedByReads, fallback) = (true, value)
    case .shared(let shared): (isServedByReads, fallback) = (true, shared.createdValue)
    case .getter: (isServedByReads, fallback) = (false, nil)
    case .fill: (isServedByReads, fallback) = (true, nil)
    case .original: (isServedByReads, fallback) = (true, none)
    }
  }
}

/// One instance's stored value (DeluxeInjection's ivar), immutable: a write publishes a new box.
@usableFromInline
final class StoredValue<Value>: @unchecked Sendable {  // immutable after init
  @usableFromInline let value: Value

  @inlinable
  init(_ value: Value) { self.value = value }
}
