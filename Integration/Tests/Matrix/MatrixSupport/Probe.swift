public import InjectionKernel

/// A kernel-only marker every matrix fixture carries beside the markers of the plugins under test, so
/// each combination also proves that the plugins leave a foreign marker on the same class alone (and
/// that it leaves them alone). `@Probe var probe: String?` reads its initial value until
/// ``ProbePlugin`` injects it.
@propertyWrapper
public struct Probe<Value>: MarkedPropertyWrapper {
  /// ``ProbePlugin``.
  public static var plugin: PluginID { ProbePlugin.id }
  /// The per-instance storage (the marker's first stored property, as the kernel requires).
  public let storage: MarkedStorage<Value>

  /// A probe with nothing stored: a read stops until it is injected (completeness checks count it).
  public init(fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    storage = MarkedStorage(fileID: fileID, line: line, column: column)
  }

  /// A probe holding `wrappedValue` until it is injected.
  public init(wrappedValue: Value, fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    storage = MarkedStorage(storing: wrappedValue, fileID: fileID, line: line, column: column)
  }

  /// The enclosing-instance access every marker forwards to the kernel.
  public static subscript<Owner: AnyObject>(
    _enclosingInstance object: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    get { read(object, storage) }
    set { write(newValue, object, storage) }
  }

  /// Unavailable: `@Probe` works in classes only.
  @available(*, unavailable, message: "@Probe works in classes only")
  public var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }
  }

  /// How to inject a probe.
  public static func injectionHint(for property: PropertyDescriptor) -> String { "Injection.probe(_:in:)" }
}

/// The plugin owning `@Probe`.
public enum ProbePlugin: InjectionPlugin {
  /// `Probe`.
  public static let id = PluginID("Probe")
  /// `@Probe`.
  public static var markerTypes: [any InjectionMarker.Type] { [Probe<Never>.self] }
}

extension InjectionRules {
  /// Makes the `@Probe` properties of `classes` read `label`.
  public func probe(_ label: String, in classes: AnyClass...) {
    add(
      PropertyInjection(read: .value(label), summary: "probe \(label)"),
      to: PropertySelection(plugin: ProbePlugin.id).ofType(String.self).includingOptionals().declared(in: classes))
  }

  /// Turns the `@Probe` properties of `classes` off again: they read their stored value.
  public func rejectProbe(in classes: AnyClass...) {
    reject(PropertySelection(plugin: ProbePlugin.id).declared(in: classes))
  }
}

extension Injection {
  /// Makes the `@Probe` properties of `classes` read `label`, at once.
  public static func probe(_ label: String, in classes: AnyClass...) throws {
    let rules = InjectionRules()
    rules.add(
      PropertyInjection(read: .value(label), summary: "probe \(label)"),
      to: PropertySelection(plugin: ProbePlugin.id).ofType(String.self).includingOptionals().declared(in: classes))
    _ = try commit(rules)
  }

  /// Turns the `@Probe` properties of `classes` off again, at once.
  public static func rejectProbe(in classes: AnyClass...) throws {
    let rules = InjectionRules()
    rules.reject(PropertySelection(plugin: ProbePlugin.id).declared(in: classes))
    _ = try commit(rules)
  }

  /// The plugins whose properties `cls` declares and that are injected now, by name: what a matrix
  /// test expects to see side by side on one class.
  public static func injectedPlugins(of cls: AnyClass) -> Set<String> {
    Set(graph().edges.filter { $0.className == Injection.typeName(cls) }.map(\.plugin))
  }
}
