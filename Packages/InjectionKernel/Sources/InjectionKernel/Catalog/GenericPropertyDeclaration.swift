/// A marked property declared by a generic class, before (or apart from) any specialization: what its
/// field record says. The catalog describes properties per specialization (`Box<Int>`), once one is
/// used; this describes the declaration, so that a completeness check can look at it beforehand.
public struct GenericPropertyDeclaration: Sendable, CustomStringConvertible {
  /// The generic class as `Module.Name`.
  public let className: String
  /// The property's name as written.
  public let name: String
  /// The plugin owning the marker, when known before a specialization (always when ``valueType`` is).
  public let plugin: PluginID?
  /// The declared value type when it does not depend on the class's generic parameters
  /// (`@Inject var retries: Int` in `Box<T>`); `nil` when it does (`@Inject var element: T`).
  public let valueType: (any Any.Type)?
  let classDescriptor: ContextDescriptor

  /// Whether the value type is known and optional.
  public var isOptional: Bool { valueType.map { MetadataAccess.optionalWrappedType($0) != nil } ?? false }

  /// `Module.Box.retries: Swift.Int`, or `Module.Box.element (its type depends on the generic parameters)`.
  public var description: String {
    guard let valueType else { return "\(className).\(name) (its type depends on the generic parameters)" }
    return "\(className).\(name): \(Injection.typeName(valueType))"
  }

  /// Whether `cls` is a specialization of the declaring generic class.
  public func isDeclared(by cls: AnyClass) -> Bool { ContextDescriptor(of: cls) == classDescriptor }

  /// Whether every specialization of the declaring generic class is a subclass of `cls` (`cls` is one of
  /// its superclasses): known before any specialization when the class's superclass does not depend on
  /// its generic parameters (`final class Page<T>: Screen`), and `false` when it does.
  public func declaringClassInherits(from cls: AnyClass) -> Bool {
    ancestorsOfDeclaringClass()?.contains(ObjectIdentifier(cls)) ?? false
  }

  /// Whether a selection naming `classes` can select this property in some specialization: one of them
  /// is a specialization of the declaring class or a subclass of one, or an ancestor of the declaring
  /// class. An ancestor that depends on the generic parameters cannot be known beforehand and counts.
  func mayBeSelected(byClassesNamed classes: [AnyClass]) -> Bool {
    let ancestors = ancestorsOfDeclaringClass()
    return classes.contains { named in
      var current: AnyClass? = named
      while let cls = current {
        if isDeclared(by: cls) { return true }
        current = MetadataAccess.superclass(of: cls)
      }
      guard let ancestors else { return true }
      return ancestors.contains(ObjectIdentifier(named))
    }
  }

  /// The superclasses of the declaring generic class, or `nil` when its superclass depends on the generic
  /// parameters (then they exist only per specialization). Layout: ClassDescriptor.swift (+20).
  private func ancestorsOfDeclaringClass() -> Set<ObjectIdentifier>? {
    let field = classDescriptor.pointer + 20
    let offset = field.load(as: Int32.self)
    guard offset != 0 else { return [] }  // a root class
    let mangled = MangledName((field + Int(offset)).assumingMemoryBound(to: UInt8.self))
    guard GenericDependence.isIndependent(mangled),
      let type = _getTypeByMangledNameInContext(
        mangled.start, UInt(mangled.byteCount), genericContext: classDescriptor.pointer, genericArguments: nil),
      let superclass = type as? AnyClass
    else { return nil }
    var ancestors: Set<ObjectIdentifier> = []
    var current: AnyClass? = superclass
    while let cls = current {
      ancestors.insert(ObjectIdentifier(cls))
      current = MetadataAccess.superclass(of: cls)
    }
    return ancestors
  }
}

/// Whether a field's mangled type refers to a generic parameter of its context. Conservative: any token
/// it cannot rule out (generic parameters `x`, `q…`, dependent members `Q…`, substitutions `A…`, word
/// identifiers `0…`) counts as dependent, and a dependent type is never instantiated without arguments.
enum GenericDependence {
  static func isIndependent(_ name: MangledName) -> Bool {
    let bytes = name.start
    var index = 0
    while true {
      let byte = bytes[index]
      switch byte {
      case 0: return true
      case 0x01...0x17: index += 5  // relative symbolic reference
      case 0x18...0x1F: index += 1 + MemoryLayout<UnsafeRawPointer>.size  // absolute symbolic reference
      case UInt8(ascii: "1")...UInt8(ascii: "9"):  // identifier: its length, then its characters
        var length = 0
        while bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
          length = length * 10 + Int(bytes[index] - UInt8(ascii: "0"))
          index += 1
        }
        for _ in 0..<length {
          if bytes[index] == 0 { return false }
          index += 1
        }
      case UInt8(ascii: "S"):  // standard substitution: `Si`, `SS`, `Sq`, and `Sc…` / `Ss…` with one more
        let next = bytes[index + 1]
        if next == 0 { return false }
        index += (next == UInt8(ascii: "c") || next == UInt8(ascii: "s")) ? 3 : 2
        if bytes[index - 1] == 0 { return false }
      case UInt8(ascii: "x"), UInt8(ascii: "q"), UInt8(ascii: "Q"), UInt8(ascii: "A"), UInt8(ascii: "0"):
        return false
      default: index += 1
      }
    }
  }
}
