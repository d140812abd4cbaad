public import InjectionKernel

/// Marks a property backed by a settings store: DeluxeInjection's `<DIDefaults>` in Swift.
///
/// ```swift
/// final class Preferences {
///   @Defaults var username: String?                 // key "username"
///   @Defaults("ui.volume") var volume = 0.5         // key "ui.volume"; 0.5 while the key is absent
///   @Defaults(.synchronized) var token: String?     // written through to disk at once
/// }
/// try Injection.injectDefaults()
/// ```
///
/// Once `Injection/injectDefaults(key:store:)` turns `@Defaults` properties on, a read returns the
/// value stored under the property's key — the key the declaration gives, else the rule's key closure's,
/// else the property's name — or the property's initial value (`nil` for an optional without one) while
/// the key is absent; a write stores the new value, and setting `nil` removes the key. Until then, and
/// after `Injection/rejectDefaults()`, the property is a plain stored property.
///
/// Values are stored as themselves, so any other `UserDefaults` user reads them: `Bool`, integers,
/// floating point, `String`, `Data`, `Date`, `URL`, and arrays and string-keyed dictionaries of them
/// (``PropertyListValue``), or optionals of those. Other `Codable` types are declared
/// ``ArchivedDefaults``; `injectDefaults()` refuses a `@Defaults` property of any other type, naming it.
///
/// A non-optional property needs an initial value (the compiler asks for one), so a read never finds
/// nothing to return.
@propertyWrapper
public struct Defaults<Value>: MarkedPropertyWrapper {
  /// The plugin owning `@Defaults` properties.
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
    declaration = DefaultsDeclaration(key: key, options: options, marker: "@Defaults", fileID: fileID, line: line)
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
    declaration = DefaultsDeclaration(key: key, options: options, marker: "@Defaults", fileID: fileID, line: line)
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
      same: PropertyListEquality.same)
  }

  /// Unavailable: `@Defaults` works on instance properties of classes only (not in structs or enums, not static).
  @available(
    *, unavailable,
    message: "@Defaults works on instance properties of classes only (not in structs or enums, not static)"
  )
  public var wrappedValue: Value {
    get { fatalError("@Defaults works on instance properties of classes only") }
    set { fatalError("@Defaults works on instance properties of classes only") }  // swift-format-ignore
  }

  /// Unavailable: `$property` works on instance properties of classes only (not in structs or enums, not static).
  @available(
    *, unavailable,
    message: "@Defaults works on instance properties of classes only (not in structs or enums, not static)"
  )
  public var projectedValue: DefaultsProjection<Value> {
    fatalError("@Defaults works on instance properties of classes only")
  }

  /// How to turn the property on.
  public static func injectionHint(for property: PropertyDescriptor) -> String { "Injection.injectDefaults()" }

  /// `true`: a declaration gives an initial value (or is optional), which a read returns until the
  /// property is turned on — a completeness check never lists it as missing.
  public static var propertiesAlwaysHoldAValue: Bool { true }
}

/// What a `@Defaults` or `@ArchivedDefaults` declaration says about its property (the same for every
/// instance): the marker's declaration arguments.
public struct DefaultsDeclaration: Sendable, Hashable {
  /// The key the declaration names, or `nil` for the rule's key (the property's name by default).
  public let key: String?
  /// The declaration's options.
  public let options: DefaultsOptions

  /// A declaration with `key` and `options`.
  public init(key: String?, options: DefaultsOptions) {
    self.key = key
    self.options = options
  }

  /// A declaration made by a wrapper at `fileID`:`line`; stops the program there for an empty key (no
  /// store keeps a value under `""`: the declaration is a mistake).
  init(key: String?, options: DefaultsOptions, marker: String, fileID: StaticString, line: UInt) {
    if key?.isEmpty == true {
      fatalError(
        "\(marker)(\"\"): a key cannot be empty; name one, or leave it out to use the rule's key (the property's "
          + "name by default)", file: fileID, line: line)
    }
    self.init(key: key, options: options)
  }
}

/// Options of a `@Defaults` or `@ArchivedDefaults` declaration.
public struct DefaultsOptions: OptionSet, Sendable, Hashable {
  /// The options' bits.
  public let rawValue: UInt8

  /// Options from their bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Every write is written through to durable storage at once (`synchronize()`), as DeluxeInjection's
  /// `DIDefaultsSync` did. Without it a write reaches disk at the latest when the process exits normally.
  public static let synchronized = DefaultsOptions(rawValue: 1)
}

/// The `@Defaults` plugin: `@Defaults` and `@ArchivedDefaults` properties read and write a settings store.
public enum DefaultsPlugin: InjectionPlugin {
  /// `Defaults`.
  public static let id = PluginID("Defaults")
  /// `Defaults` and `ArchivedDefaults`.
  public static var markerTypes: [any InjectionMarker.Type] { [Defaults<Never>.self, ArchivedDefaults<Never>.self] }

  /// The store every `@Defaults` property uses whatever its rule chose, when set (see
  /// ``InjectionRules/useDefaultsStore(_:)``). Scoped, so an override scope's store stays in its task.
  static let storeOverride = ScopedState<(any DefaultsStore)?>(nil)
  /// Who hears about bad stored data (see ``InjectionRules/onDefaultsProblem(_:)``).
  static let problemHandler = ScopedState<(@Sendable (DefaultsProblem) -> Void)?>(nil)
  /// The problem reported last for each property, and the store it was found in, so that one is reported
  /// once until it changes or goes away. Scoped like the store and the handler: an override scope reports
  /// its own store's problems to its own handler (a problem met in another store — the process's, say —
  /// is new to it), and its reports list them.
  static let lastProblems = ScopedState<[PropertyDescriptor: (problem: DefaultsProblem, store: ObjectIdentifier)]>(
    [:])
}
