internal import InjectionReadSections

/// What a marker wrapper stores: its instance's state for the property, inline — two words, no
/// allocation.
///
/// ```swift
/// @propertyWrapper
/// struct Tracked<Value>: MarkedPropertyWrapper {
///   let storage: MarkedStorage<Value>
///   init(fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
///     storage = MarkedStorage(fileID: fileID, line: line, column: column)
///   }
///   …
/// }
/// ```
///
/// The wrapper's initializer takes the declaration's position as default arguments and hands it on:
/// Swift evaluates `#fileID`, `#line` and `#column` at the `@Tracked` attribute, so they tell the
/// properties of a class apart, and reads find the property's slot by (the instance's class, that
/// position) in one table lookup, with nothing per instance to look up or allocate.
///
/// Layout relied on by the kernel (it reads and writes the held word through the instance's address,
/// with atomic operations, and never through a Swift access to the property):
/// - the `MarkedStorage` is the wrapper's first stored property;
/// - `token` is its first word: fixed when the instance is created, never written again;
/// - `held` is its second word: the retained address of the stored value (the value itself for class
///   types, otherwise an immutable box), or nil. It is a strong reference, so the instance's own
///   destruction releases it; the kernel replaces it only under the field's lock, and releases a replaced
///   value once no read can still be using it.
public struct MarkedStorage<Value> {
  /// The declaration's token: its position, mixed into one word.
  @usableFromInline let token: UInt
  /// The stored value's holder (see the layout above); Swift code reads it only for owners that are
  /// not class instances (structs, `static` properties).
  @usableFromInline var held: AnyObject?

  /// Empty storage for the property declared at this position (pass the wrapper initializer's
  /// `#fileID`, `#line` and `#column` default arguments).
  @inlinable
  public init(fileID: StaticString, line: UInt, column: UInt) {
    token = Self.token(fileID: fileID, line: line, column: column)
    held = nil
  }

  /// Storage that already holds `value`, for `@Marker var x = value`. The `nil` of an optional stores
  /// nothing: `@Marker var x: T? = nil` is the same declaration as `@Marker var x: T?`, so injections
  /// reach it.
  @inlinable
  public init(storing value: Value, fileID: StaticString, line: UInt, column: UInt) {
    token = Self.token(fileID: fileID, line: line, column: column)
    held = StoredValueHolder<Value>.holder(ofInitialValue: value)
  }

  /// One word from a declaration's position. Distinct positions of one class's marked properties give
  /// distinct tokens in practice; a class where two collide is reported on its first access.
  @inlinable
  static func token(fileID: StaticString, line: UInt, column: UInt) -> UInt {
    let file = UInt(bitPattern: fileID.utf8Start)
    return file ^ ((line &<< 20 | column & 0xF_FFFF) &* 0x9E37_79B9_7F4A_7C15)
  }

  /// The stored value, ignoring injections (owners without a class instance: structs, statics).
  public var storedValue: Value? { StoredValueHolder<Value>.value(in: held) }

  /// Stores `value` for an owner that is not a class instance (a struct or a `static` property): the
  /// holder is immutable, so copies of a struct never share a change. `nil` of an optional value type
  /// empties the storage.
  public mutating func setStoredValueUniquely(_ value: Value) {
    held = OptionalTypes.isNone(value) ? nil : StoredValueHolder<Value>.holder(of: value)
  }
}

/// Sendable when its value is: the token never changes, and `held` holds the value itself (a `Sendable`
/// class instance), an immutable box of it, or the emptied-fill mark. A struct owner replaces the holder
/// only through ``setStoredValueUniquely(_:)``, a `mutating` call (exclusive access), so copies of a
/// `Sendable` struct owner share nothing mutable; in a class owner the kernel replaces it only with atomic
/// operations under the field's lock, releasing what it replaced once no read can use it.
extension MarkedStorage: @unchecked Sendable where Value: Sendable {}

/// How a stored value is held in a ``MarkedStorage``'s `held` word: a class instance itself, any other
/// value in an immutable ``StoredValue`` box; ``StoredValueHolder/emptiedFill`` marks "filled once, then
/// emptied".
@usableFromInline
enum StoredValueHolder<Value> {
  /// Whether the held word holds a stored value itself rather than a box: when `Value` is a class type
  /// (a single reference-counted pointer), storing or filling one costs no allocation. Known at compile
  /// time in specialized code.
  @inlinable
  static var storesObjectsDirectly: Bool {
    Value.self is AnyObject.Type && MemoryLayout<Value>.size == MemoryLayout<UInt>.size
  }

  /// The holder of `value`: the object itself, or a new box.
  @inlinable
  static func holder(of value: Value) -> AnyObject {
    if storesObjectsDirectly { return unsafeBitCast(value, to: AnyObject.self) }
    return StoredValue(value)
  }

  /// The holder of a declaration's initial value: none for the `nil` of an optional (see
  /// ``MarkedStorage/init(storing:fileID:line:column:)``).
  @inlinable
  static func holder(ofInitialValue value: Value) -> AnyObject? {
    if storesObjectsDirectly { return unsafeBitCast(value, to: AnyObject.self) }  // never an optional
    return isNone(value) ? nil : StoredValue(value)
  }

  /// Whether `value` is the `nil` of an optional `Value` (an optional holding an optional's `nil` is not).
  @usableFromInline
  static func isNone(_ value: Value) -> Bool { OptionalTypes.isNone(value) }

  /// The value `holder` holds (nil: none, or the emptied-fill mark).
  @inlinable
  static func value(in holder: AnyObject?) -> Value? {
    guard let holder, holder !== EmptiedFill.mark else { return nil }
    if storesObjectsDirectly { return unsafeBitCast(holder, to: Value.self) }
    return unsafeDowncast(holder, to: StoredValue<Value>.self).value
  }
}

/// The holder of a property whose value a once-per-instance fill created and a write then emptied: it
/// holds no value, and the fill does not run again.
@usableFromInline
final class EmptiedFill: Sendable {
  /// The one mark (never deallocated: this constant keeps it). Its address is recorded for fast reads
  /// (`ik_emptied_fill_bits`) before anything can publish it.
  @usableFromInline static let mark: EmptiedFill = {
    let mark = EmptiedFill()
    ik_emptied_fill_record(UInt(bitPattern: Unmanaged.passUnretained(mark).toOpaque()))
    return mark
  }()
  /// Its address, as held words hold it.
  @usableFromInline static let bits = UInt(bitPattern: Unmanaged.passUnretained(mark).toOpaque())
}
