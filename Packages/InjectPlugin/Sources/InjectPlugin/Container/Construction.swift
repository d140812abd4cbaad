public import InjectionKernel

/// A type the container can build with no arguments: bound with `to(_:)`, `singleton(_:)`,
/// `eagerSingleton(_:)`, or built unbound once `Injection/constructUnboundTypes()` is on. Its own
/// `@Inject` properties are served as usual.
///
/// ```swift
/// final class Wheel: Constructible, Sendable { init() {} }
/// ```
public protocol Constructible: SendableMetatype {
  /// A new value.
  init()
}

/// An object the container builds is told when its injections are in place (Gummi Injection's
/// injection-complete selector): right after its factory or initializer returned, before anyone else
/// gets it. Values bound as they are (`value(…)`) are not built by the container and are not told.
///
/// ```swift
/// final class Engine: Constructible, InjectionCompletion, @unchecked Sendable {
///   @Inject var fuel: Fuel
///   func injectionDidComplete() { start() }
/// }
/// ```
public protocol InjectionCompletion: AnyObject {
  /// Called once, when the container built the object and its `@Inject` properties can be read.
  func injectionDidComplete()
}

extension InjectionRules {
  /// Turns on the construction of unbound types: an `@Inject` property (and `resolve`) of a
  /// ``Constructible`` type that no rule binds gets a new value of it, built with `init()` — per
  /// instance on its first read, and on every resolve, as a provider would. Optional properties are left
  /// alone (an unbound `Wheel?` reads `nil`).
  ///
  /// It is a rule: a binding of such a type committed later wins over it, as rules do; a binding
  /// committed earlier by type alone (`inject(Wheel.self)…`) is kept, and so is a named binding
  /// committed earlier (`inject(Wheel.self, named: "spare")…`) for the properties with its name, while the
  /// type's other properties are built. A rule that names classes committed earlier is shadowed — turn it
  /// on at start-up. A binding that existed when it was turned on and is taken back later (its module
  /// removed, a rejection) leaves its properties empty: they are not built again. One made after it is
  /// taken back as rules are: `reject()` leaves its properties empty (a rejection decides that they read
  /// nothing), removing the module that made it brings back what it shadowed — construction.
  /// `rejectAll()` turns it off.
  public func constructUnboundTypes() {
    let state = ContainerState.shared.value
    guard !state.constructsUnboundTypes else { return }
    // Bindings made before now keep their properties: the type's alone keeps all of them, a name the
    // properties with that name. (The builder runs under kernel locks, so it must not read scoped state
    // itself.)
    let bindings = state.bindingNamesByType
    let selection = PropertySelection(plugin: InjectPlugin.id).filter { property in
      property.valueType is any Constructible.Type
    }
    add(to: selection) { property in
      guard let type = property.valueType as? any Constructible.Type else { return nil }
      if let names = bindings[ObjectIdentifier(type)], names.contains("") || names.contains(property.name) {
        return nil
      }
      return constructingInjection(type)
    }
    onCommit { ContainerState.shared.update { $0.constructsUnboundTypes = true } }
  }
}

extension Injection {
  /// Turns on the construction of unbound ``Constructible`` types (see
  /// ``InjectionRules/constructUnboundTypes()``); nothing happens if it is on already.
  public static func constructUnboundTypes() throws {
    let rules = InjectionRules()
    rules.constructUnboundTypes()
    try commit(rules)
  }
}

/// The injection that builds `type` for every instance's first read and every resolve.
private func constructingInjection<Value: Constructible>(_ type: Value.Type) -> AnyPropertyInjection {
  let binding = ContainerBinding<Value>(.provider, display: Injection.typeName(Value.self)) { _ in Value() }
  let injection = PropertyInjection<Value>(
    read: .fill({ _ in binding.valueForRead() }, once: false), summary: "constructed \(Injection.typeName(Value.self))")
  BindingRegistry.register(binding, for: injection)
  return injection
}
