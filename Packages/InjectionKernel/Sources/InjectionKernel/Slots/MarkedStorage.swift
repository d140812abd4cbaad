/// What a marker wrapper stores: its instance's ``MarkedPropertyStorage``, held twice — once strongly
/// (it owns it) and once unretained, so that the inlined fast read reaches it without a retain/release
/// pair (the instance being read keeps it alive for the duration of the read).
///
/// ```swift
/// @propertyWrapper
/// struct Tracked<Value>: MarkedPropertyWrapper {
///   let storage = MarkedStorage<Value>()
///   …
/// }
/// ```
public struct MarkedStorage<Value> {
  /// The per-instance storage object.
  public private(set) var object: MarkedPropertyStorage<Value>
  /// The same object, unretained, for the fast path. `MarkedPropertyWrapper.read` projects this field
  /// alone out of the instance, which lets the optimizer skip retaining the storage object.
  @usableFromInline let unretained: Unmanaged<MarkedPropertyStorage<Value>>

  /// Empty storage.
  @inlinable
  public init() { self.init(MarkedPropertyStorage()) }

  /// Storage that already holds `value`.
  @inlinable
  public init(storing value: Value) { self.init(MarkedPropertyStorage(storing: value)) }

  // Inlinable so that the wrapper's owner allocates its storage with specialized metadata.
  @usableFromInline
  init(_ object: MarkedPropertyStorage<Value>) {
    self.object = object
    unretained = Unmanaged.passUnretained(object)
  }

  /// The stored value, ignoring injections (owners without a class instance: structs, statics).
  public var storedValue: Value? { object.storedValue }

  /// Gives this copy its own storage object if another copy shares it — copy-on-write for wrappers
  /// whose owner is a struct — then stores `value` in it.
  public mutating func setStoredValueUniquely(_ value: Value) {
    if !isKnownUniquelyReferenced(&object) { self = MarkedStorage() }
    object.setStoredValue(value)
  }
}
