public import InjectionKernel

/// A typed error from the force plugin; each case names the type or the property
/// (`Module.Owner.property: Type`) involved. A fill that throws has written nothing.
public enum ForceError: Error, Equatable, CustomStringConvertible {
  /// Only class instances can be filled; `type` is a struct, an enum, a tuple, a function or a metatype.
  case notAClass(type: String)
  /// A decided value does not fit the property.
  case typeMismatch(property: String, expected: String, given: String)
  /// The property's reference storage cannot receive the decided value, with the reason.
  case unsupportedOwnership(property: String, ownership: ReferenceOwnership, reason: String)
  /// The property's type is one fills cannot write (a function type, a concrete metatype, or a tuple of
  /// them), with the reason.
  case unsupportedType(property: String, reason: String)

  /// A sentence for logs and test failures.
  public var description: String {
    switch self {
    case .notAClass(let type):
      return "Cannot fill a \(type): only class instances have stored properties to fill; "
        + "a struct or an enum is a value (set its properties directly)."
    case .typeMismatch(let property, let expected, let given):
      return "Cannot force-inject \(given) into \(property): the property holds \(expected)."
    case .unsupportedOwnership(let property, let ownership, let reason):
      return "Cannot force-inject into \(property) (\(ownership)): \(reason)"
    case .unsupportedType(let property, let reason):
      return "Cannot force-inject into \(property): \(reason)"
    }
  }
}
