public import InjectionKernel

/// One stored field of one class, as the decision closure of `ForceInjector/forceInject(in:_:)` and
/// the fill results see it: declaring class, name, value type and how it holds a reference.
///
/// ```swift
/// try Injection.forceInject { property in
///   property.name == "network" && property.valueType == Network.self ? .value(network) : .skip
/// }
/// ```
public struct ForceProperty: Sendable, Hashable, CustomStringConvertible {
  /// The kernel's description of the field.
  public let descriptor: PropertyDescriptor
  /// How the field holds its value (`weak var`, `unowned var`, or a plain field).
  public let ownership: ReferenceOwnership

  /// A field and its ownership.
  public init(descriptor: PropertyDescriptor, ownership: ReferenceOwnership) {
    self.descriptor = descriptor
    self.ownership = ownership
  }

  /// The class that declares the field (a concrete specialization for generic classes).
  public var declaringClass: AnyClass { descriptor.declaringClass }
  /// The declaring class as `Module.Owner`.
  public var className: String { descriptor.className }
  /// The field's name as declared.
  public var name: String { descriptor.name }
  /// The field's value type as declared (`Delegate?` for `weak var delegate: Delegate?`).
  public var valueType: Any.Type { descriptor.valueType }
  /// The value type's name as Swift prints it.
  public var valueTypeName: String { descriptor.valueTypeName }
  /// Whether the field is a `var`; `let` fields are never written.
  public var isMutable: Bool { descriptor.isMutable }
  /// Whether the field carries a plugin's marker (`@Inject`, `@Lazy`, …); those belong to their plugin.
  public var isMarked: Bool { descriptor.plugin != nil }
  /// `Module.Owner.property: Type`.
  public var description: String { descriptor.description }

  /// Whether the field is declared by `cls` or one of its superclasses, so instances of `cls` have it.
  public func isInherited(by cls: AnyClass) -> Bool { descriptor.isInherited(by: cls) }

  /// Whether the field is declared by `cls` or one of its subclasses.
  public func isDeclared(in cls: AnyClass) -> Bool {
    var current: AnyClass? = declaringClass
    while let candidate = current {
      if candidate == cls { return true }
      current = _getSuperclass(candidate)
    }
    return false
  }
}
