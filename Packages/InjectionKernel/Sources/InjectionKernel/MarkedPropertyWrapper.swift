/// The building block for marker property wrappers: adopt it, store a ``MarkedStorage``, and
/// forward the enclosing-instance subscript to ``read(_:_:)`` and ``write(_:_:_:)``.
///
/// ```swift
/// @propertyWrapper
/// public struct Tracked<Value>: MarkedPropertyWrapper {
///   public static var plugin: PluginID { PluginID("Tracked") }
///   public let storage = MarkedStorage<Value>()
///   public init() {}
///   @inlinable public static subscript<Owner: AnyObject>(
///     _enclosingInstance object: Owner,
///     wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
///     storage storage: ReferenceWritableKeyPath<Owner, Self>
///   ) -> Value {
///     get { read(object, storage) }
///     set { write(newValue, object, storage) }
///   }
///   @available(*, unavailable, message: "@Tracked works in classes only")
///   public var wrappedValue: Value { get { fatalError() } set { fatalError() } }
/// }
/// ```
///
/// Reads take an inlined fast path (an atomic load and a generation check, no lock, no retain of the
/// answer) once an instance has read the property; see ``MarkedPropertyStorage``.
public protocol MarkedPropertyWrapper: InjectionMarker {
  /// The per-instance storage; created with the wrapper, never replaced for class owners. It must be the
  /// wrapper's first stored property: an instance's first access finds its property by looking for the
  /// storage object's address at each candidate field's offset.
  var storage: MarkedStorage<Value> { get }
}

extension MarkedPropertyWrapper {
  /// The read of the wrapped property of a class instance; call it from the wrapper's
  /// `static subscript(_enclosingInstance:wrapped:storage:)` getter (Swift looks that subscript up on the
  /// wrapper type itself, so each wrapper declares it and forwards here).
  @inlinable
  @inline(__always)
  public static func read<Owner: AnyObject>(
    _ object: Owner, _ storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    // Project only the unretained field: no retain/release of the storage. The answer comes from one
    // immutable object whichever path found it, so the optimizer can hand it out without a retain.
    let storage = object[keyPath: storageKeyPath].storage.unretained
    var access = storage._withUnsafeGuaranteedRef { $0.currentAnswer() }
    if access == nil { access = storage._withUnsafeGuaranteedRef { $0.answer(for: object) } }
    return access.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.answer }
  }

  /// The write of the wrapped property of a class instance; call it from the subscript's setter.
  @inlinable
  public static func write<Owner: AnyObject>(
    _ newValue: Value, _ object: Owner, _ storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
  ) {
    object[keyPath: storageKeyPath].storage.object.write(newValue, of: object)
  }
}
