public import InjectionKernel

/// Marks a property whose value is created on its first read: DeluxeInjection's `<DILazy>` in Swift.
///
/// ```swift
/// final class Gallery {
///   @Lazy var items: [String]
///   @Lazy var cache: ImageCache
///   @Lazy var parser: Parser?
/// }
/// try Injection.injectLazy()
/// Gallery().items.isEmpty  // true: created by the first read
/// ```
///
/// Until `Injection/injectLazy()` turns `@Lazy` properties on, a read behaves like a plain stored
/// property. Once on, a read of an instance whose storage is empty creates the value — exactly once,
/// even when many threads read at the same time — and stores it; an optional set to `nil` is created
/// again at the next read. Values come from a per-property factory, else a per-type factory, else the
/// type's ``LazyConstructible`` `init()`.
@propertyWrapper
public struct Lazy<Value>: MarkedPropertyWrapper {
  /// The plugin owning `@Lazy` properties.
  public static var plugin: PluginID { LazyPlugin.id }

  /// The per-instance storage.
  public let storage: MarkedStorage<Value>

  /// An empty property, filled on first read once lazies are injected.
  public init(fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    storage = MarkedStorage(fileID: fileID, line: line, column: column)
  }

  /// The property of a class instance, read and written through its class-level slot.
  @inlinable
  public static subscript<Owner: AnyObject>(
    _enclosingInstance object: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    @inline(__always) get { read(object, storage) }
    set { write(newValue, object, storage) }
  }

  /// Unavailable: `@Lazy` needs a class instance to hold the created value.
  @available(
    *, unavailable, message: "@Lazy works on instance properties of classes only (not in structs or enums, not static)"
  )
  public var wrappedValue: Value {
    get { fatalError("@Lazy works on instance properties of classes only") }
    set { fatalError("@Lazy works on instance properties of classes only") }  // swift-format-ignore
  }

  /// How to turn the property on, for the message of a read that finds nothing: `injectLazy()` when its
  /// type is ``LazyConstructible``, otherwise a factory for its type (`injectLazy()` alone would refuse it).
  public static func injectionHint(for property: PropertyDescriptor) -> String {
    if property.valueType is any LazyConstructible.Type { return "Injection.injectLazy()" }
    let type = Injection.wrappedType(ofOptional: property.valueType) ?? property.valueType
    return "a factory, Injection.injectLazy(\(Injection.metatypeExpression(of: type))) { … } "
      + "(\(Injection.sourceSpelling(of: type)) does not conform to LazyConstructible)"
  }
}

/// The `@Lazy` plugin.
public enum LazyPlugin: InjectionPlugin {
  /// `Lazy`.
  public static let id = PluginID("Lazy")
  /// `Lazy`'s marker.
  public static var markerTypes: [any InjectionMarker.Type] { [Lazy<Never>.self] }
}

/// Opens a property's marker type to build its injection with the property's own value type.
protocol LazyMarker {
  static func makeInjection(for property: PropertyDescriptor, once: Bool, pending: [LazyFactory]) throws
    -> AnyPropertyInjection
}

extension Lazy: LazyMarker {
  static func makeInjection(for property: PropertyDescriptor, once: Bool, pending: [LazyFactory]) throws
    -> AnyPropertyInjection
  {
    let maker = LazyMaker<Value>(property: property)
    guard LazyFactories.shared.canBuild(property, pending: pending) || maker.canConstruct else {
      throw InjectionError.rejected(
        property: property.description,
        reason: "@Lazy cannot build \(property.valueTypeName): it does not conform to LazyConstructible and no "
          + "factory is registered; use Injection.injectLazy(\(Injection.metatypeExpression(of: Value.self))) { … } or adopt LazyConstructible."
      )
    }
    return PropertyInjection<Value>(
      read: .fill({ target in maker.make(for: target) }, once: once),
      summary: once ? "lazy once" : "lazy")
  }
}
