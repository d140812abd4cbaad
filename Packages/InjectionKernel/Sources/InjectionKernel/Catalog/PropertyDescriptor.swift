import Synchronization

/// One marked (or, when asked for, unmarked) stored property of one concrete class.
///
/// A property is described once, on the class that declares it; subclasses inherit it, and see it
/// through their views (``viewed(from:)``), which rules naming a subclass select. For a generic class
/// each specialization that has been used (or named in a selection) has its own descriptor.
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
    /// For a subclass's view of an inherited property: the subclass, how many superclass steps lie
    /// between it and the declaring class, and the declaring class's own record.
    let viewingClass: AnyClass?
    let depth: Int
    let declared: Record?
    /// ``description``, made on its first use: a pass resolves every marked property of the process, and
    /// most of them are never described (building one costs a few string appends).
    ///
    /// The retained address of an immutable ``MadeDescription``, 0 until the first use. It is set once,
    /// by a releasing compare-and-exchange (a racing maker releases its own box and takes the winner's),
    /// and never replaced, so readers need no lock: an acquiring load sees the box fully built, and the
    /// box lives until this record's deinit, when nobody can read the record any more. (Not a `Mutex`:
    /// on Linux its contended handover happens in the kernel, where the thread sanitizer cannot see it.)
    private let madeDescription = Atomic<UInt>(0)

    /// `Module.Owner.property: Type`, or for a view `Module.Sub.property: Type (inherited from …)`.
    var description: String {
      let published = madeDescription.load(ordering: .acquiring)
      if published != 0 { return MadeDescription.text(at: published) }
      let text =
        if let viewingClass {
          "\(Injection.typeName(viewingClass)).\(name): \(valueTypeName) (inherited from \(className))"
        } else {
          "\(className).\(name): \(valueTypeName)"
        }
      let made = UInt(bitPattern: Unmanaged.passRetained(MadeDescription(text)).toOpaque())
      let (stored, winner) = madeDescription.compareExchange(
        expected: 0, desired: made, ordering: .acquiringAndReleasing)
      if stored { return text }
      MadeDescription.release(made)
      return MadeDescription.text(at: winner)
    }

    deinit { MadeDescription.release(madeDescription.load(ordering: .acquiring)) }

    init(
      declaringClass: AnyClass, className: String, name: String, valueType: Any.Type,
      plugin: PluginID?, fieldType: Any.Type, offset: Int, isMutable: Bool
    ) {
      viewingClass = nil
      depth = 0
      declared = nil
      self.declaringClass = declaringClass
      self.className = className
      self.name = name
      self.valueType = valueType
      self.plugin = plugin
      self.fieldType = fieldType
      self.offset = offset
      self.isMutable = isMutable
      valueTypeName = Injection.typeName(valueType)
    }

    /// `declared`'s property as seen from its subclass `viewingClass`, `depth` steps below it.
    init(viewing declared: Record, from viewingClass: AnyClass, depth: Int) {
      declaringClass = declared.declaringClass
      className = declared.className
      name = declared.name
      valueType = declared.valueType
      plugin = declared.plugin
      fieldType = declared.fieldType
      offset = declared.offset
      isMutable = declared.isMutable
      valueTypeName = declared.valueTypeName
      self.viewingClass = viewingClass
      self.depth = depth
      self.declared = declared
    }
  }

  /// A record's description once made (see `Record.madeDescription`).
  private final class MadeDescription: Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    /// The text of the box published at `bits` (nonzero), which its record keeps alive.
    static func text(at bits: UInt) -> String {
      Unmanaged<MadeDescription>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
        .takeUnretainedValue().text
    }

    /// Releases the box at `bits` (nothing for 0).
    static func release(_ bits: UInt) {
      guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return }
      Unmanaged<MadeDescription>.fromOpaque(pointer).release()
    }
  }

  /// Views made so far, so that each (property, subclass) has one record and one description.
  private static let views = LockedState<[ViewKey: PropertyDescriptor]>([:])
  private struct ViewKey: Hashable {
    let declaringClass: ObjectIdentifier
    let offset: Int
    let viewingClass: ObjectIdentifier
  }

  private let record: Record

  private init(record: Record) { self.record = record }

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
  /// `Module.Owner.property: Type` (made on first use, then kept: reports and plans sort by it).
  public var description: String { record.description }

  /// Whether the value type is an optional: reading the property with nothing injected returns `nil`.
  public var isOptional: Bool { MetadataAccess.optionalWrappedType(record.valueType) != nil }

  /// The plugin that owns the property, `nil` when unmarked.
  public var plugin: PluginID? { record.plugin }

  /// Whether the property is an associated property (an `AssociatedProperty` declaration, usually in an
  /// extension) rather than a stored field: it has no initial value of its own, whatever its marker.
  public var isAssociated: Bool { PropertyCatalog.associatedDeclaration(of: self) != nil }

  /// Whether `type` is the declaring class or one of its subclasses.
  public func isInherited(by type: AnyClass) -> Bool { isSubclass(type, of: record.declaringClass) }

  // MARK: Subclass views

  /// The class whose instances this descriptor describes the property for: the declaring class, or for a
  /// subclass's view of an inherited property (see ``viewed(from:)``), that subclass.
  public var viewingClass: AnyClass { record.viewingClass ?? record.declaringClass }

  /// Whether this describes an inherited property as seen from a subclass of its declaring class: a
  /// subclass can have an injection of its own for a property it inherits
  /// (`PropertySelection.declared(in: Sub.self)`).
  public var isSubclassView: Bool { record.viewingClass != nil }

  /// The property as its declaring class describes it (itself unless this is a subclass view).
  public var declared: PropertyDescriptor { record.declared.map(PropertyDescriptor.init(record:)) ?? self }

  /// How many superclass steps lie between ``viewingClass`` and the declaring class (0 for the declaring
  /// class itself).
  var viewDepth: Int { record.depth }

  /// This property as seen from `cls`, a subclass of the declaring class: a descriptor of its own (its
  /// description names `cls`), which rules naming `cls` select and whose injection `cls`'s instances
  /// read. `self` when `cls` is the declaring class; `nil` when `cls` does not inherit the property.
  public func viewed(from cls: AnyClass) -> PropertyDescriptor? {
    let base = declared
    if cls == base.declaringClass { return base }
    var depth = 0
    var current: AnyClass? = cls
    while let candidate = current, candidate != base.declaringClass {
      depth += 1
      current = MetadataAccess.superclass(of: candidate)
    }
    guard current != nil else { return nil }
    let key = ViewKey(
      declaringClass: ObjectIdentifier(base.declaringClass), offset: base.offset, viewingClass: ObjectIdentifier(cls))
    if let known = Self.views.withLock({ $0[key] }) { return known }
    let made = PropertyDescriptor(record: Record(viewing: base.record, from: cls, depth: depth))
    return Self.views.withLock { views in
      if let known = views[key] { return known }
      views[key] = made
      return made
    }
  }

  /// The view of this property from the ancestor of ``viewingClass`` that lies `depth` steps below the
  /// declaring class (the declared property for 0).
  func view(atDepth depth: Int) -> PropertyDescriptor {
    guard depth > 0 else { return declared }
    guard depth < viewDepth else { return self }
    var cls: AnyClass = viewingClass
    for _ in depth..<viewDepth { cls = MetadataAccess.superclass(of: cls) ?? cls }
    return declared.viewed(from: cls) ?? declared
  }

  /// `properties` sorted by description, each description read once.
  static func sortedByDescription(_ properties: [PropertyDescriptor]) -> [PropertyDescriptor] {
    sortedByDescription(properties, of: { $0 })
  }

  /// `items` sorted by the description of each one's property, each description read once.
  static func sortedByDescription<Item>(_ items: [Item], of property: (Item) -> PropertyDescriptor) -> [Item] {
    items.map { (property($0).description, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
  }

  /// Two descriptors are equal when they name the same field of the same class, seen from the same class.
  public static func == (lhs: PropertyDescriptor, rhs: PropertyDescriptor) -> Bool {
    lhs.record === rhs.record
      || (lhs.declaringClass == rhs.declaringClass && lhs.offset == rhs.offset
        && lhs.viewingClass == rhs.viewingClass)
  }

  /// Hashes the declaring class, the field offset and the viewing class.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(record.declaringClass))
    hasher.combine(record.offset)
    if let viewing = record.viewingClass { hasher.combine(ObjectIdentifier(viewing)) }
  }
}
