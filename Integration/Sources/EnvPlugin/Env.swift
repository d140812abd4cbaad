import Foundation
public import InjectionKernel

/// A third-party plugin written only against `InjectionKernel`'s public API, as an outside author would:
/// `@Env("HOME") var home: String` reads the process environment variable its declaration names.
///
/// ```swift
/// final class ServerConfig {
///   @Env("HOME") var home: String
///   @Env("PORT") var port = 8080
///   @Env("LOG_LEVEL") var logLevel: String?
/// }
/// try Injection.injectEnvironment()
/// ```
///
/// The variable's name is the marker's declaration argument: the kernel hands it to the plugin's getter
/// (``OriginalAccessor/declarationArguments``). A variable that is not set reads as the initial value,
/// or `nil` for an optional; a non-optional without one stops the program with a message naming the
/// property and the variable, as does a value that does not convert to the property's type.
@propertyWrapper
public struct Env<Value: EnvironmentValue>: MarkedPropertyWrapper {
  /// The plugin owning `@Env` properties.
  public static var plugin: PluginID { EnvPlugin.id }
  /// The per-instance storage: the initial value, if any.
  public let storage: MarkedStorage<Value>
  /// The environment variable's name.
  public let name: String

  /// A property reading the variable `name`; it must be set unless `Value` is optional.
  public init(_ name: String, fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    storage = MarkedStorage(fileID: fileID, line: line, column: column)
    self.name = name
  }

  /// A property reading the variable `name`, or `wrappedValue` while it is not set.
  public init(
    wrappedValue: Value, _ name: String, fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
  ) {
    storage = MarkedStorage(storing: wrappedValue, fileID: fileID, line: line, column: column)
    self.name = name
  }

  /// The variable's name, for the plugin.
  public var declarationArguments: (any Sendable)? { name }

  /// The property of a class instance, read and written through its class-level slot.
  @inlinable
  public static subscript<Owner: AnyObject>(
    _enclosingInstance object: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    get { read(object, storage) }
    set { write(newValue, object, storage) }
  }

  /// Unavailable: `@Env` works in classes only.
  @available(*, unavailable, message: "@Env works in classes only")
  public var wrappedValue: Value {
    get { fatalError("@Env works in classes only") }
    set { fatalError("@Env works in classes only") }  // swift-format-ignore
  }

  /// How to turn `@Env` properties on.
  public static func injectionHint(for property: PropertyDescriptor) -> String { "Injection.injectEnvironment()" }
}

/// A type an environment variable's text converts to: `String`, `Int`, `Double`, `Bool`, and optionals
/// of them.
public protocol EnvironmentValue: SendableMetatype {
  /// The value the text `text` stands for, or `nil` when it stands for none.
  init?(environmentText text: String)
  /// What an unset variable reads as: `nil` (no value, use the initial value or stop) except for
  /// optionals, which read `.some(nil)`.
  static var whenUnset: Self? { get }
}

extension EnvironmentValue {
  /// No value: an unset variable reads as the initial value.
  public static var whenUnset: Self? { nil }
}

extension String: EnvironmentValue {
  /// The text itself.
  public init?(environmentText text: String) { self = text }
}

extension Int: EnvironmentValue {
  /// A decimal integer.
  public init?(environmentText text: String) { self.init(text) }
}

extension Double: EnvironmentValue {
  /// A decimal number.
  public init?(environmentText text: String) { self.init(text) }
}

extension Bool: EnvironmentValue {
  /// `1`, `true`, `yes` or `0`, `false`, `no`, in any case.
  public init?(environmentText text: String) {
    switch text.lowercased() {
    case "1", "true", "yes": self = true
    case "0", "false", "no": self = false
    default: return nil
    }
  }
}

extension Optional: EnvironmentValue where Wrapped: EnvironmentValue {
  /// The wrapped type's value.
  public init?(environmentText text: String) {
    guard let value = Wrapped(environmentText: text) else { return nil }
    self = .some(value)
  }

  /// An unset variable reads `nil`.
  public static var whenUnset: Self? { .some(nil) }
}

/// The `@Env` plugin.
public enum EnvPlugin: InjectionPlugin {
  /// `Env`.
  public static let id = PluginID("Env")
  /// `Env`'s marker.
  public static var markerTypes: [any InjectionMarker.Type] { [Env<String>.self] }

  /// The variables `@Env` reads instead of the process environment, when set (for tests). A
  /// `ScopedState`, so an override scope's variables stay in its task.
  static let replacement = ScopedState<[String: String]?>(nil)

  /// The text of the variable `name` the calling task sees.
  static func text(of name: String) -> String? {
    if let replacement = replacement.value { return replacement[name] }
    return getenv(name).map { String(cString: $0) }
  }
}

extension InjectionRules {
  /// Turns every `@Env` property on (or those of `classes` only).
  public func injectEnvironment(in classes: AnyClass...) {
    let selection = PropertySelection(plugin: EnvPlugin.id)
    add(to: classes.isEmpty ? selection : selection.declared(in: classes)) { property in
      (property.markerType as? any EnvMarker.Type)?.makeInjection()
    }
  }

  /// Makes `@Env` properties read `variables` instead of the process environment (`nil`: the process
  /// environment again). Inside `Injection.withOverrides` it applies to that task only.
  public func useEnvironment(_ variables: [String: String]?) {
    onCommit { EnvPlugin.replacement.replace(with: variables) }
  }
}

extension Injection {
  /// Turns every `@Env` property on (or those of `classes` only) at once.
  @discardableResult
  public static func injectEnvironment(in classes: AnyClass...) throws -> InjectionPlan {
    let rules = InjectionRules()
    let selection = PropertySelection(plugin: EnvPlugin.id)
    rules.add(to: classes.isEmpty ? selection : selection.declared(in: classes)) { property in
      (property.markerType as? any EnvMarker.Type)?.makeInjection()
    }
    return try commit(rules)
  }
}

/// Opens the marker to build an injection with the property's own value type.
protocol EnvMarker {
  static func makeInjection() -> AnyPropertyInjection
}

extension Env: EnvMarker {
  static func makeInjection() -> AnyPropertyInjection {
    PropertyInjection<Value>(
      read: .getter { _, storage, original in
        // The declaration's argument: the variable's name (recorded by the instance's first access).
        let name = original.declarationArguments as? String ?? original.property.name
        guard let text = EnvPlugin.text(of: name) else {
          if let stored = storage { return stored }
          if let unset = Value.whenUnset { return unset }
          Injection.stop(
            "\(original.property) reads the environment variable \(name), which is not set: set it, give the "
              + "property an initial value, or make it optional.")
        }
        guard let value = Value(environmentText: text) else {
          Injection.stop(
            "\(original.property) reads the environment variable \(name), whose value \"\(text)\" does not convert to "
              + "\(Injection.sourceSpelling(of: Value.self)).")
        }
        return value
      },
      summary: "environment")
  }
}
