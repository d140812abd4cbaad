import InjectionKernel
import Testing

// The README's plugin example, compiled and run: written against the kernel's public API only.

@propertyWrapper
struct Defaulted<Value>: MarkedPropertyWrapper {
  static var plugin: PluginID { DefaultedPlugin.id }
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

// Associated storage.

struct Noted<Value>: InjectionMarker {
  static var plugin: PluginID { PluginID("Noted") }
}

extension Player {
  final class Emblem: AssociatedProperty<Player, Noted<String?>> {}
  var emblem: String? {
    get { Emblem[self] }
    set { Emblem[self] = newValue }
  }
}

// The guide's marker with a declaration argument and scoped state.

@propertyWrapper
struct Labeled<Value>: MarkedPropertyWrapper {
  static var plugin: PluginID { LabeledPlugin.id }
  let storage: MarkedStorage<Value>
  let label: String
  init(_ label: String, fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    storage = MarkedStorage(fileID: fileID, line: line, column: column)
    self.label = label
  }
  var declarationArguments: (any Sendable)? { label }
  static subscript<Owner: AnyObject>(
    _enclosingInstance object: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    get { read(object, storage) }
    set { write(newValue, object, storage) }
  }
  @available(*, unavailable, message: "@Labeled works in classes only")
  var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }
  }
}

enum LabeledPlugin: InjectionPlugin {
  static let id = PluginID("Labeled")
  static var markerTypes: [any InjectionMarker.Type] { [Labeled<Never>.self] }
  static let prefix = ScopedState("label: ")
}

extension InjectionRules {
  func injectLabels(in owner: AnyClass) {
    add(
      PropertyInjection<String>(
        read: .getter { _, _, original in
          LabeledPlugin.prefix.value + (original.declarationArguments as? String ?? original.property.name)
        },
        summary: "label"),
      to: PropertySelection(plugin: LabeledPlugin.id).declared(in: owner))
  }

  func useLabelPrefix(_ prefix: String) {
    onCommit { LabeledPlugin.prefix.replace(with: prefix) }
  }
}

final class Badge {
  @Labeled("caption") var caption: String
}

@Suite struct ReadmeExamples {
  @Test func associatedStorage() {
    let player = Player()
    player.emblem = "gold"
    #expect(player.emblem == "gold")
    #expect(Injection.declaredProperties(of: Player.self).map(\.name) == ["volume", "emblem"])
  }

  @Test func deallocationObservation() {
    let released = LockedState(false)
    var player: Player? = Player()
    let observation = Injection.onDeallocation(of: player!) { released.withLock { $0 = true } }
    player = nil
    #expect(released.withLock { $0 })
    observation.cancel()  // withdraws an action that has not run; nothing here
  }

  @Test func declarationArgumentsAndScopedState() throws {
    let rules = InjectionRules()
    rules.injectLabels(in: Badge.self)
    try Injection.commit(rules)
    try Injection.withOverrides({ lets in lets.useLabelPrefix("test: ") }) {
      #expect(Badge().caption == "test: caption")
    }
    #expect(Badge().caption == "label: caption")
  }

  @Test func thirdPartyPlugin() throws {
    let rules = InjectionRules()
    rules.injectDefault(0.5, for: Double.self)
    try Injection.commit(rules)
    #expect(Player().volume == 0.5)
    #expect(Injection.properties(of: DefaultedPlugin.self).map(\.name) == ["volume"])
  }
}
