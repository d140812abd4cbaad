/// One marked (or, when asked for, unmarked) stored property of one concrete class.
///
/// A property is described once, on the class that declares it; subclasses inherit it. For a generic
/// class each specialization that has been used (or named in a selection) has its own descriptor.
/// Descriptors are cheap to copy (one shared, immutable record) and compare by class and offset.
public struct PropertyDescriptor: Hashable, Sendable, CustomStringConvertible {
  /// The immutable record behind a descriptor.
  private final class Record: Sendable {
    let declaringClass: AnyClass
    let className: String
    let name: String
    let valueType: Any.Type
    let plugin: PluginID?
    let fieldType: Any.Type
    let offset: Int
    let isMutable: Bool
    let valueTypeName: String
    let description: String

    init(
      declaringClass: AnyClass, className: String, name: String, valueType: Any.Type,
      plugin: PluginID?, fieldType: Any.Type, offset: Int, isMutable: Bool
    ) {
      self.declaringClass = declaringClass
      self.className = className
      self.name = name
      self.valueType = valueType
      self.plugin = plugin
      self.fieldType = fieldType
      self.offset = offset
      self.isMutable = isMutable
      valueTypeName = Injection.typeName(valueType)
      description = "\(className).\(name): \(valueTypeName)"
    }
  }

  private let record: Record

  /// Describes the field at `offset` of `declaringClass`.
  public init(
    declaringClass: AnyClass, className: String, name: String, valueType: Any.Type,
    markerType: (any InjectionMarker.Type)?, fieldType: Any.Type, offset: Int, isMutable: Bool
  ) {
    self.init(
      declaringClass: declaringClass, className: className, name: name, valueType: valueType,
      plugin: markerType?.plugin, fieldType: fieldType, offset: offset, isMutable: isMutable)
  }

  /// The catalog's form: the plugin is known from the marker type's descriptor, so resolving a
  /// property needs no dynamic cast (a cast of each new marker specialization costs a scan of every
  /// conformance record of every image).
  init(
    declaringClass: AnyClass, className: String, name: String, valueType: Any.Type, plugin: PluginID?,
    fieldType: Any.Type, offset: Int, isMutable: Bool
  ) {
    record = Record(
      declaringClass: declaringClass, className: className, name: name, valueType: valueType,
      plugin: plugin, fieldType: fieldType, offset: offset, isMutable: isMutable)
  }

  /// The class that declares the property (a concrete specialization for generic classes).
  public var declaringClass: AnyClass { record.declaringClass }
  /// The declaring class's name as `Module.Outer.Inner` (`Module.Box<Swift.Int>` for specializations).
  public var className: String { record.className }
  /// The property's name as written, without the wrapper's leading `_`.
  public var name: String { record.name }
  /// The declared value type (`Settings` for `@Inject var settings: Settings`).
  public var valueType: Any.Type { record.valueType }
  /// The marker wrapper's type (`Inject<Settings>`), or `nil` for an unmarked field. Plugins open it to
  /// build injections with the property's own value type (a dynamic cast, computed on each access).
  public var markerType: (any InjectionMarker.Type)? {
    record.plugin == nil ? nil : record.fieldType as? any InjectionMarker.Type
  }
  /// The stored field's type as laid out in the instance (the wrapper type for marked properties).
  public var fieldType: Any.Type { record.fieldType }
  /// The byte offset of the stored field inside an instance.
  public var offset: Int { record.offset }
  /// Whether the field is a `var` (from the field record's flags).
  public var isMutable: Bool { record.isMutable }
  /// The value type's name as Swift prints it.
  public var valueTypeName: String { record.valueTypeName }
  /// `Module.Owner.property: Type` (computed once: reports and plans sort by it).
  public var description: String { record.description }

  /// Whether the value type is an optional: reading the property with nothing injected returns `nil`.
  public var isOptional: Bool { MetadataAccess.optionalWrappedType(record.valueType) != nil }

  /// The plugin that owns the property, `nil` when unmarked.
  public var plugin: PluginID? { record.plugin }

  /// Whether `type` is the declaring class or one of its subclasses.
  public func isInherited(by type: AnyClass) -> Bool { isSubclass(type, of: record.declaringClass) }

  /// Two descriptors are equal when they name the same field of the same class.
  public static func == (lhs: PropertyDescriptor, rhs: PropertyDescriptor) -> Bool {
    lhs.record === rhs.record || (lhs.declaringClass == rhs.declaringClass && lhs.offset == rhs.offset)
  }

  /// Hashes the declaring class and the field offset.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(record.declaringClass))
    hasher.combine(record.offset)
  }
}
