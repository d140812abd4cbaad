/// A type `@Lazy` can build with no arguments.
///
/// Adopt it for your own types; a non-final class implements it with `required init()`:
///
/// ```swift
/// final class ImageCache: LazyConstructible {
///   init() {}
/// }
/// ```
///
/// The standard library's collections, strings, numbers and `Bool` conform, and an optional conforms
/// when its wrapped type does (it is created holding a new wrapped value). Values may be created on any
/// thread that reads the property, so the type itself must be usable from any thread (`SendableMetatype`).
public protocol LazyConstructible: SendableMetatype {
  /// Creates the value a first read returns.
  init()
}

extension Array: LazyConstructible {}
extension ContiguousArray: LazyConstructible {}
extension Dictionary: LazyConstructible {}
extension Set: LazyConstructible {}
extension String: LazyConstructible {}
extension Substring: LazyConstructible {}
extension Int: LazyConstructible {}
extension Int8: LazyConstructible {}
extension Int16: LazyConstructible {}
extension Int32: LazyConstructible {}
extension Int64: LazyConstructible {}
extension UInt: LazyConstructible {}
extension UInt8: LazyConstructible {}
extension UInt16: LazyConstructible {}
extension UInt32: LazyConstructible {}
extension UInt64: LazyConstructible {}
extension Double: LazyConstructible {}
extension Float: LazyConstructible {}
extension Bool: LazyConstructible {}

extension Optional: LazyConstructible where Wrapped: LazyConstructible {
  /// A new wrapped value (not `nil`).
  public init() { self = .some(Wrapped()) }
}

/// Builds values through `LazyConstructible`.
enum LazyConstruction {
  /// A closure calling `Value`'s `LazyConstructible` `init()`, or `nil` if `Value` does not conform. The
  /// conformance is looked up once, here, not on every creation.
  static func constructor<Value>(of type: Value.Type) -> (@Sendable () -> Value)? {
    guard let constructible = type as? any LazyConstructible.Type else { return nil }
    return constructor(opening: constructible, as: type)
  }

  private static func constructor<Constructible: LazyConstructible, Value>(
    opening constructible: Constructible.Type, as type: Value.Type
  ) -> @Sendable () -> Value {
    // `Constructible` is `Value` itself (the existential above was made from `Value.self`).
    precondition(Constructible.self == Value.self)
    return { unsafeBitCast(Constructible(), to: Value.self) }
  }
}
