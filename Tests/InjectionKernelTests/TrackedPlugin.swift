import InjectionKernel

/// A third-party marker and plugin written against the kernel's public API only (no `@testable`).
@propertyWrapper
struct Tracked<Value>: MarkedPropertyWrapper {
  static var plugin: PluginID { TrackedPlugin.id }
  let storage: MarkedStorage<Value>
  init(fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    storage = MarkedStorage(fileID: fileID, line: line, column: column)
  }
  init(wrappedValue: Value, fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    storage = MarkedStorage(storing: wrappedValue, fileID: fileID, line: line, column: column)
  }
  static subscript<Owner: AnyObject>(
    _enclosingInstance object: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    get { read(object, storage) }
    set { write(newValue, object, storage) }
  }
  @available(*, unavailable, message: "@Tracked works in classes only")
  var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }
  }
  static func injectionHint(for property: PropertyDescriptor) -> String { "TrackedPlugin.inject" }
}

enum TrackedPlugin: InjectionPlugin {
  static let id = PluginID("Tracked")
  static var markerTypes: [any InjectionMarker.Type] { [Tracked<Never>.self] }

  /// The plugin's own verb: a value for the `Value` properties declared in `owner`.
  static func inject<Value>(_ value: Value, into owner: AnyClass, rules: InjectionRules) {
    rules.add(
      PropertyInjection(read: .value(value), summary: "tracked \(value)"),
      to: PropertySelection(plugin: id).ofType(Value.self).declared(in: owner))
  }
}

/// A second third-party plugin, to show that a second plugin adds no pass.
@propertyWrapper
struct Counted<Value>: MarkedPropertyWrapper {
  static var plugin: PluginID { CountedPlugin.id }
  let storage: MarkedStorage<Value>
  init(fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    storage = MarkedStorage(fileID: fileID, line: line, column: column)
  }
  static subscript<Owner: AnyObject>(
    _enclosingInstance object: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    get { read(object, storage) }
    set { write(newValue, object, storage) }
  }
  @available(*, unavailable)
  var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }
  }
}

enum CountedPlugin: InjectionPlugin {
  static let id = PluginID("Counted")
  static var markerTypes: [any InjectionMarker.Type] { [Counted<Never>.self] }
}
