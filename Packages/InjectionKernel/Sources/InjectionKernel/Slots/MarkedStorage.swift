/// What a marker wrapper stores for its property: two words inside the instance, no object of its own.
///
/// ```swift
/// @propertyWrapper
/// struct Tracked<Value>: MarkedPropertyWrapper {
///   let storage = MarkedStorage<Value>()
///   …
/// }
/// ```
///
/// In a class instance the kernel reads and writes these words in place, atomically (see
/// ``MarkedPropertyWrapper``): the first holds the instance's stored value (a strong reference to an
/// immutable box, `nil` when nothing is stored) and the second the property's slot, found on the
/// instance's first access, with the instance's lock and flags. The instance's own deinitialization
/// releases the stored value, as for any stored property. Creating an instance therefore costs nothing
/// per marked property beyond these 16 bytes (and a box for an initial value).
///
/// Owners without a class instance (structs, `static` properties) use ``storedValue`` instead.
@frozen
public struct MarkedStorage<Value> {
  // Layout relied on by `InstanceStorage` (keep it): `box` at offset 0, `control` at offset 8 (one word
  // each; @frozen fixes the declaration order even under library evolution). In a class instance both
  // are accessed only atomically, in place, after initialization.

  /// The retained ``StoredValue`` box of the stored value, or `nil`: nothing stored.
  @usableFromInline var box: AnyObject?
  /// The address of the property's ``InjectionSlot`` (0 until the instance's first access) with the
  /// instance's lock and flag bits (see `InstanceStorage`).
  @usableFromInline var control: UInt

  /// Empty storage.
  @inlinable
  public init() {
    box = nil
    control = 0
  }

  /// Storage that already holds `value` (for `@Marker var x = value`).
  @inlinable
  public init(storing value: Value) {
    box = StoredValue(value)
    control = 0
  }

  /// The stored value, for owners without a class instance (structs, `static` properties): reading and
  /// writing it is a plain Swift access of the wrapper, with value semantics. Assigning `nil` of an
  /// optional value type empties the storage. Class instances never go through it.
  public var storedValue: Value? {
    get { box.map { unsafeDowncast($0, to: StoredValue<Value>.self).value } }
    set { box = newValue.flatMap { OptionalCheck.isNone($0) ? nil : StoredValue($0) } }
  }
}
