// ReferenceOwnership.swift
//
// How a stored field holds a class reference, read from the field record's mangled type name
// (docs/ABI/Mangling.rst, "reference storage"): the field type of `weak var x: Foo?` is mangled as
// `<Foo> Sg Xw`, `unowned var x: Foo` as `<Foo> Xo`, `unowned(unsafe) var x: Foo` as `<Foo> Xu`. The
// storage operator is always the last token of the name (a mangled name ends with an operator, so a
// textual `X` followed by `w`, `o` or `u` at the very end can be nothing else); symbolic references are
// skipped whole, so their payload bytes are never mistaken for operators. The type the runtime reports
// for such a field (`_forEachField`) is the referent type, `Foo?` or `Foo`, without the ownership.

/// How a stored field holds its value: a plain (strong) field, or a `weak`, `unowned` or
/// `unowned(unsafe)` reference.
public enum ReferenceOwnership: Sendable, Hashable, CustomStringConvertible {
  /// A plain stored field; class references in it are strong.
  case strong
  /// `weak var`: does not keep its object alive and reads `nil` once the object is gone.
  case weak
  /// `unowned`: does not keep its object alive; reading it after the object is gone traps.
  case unowned
  /// `unowned(unsafe)`: a raw reference; reading it after the object is gone is undefined behaviour.
  case unmanaged

  /// The keyword as written in Swift (`strong` for a plain field).
  public var description: String {
    switch self {
    case .strong: return "strong"
    case .weak: return "weak"
    case .unowned: return "unowned"
    case .unmanaged: return "unowned(unsafe)"
    }
  }
}

extension Injection {
  /// How the stored field behind `property` holds its value, from its field record; `nil` when the
  /// declaring class has no reflection metadata for it.
  ///
  /// ```swift
  /// final class Screen { weak var delegate: Delegate? }
  /// let field = Injection.storedProperties(of: Screen.self)[0]
  /// Injection.referenceOwnership(of: field)  // .weak
  /// ```
  public static func referenceOwnership(of property: PropertyDescriptor) -> ReferenceOwnership? {
    guard MetadataAccess.isSafeSwiftClass(property.declaringClass),
      let context = ContextDescriptor(of: property.declaringClass),
      let records = ClassDescriptor(context)?.fieldDescriptor?.records
    else { return nil }
    // Marked properties are stored as `_name`; unmarked ones under their own name.
    let names = property.plugin == nil ? [property.name] : ["_" + property.name, property.name]
    for name in names {
      for record in records {
        guard let recordName = record.name, String(cString: recordName) == name else { continue }
        return record.mangledTypeName?.referenceOwnership ?? .strong
      }
    }
    return nil
  }
}

extension MangledName {
  /// The reference storage operator ending the name (`Xw`, `Xo`, `Xu`), or `.strong`.
  var referenceOwnership: ReferenceOwnership {
    var index = 0
    var previous: UInt8 = 0  // the last two textual tokens; 0 for a symbolic reference
    var last: UInt8 = 0
    while start[index] != 0 {
      let byte = start[index]
      let isSymbolic = byte <= 0x1F
      previous = last
      last = isSymbolic ? 0 : byte
      index += 1 + (isSymbolic ? (byte <= 0x17 ? 4 : MemoryLayout<UnsafeRawPointer>.size) : 0)
    }
    guard previous == UInt8(ascii: "X") else { return .strong }
    switch last {
    case UInt8(ascii: "w"): return .weak
    case UInt8(ascii: "o"): return .unowned
    case UInt8(ascii: "u"): return .unmanaged
    default: return .strong
    }
  }
}
