extension Injection {
  /// A type's qualified name (`Swift.Array<Swift.String>`), for reports and messages.
  ///
  /// Prefer this to `Injection.typeName(SomeType.self)`: that one asks the runtime whether the metatype
  /// conforms to the printing protocols, and each miss scans every conformance record of every loaded
  /// image (tens of microseconds in a Foundation-linked process).
  public static func typeName(_ type: Any.Type) -> String {
    _typeName(type, qualified: true)
  }
}
