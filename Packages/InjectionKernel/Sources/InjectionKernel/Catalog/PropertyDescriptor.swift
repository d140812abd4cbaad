/// One marked (or, when asked for, unmarked) stored property of one concrete class.
///
/// A property is described once, on the class that declares it; subclasses inherit it. For a generic
/// class each specialization that has been used (or named in a selection) has its own descriptor.
public struct PropertyDescriptor: Hashable, Sendable, CustomStringConvertible {
  /// The class that declares the property (a concrete specialization for generic classes).
  public let declaringClass: AnyClass
  /// The declaring class's name as `Module.Outer.Inner` (`Module.Box<Swift.Int>` for specializations).
  public let className: String
  /// The property's name as written, without the wrapper's leading `_`.
  public let name: String
  /// The declared value type (`Settings` for `@Inject var settings: Settings`).
  public let valueType: Any.Type
  /// The marker wrapper's type (`Inject<Settings>`), or `nil` for an unmarked field.
  public let markerType: (any InjectionMarker.Type)?
  /// The stored field's type as laid out in the instance (the wrapper type for marked properties).
  public let fieldType: Any.Type
  /// The byte offset of the stored field inside an instance.
  public let offset: Int
  /// Whether the field is a `var` (from the field record's flags).
  public let isMutable: Bool

  /// The plugin that owns the property, `nil` when unmarked.
  public var plugin: PluginID? { markerType?.plugin }

  /// The value type's name as Swift prints it.
  public var valueTypeName: String { String(reflecting: valueType) }

  /// `Module.Owner.property: Type`.
  public var description: String { "\(className).\(name): \(valueTypeName)" }

  /// Whether `type` is the declaring class or one of its subclasses.
  public func isInherited(by type: AnyClass) -> Bool { isSubclass(type, of: declaringClass) }

  /// Two descriptors are equal when they name the same field of the same class.
  public static func == (lhs: PropertyDescriptor, rhs: PropertyDescriptor) -> Bool {
    lhs.declaringClass == rhs.declaringClass && lhs.offset == rhs.offset
  }

  /// Hashes the declaring class and the field offset.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(declaringClass))
    hasher.combine(offset)
  }
}
