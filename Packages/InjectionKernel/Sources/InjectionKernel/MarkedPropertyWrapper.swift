/// The building block for marker property wrappers: adopt it, store a ``MarkedStorage`` as the wrapper's
/// first stored property, and forward the enclosing-instance subscript to ``read(_:_:)`` and
/// ``write(_:_:_:)``.
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
/// Reads take an inlined fast path (a few atomic loads inside a read section, no lock, no allocation):
/// the kernel reaches the property's ``MarkedStorage`` in place, at the wrapper's offset in the instance,
/// which it reads from the storage key path.
public protocol MarkedPropertyWrapper: InjectionMarker {
  /// The per-instance storage. It must be the wrapper's first stored property (the kernel reads and
  /// writes it in place at the wrapper's offset in the instance); never assign it in a class owner.
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
    let storage = InstanceStorage<Value>(object, offset: StorageOffset.of(storageKeyPath))
    if let served = storage.servedAnswer(of: object) { return served }
    return storage.answer(for: object)
  }

  /// The write of the wrapped property of a class instance; call it from the subscript's setter.
  @inlinable
  public static func write<Owner: AnyObject>(
    _ newValue: Value, _ object: Owner, _ storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
  ) {
    InstanceStorage<Value>(object, offset: StorageOffset.of(storageKeyPath)).write(newValue, of: object)
  }
}
