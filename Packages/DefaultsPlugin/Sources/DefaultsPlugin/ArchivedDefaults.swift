public import InjectionKernel

/// Marks a property whose `Codable` value is stored archived (JSON data) under its key: DeluxeInjection's
/// `<DIDefaultsArchived>` in Swift, for types that are not property-list types.
///
/// ```swift
/// struct WindowFrame: Codable { var x, y, width, height: Double }
/// final class Layout {
///   @ArchivedDefaults var frame: WindowFrame?
///   @ArchivedDefaults("layout.columns", .synchronized) var columns = [Column(title: "Name")]
/// }
/// ```
///
/// It behaves as ``Defaults`` does (keys, initial values, `nil` removes the key, the options) except for
/// the stored form: the value's `Codable` encoding as JSON (`Data`, sorted keys; non-finite numbers as the
/// strings `"NaN"`, `"+Infinity"`, `"-Infinity"`). Stored data that no longer decodes reads as the
/// initial value and is reported (see ``DefaultsProblem``).
@propertyWrapper
public struct ArchivedDefaults<Value: Codable>: MarkedPropertyWrapper {
  /// The plugin owning `@ArchivedDefaults` properties.
  public static var plugin: PluginID { DefaultsPlugin.id }

  /// The per-instance storage: the initial value, which reads return while the key is absent.
  public let storage: MarkedStorage<Value>
  /// What the declaration says: its key and options.
  public let declaration: DefaultsDeclaration

  /// A property whose reads return `wrappedValue` while its key is absent.
  public init(
    wrappedValue: Value, _ key: String? = nil, _ options: DefaultsOptions = [], fileID: StaticString = #fileID,
    line: UInt = #line, column: UInt = #column
  ) {
    storage = MarkedStorage(storing: wrappedValue, fileID: fileID, line: line, column: column)
    declaration = DefaultsDeclaration(
      key: key, options: options, marker: "@ArchivedDefaults", fileID: fileID, line: line)
  }

  /// A property stored under its name with `options`, reading `wrappedValue` while the key is absent.
  public init(
    wrappedValue: Value, _ options: DefaultsOptions, fileID: StaticString = #fileID, line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(wrappedValue: wrappedValue, nil, options, fileID: fileID, line: line, column: column)
  }

  /// An optional property without an initial value: reads return `nil` while the key is absent.
  public init<Wrapped>(
    _ key: String? = nil, _ options: DefaultsOptions = [], fileID: StaticString = #fileID, line: UInt = #line,
    column: UInt = #column
  ) where Value == Wrapped? {
    storage = MarkedStorage(fileID: fileID, line: line, column: column)
    declaration = DefaultsDeclaration(
      key: key, options: options, marker: "@ArchivedDefaults", fileID: fileID, line: line)
  }

  /// An optional property stored under its name with `options`.
  public init<Wrapped>(
    _ options: DefaultsOptions, fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
  ) where Value == Wrapped? {
    self.init(nil, options, fileID: fileID, line: line, column: column)
  }

  /// The key and options, for the plugin (see `MarkedPropertyWrapper/declarationArguments`).
  public var declarationArguments: (any Sendable)? { declaration }

  /// The property of a class instance, read and written through its class-level slot.
  @inlinable
  public static subscript<Owner: AnyObject>(
    _enclosingInstance object: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    get { read(object, storage) }
    set {
      write(newValue, object, storage)
      // A write before `injectDefaults()` (to the plain stored property) is a change observers see too.
      DefaultsObservation.post()
    }
  }

  /// `$property`: the property's values as they change (see ``DefaultsProjection``).
  public static subscript<Owner: AnyObject>(
    _enclosingInstance object: Owner,
    projected projected: KeyPath<Owner, DefaultsProjection<Value>>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> DefaultsProjection<Value> {
    DefaultsProjection(
      property: property(of: object, storage), owner: object, storage: storage,
      same: ArchivedCoding<Value>().same)
  }

  /// Unavailable: `@ArchivedDefaults` works on instance properties of classes only (not in structs or enums, not static).
  @available(
    *, unavailable,
    message: "@ArchivedDefaults works on instance properties of classes only (not in structs or enums, not static)"
  )
  public var wrappedValue: Value {
    get {
      fatalError("@ArchivedDefaults works on instance properties of classes only")
    }
    set {
      fatalError("@ArchivedDefaults works on instance properties of classes only")
    }  // swift-format-ignore
  }

  /// Unavailable: `$property` works on instance properties of classes only (not in structs or enums, not static).
  @available(
    *, unavailable,
    message: "@ArchivedDefaults works on instance properties of classes only (not in structs or enums, not static)"
  )
  public var projectedValue: DefaultsProjection<Value> {
    fatalError("@ArchivedDefaults works on instance properties of classes only")
  }

  /// How to turn the property on.
  public static func injectionHint(for property: PropertyDescriptor) -> String { "Injection.injectDefaults()" }

  /// `true`: a declaration gives an initial value (or is optional), which a read returns until the
  /// property is turned on — a completeness check never lists it as missing.
  public static var propertiesAlwaysHoldAValue: Bool { true }
}
