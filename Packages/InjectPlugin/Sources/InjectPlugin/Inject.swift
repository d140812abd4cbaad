public import InjectionKernel

/// Marks a property for injection: DeluxeInjection's `<DIInject>` in Swift.
///
/// ```swift
/// final class ViewModel {
///   @Inject var settings: Settings
///   @Inject var analytics: any Analytics
///   @Inject var logger: Logger?
/// }
/// try Injection.inject(Settings.self).value(Settings(theme: "dark"))
/// ViewModel().settings.theme  // "dark", for every instance, existing and future
/// ```
///
/// In classes every instance reads through its class's injection. In structs and for `static`
/// properties there is no instance to select, so only injections selected by type alone reach them
/// (`Injection.inject(Settings.self).value(…)`), through ``wrappedValue`` — and of those, not the ones
/// that need an instance (getters, setters, `ifNil` factories): see ``wrappedValue``.
@propertyWrapper
public struct Inject<Value>: MarkedPropertyWrapper {
  /// The plugin owning `@Inject` properties.
  public static var plugin: PluginID { InjectPlugin.id }

  /// The per-instance storage (copied on write when the owner is a struct).
  public private(set) var storage: MarkedStorage<Value>

  /// An empty property: reads return the injection, or stop with a message if there is none.
  public init(fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    storage = MarkedStorage(fileID: fileID, line: line, column: column)
  }

  /// A property that stores `wrappedValue` until something else is stored; an injection of the value
  /// kind does not override a stored value, a getter does.
  public init(wrappedValue: Value, fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    storage = MarkedStorage(storing: wrappedValue, fileID: fileID, line: line, column: column)
  }

  /// The property of a class instance: read and written through its class-level slot.
  @inlinable
  public static subscript<Owner: AnyObject>(
    _enclosingInstance object: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    @inline(__always) get { read(object, storage) }
    set { write(newValue, object, storage) }
  }

  /// The value, for struct owners and `static` properties: the stored value, else what the injection
  /// selected by type alone gives — a value, the shared value, a `weak` injection's object while it lives,
  /// a new value from a provider on every read (the getter cannot store it: a struct keeps nothing) —
  /// else `nil` for an optional. A non-optional with none of these stops with a message, which names a
  /// getter, setter or `ifNil` factory selected by type alone when that is the injection: those need an
  /// instance, and reach class properties only.
  public var wrappedValue: Value {
    get {
      if let stored = storage.storedValue { return stored }
      if let injected = TypeKeyedInjections.shared.value(of: Value.self) { return injected }
      if let none = Injection.none(of: Value.self) { return none }
      Self.stopForNothingToRead()
    }
    set {
      storage.setStoredValueUniquely(newValue)
    }
  }

  /// Stops a struct's or `static` property's read that found nothing: nothing injected by type alone, or
  /// an injection that reaches class properties only.
  private static func stopForNothingToRead() -> Never {
    let type = Injection.typeName(Value.self)
    let expression = Injection.metatypeExpression(of: Value.self)
    let read = "@Inject \(type) outside a class instance (in a struct, a static or a local variable) was read"
    if let verb = TypeKeyedInjections.shared.classesOnlyVerb(of: Value.self) {
      Injection.stop(
        "\(read) with nothing stored: its injection is \(verb) selected by type alone, which reaches only class "
          + "properties (it needs an instance). Store a value in the property, or select the classes' properties "
          + "(Injection.inject(\(expression)).declared(in: …)) for it and inject a value for structs and statics "
          + "with Injection.inject(\(expression)).value(…).")
    }
    Injection.stop(
      "\(read) with nothing injected or stored: inject it with Injection.inject(\(expression)).value(…).")
  }

  /// How to inject `property`, for the message of a read that finds nothing: a rule by its type alone
  /// (`Injection.inject(Logger.self).value(…)`), or — for a type of the standard library or Foundation,
  /// which unrelated properties share — one naming its class and name
  /// (`Injection.inject(Int.self).declared(in: Downloader.self).named("retries").value(…)`), since a rule
  /// for `Int` alone would reach every `Int` property.
  public static func injectionHint(for property: PropertyDescriptor) -> String {
    let type = Injection.metatypeExpression(of: property.valueType)
    let unwrapped = Injection.wrappedType(ofOptional: property.valueType) ?? property.valueType
    let module = Injection.typeName(unwrapped).prefix { $0 != "." }
    guard module == "Swift" || module == "Foundation" else { return "Injection.inject(\(type)).value(…)" }
    return "Injection.inject(\(type)).declared(in: \(Injection.metatypeExpression(of: property.declaringClass)))"
      + ".named(\"\(property.name)\").value(…)"
  }
}

/// The `@Inject` plugin: value, shared, getter and setter injection into `@Inject` properties.
public enum InjectPlugin: InjectionPlugin {
  /// `Inject`.
  public static let id = PluginID("Inject")
  /// `Inject`'s marker.
  public static var markerTypes: [any InjectionMarker.Type] { [Inject<Never>.self] }
}

/// A struct owner with `@Inject` properties of `Sendable` types can be `Sendable` itself:
/// `struct Settings: Sendable { @Inject var clock: any Clock }`.
extension Inject: Sendable where Value: Sendable {}
