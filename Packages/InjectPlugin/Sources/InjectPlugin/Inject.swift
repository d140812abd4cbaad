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
/// (`Injection.inject(Settings.self).value(…)`), through ``wrappedValue``.
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

  /// The value, for struct owners and `static` properties: the stored value, else the value injected
  /// by type, else `nil` for an optional; a non-optional with neither stops with a message.
  public var wrappedValue: Value {
    get {
      if let stored = storage.storedValue { return stored }
      if let injected = TypeKeyedInjections.shared.value(of: Value.self) { return injected }
      if let none = Injection.none(of: Value.self) { return none }
      Injection.stop(
        "@Inject \(Injection.typeName(Value.self)) outside a class instance (in a struct, a static or a local "
          + "variable) was read with nothing injected or "
          + "stored: inject it with Injection.inject(\(Injection.metatypeExpression(of: Value.self))).value(…).")
    }
    set {
      storage.setStoredValueUniquely(newValue)
    }
  }

  /// How to inject `property`, for the message of a read that finds nothing.
  public static func injectionHint(for property: PropertyDescriptor) -> String {
    "Injection.inject(\(Injection.metatypeExpression(of: property.valueType))).value(…)"
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
