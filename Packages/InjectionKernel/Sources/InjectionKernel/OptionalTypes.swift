extension Injection {
  /// The wrapped type of an optional type (`Int` for `Int?`, `Int?` for `Int??`), `nil` for any other
  /// type.
  ///
  /// Read from the type's metadata. Prefer it to a cast such as `type as? any SomeProtocol.Type`: the
  /// first such cast of each type scans every conformance record of every loaded image (tens of
  /// microseconds in a Foundation-linked process), a cost that grows with the number of value types a
  /// plugin looks at.
  public static func wrappedType(ofOptional type: Any.Type) -> Any.Type? {
    MetadataAccess.optionalWrappedType(type)
  }

  /// `nil` of `Value` when `Value` is an optional type (the outer `nil` for `Int??`), otherwise `nil`
  /// for "no such value"; without a cast to `ExpressibleByNilLiteral` (see ``wrappedType(ofOptional:)``).
  ///
  /// ```swift
  /// let none = Injection.none(of: Int?.self)  // Optional(nil): Int? has a none
  /// let nothing = Injection.none(of: Int.self)  // nil: Int has none
  /// ```
  public static func none<Value>(of type: Value.Type) -> Value? {
    guard let wrapped = MetadataAccess.optionalWrappedType(Value.self) else { return nil }
    return OptionalTypes.none(wrapping: wrapped, as: Value.self)
  }
}

/// Optional values handled through the type's metadata rather than protocol casts.
@usableFromInline enum OptionalTypes {
  /// The `nil` of `Value`, which is `Optional<Wrapped>`. Cast from an optional, never from `Any`: an
  /// `Any` holding `nil` casts to `Any?` as a present value and to `Int??` as `.some(nil)`, while the
  /// `nil` of an optional type casts to the `nil` of the other.
  static func none<Wrapped, Value>(wrapping _: Wrapped.Type, as _: Value.Type) -> Value? {
    Optional<Wrapped>.none as? Value
  }

  /// Whether `value` is the `nil` of an optional type (an optional holding an optional `nil` is not).
  @usableFromInline static func isNone<T>(_ value: T) -> Bool {
    guard let wrapped = MetadataAccess.optionalWrappedType(T.self) else { return false }
    return isNone(value, wrapping: wrapped)
  }

  private static func isNone<T, Wrapped>(_ value: T, wrapping _: Wrapped.Type) -> Bool {
    // `T` is `Optional<Wrapped>`: the cast succeeds, and its result holds `value` itself.
    if case .some(.none) = (value as Any) as? Optional<Wrapped> { return true }
    return false
  }
}
