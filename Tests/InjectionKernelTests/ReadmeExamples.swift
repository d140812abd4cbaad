import InjectionKernel
import Testing

// The README's plugin example, compiled and run: written against the kernel's public API only.

@propertyWrapper
struct Defaulted<Value>: MarkedPropertyWrapper {
  static var plugin: PluginID { DefaultedPlugin.id }
  let storage = MarkedStorage<Value>()
  init() {}
  static subscript<Owner: AnyObject>(
    _enclosingInstance object: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    get { read(object, storage) }
    set { write(newValue, object, storage) }
  }
  @available(*, unavailable, message: "@Defaulted works in classes only")
  var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }
  }
}

enum DefaultedPlugin: InjectionPlugin {
  static let id = PluginID("Defaulted")
  static var markerTypes: [any InjectionMarker.Type] { [Defaulted<Never>.self] }
}

extension InjectionRules {
  func injectDefault<Value>(_ value: Value, for type: Value.Type) {
    add(
      PropertyInjection(read: .value(value), summary: "default \(value)"),
      to: PropertySelection(plugin: DefaultedPlugin.id).ofType(type))
  }
}

final class Player {
  @Defaulted var volume: Double
}

@Suite struct ReadmeExamples {
  @Test func thirdPartyPlugin() throws {
    let rules = InjectionRules()
    rules.injectDefault(0.5, for: Double.self)
    try Injection.commit(rules)
    #expect(Player().volume == 0.5)
    #expect(Injection.properties(of: DefaultedPlugin.self).map(\.name) == ["volume"])
  }
}
