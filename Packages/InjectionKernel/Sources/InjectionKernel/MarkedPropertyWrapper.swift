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
/// Reads take an inlined fast path (a few atomic loads inside a read section, no lock, no allocation)
/// once an instance has read the property; see ``MarkedPropertyStorage``.
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
    // Project only the unretained field: no retain/release of the storage (the instance keeps it alive).
    let storage = object[keyPath: storageKeyPath].storage.unretained
    if let served = storage._withUnsafeGuaranteedRef({ $0.servedAnswer(of: object) }) { return served }
    return storage._withUnsafeGuaranteedRef { $0.answer(for: object) }
  }

  /// The write of the wrapped property of a class instance; call it from the subscript's setter.
  @inlinable
  public static func write<Owner: AnyObject>(
    _ newValue: Value, _ object: Owner, _ storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
  ) {
    object[keyPath: storageKeyPath].storage.object.write(newValue, of: object)
  }
}
