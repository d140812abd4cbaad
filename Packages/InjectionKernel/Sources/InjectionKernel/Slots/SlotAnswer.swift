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
  /// The injection this answer was built from (`nil`: none), so that slow-path reads and writes find it
  /// without the slot's lock while the answer is published.
  @usableFromInline let injection: PropertyInjection<Value>?

  /// The answer for `injection` (`nil`: the property's own behaviour) of a slot whose optional value
  /// type reads `none` when empty.
  @inlinable
  init(injection: PropertyInjection<Value>?, none: Value?) {
    self.injection = injection
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

/// One instance's stored object, held weakly (the weak reference policy of associated storage): reads
/// find `nil` once the object is gone. Immutable but for the weak reference itself, which the runtime
/// reads and clears atomically.
@usableFromInline
final class WeakStoredValue: @unchecked Sendable {
  @usableFromInline weak var object: AnyObject?

  init(_ object: AnyObject) { self.object = object }

  /// A retained box holding `value` (a class instance, or an optional one, as the weak policy's
  /// declarations guarantee) weakly.
  @usableFromInline
  static func retainedBox<Value>(_ value: Value) -> UInt {
    UInt(bitPattern: Unmanaged.passRetained(WeakStoredValue(value as AnyObject)).toOpaque())
  }

  /// The object in the box at `bits` as a `Value`, `nil` once it is gone.
  @usableFromInline
  static func value<Value>(at bits: UInt, as type: Value.Type) -> Value? {
    let box = Unmanaged<WeakStoredValue>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
    guard let object = box.object else { return nil }
    return (object as! Value)
  }
}
