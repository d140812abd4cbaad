import InjectionKernel

/// A typed error of the container: `resolve`, its binding verbs and modules. Each case names the types
/// involved readably and, where one helps, the call that fixes it.
public enum ResolutionError: Error, Equatable, CustomStringConvertible {
  /// Nothing is bound to the type (and name): no rule gives an `@Inject` property of that type one.
  /// `hint` is the call that binds it.
  case unbound(type: String, name: String?, hint: String)
  /// Building a value needed itself again through providers or constructors: the chain, first and last
  /// the same (`A → B → C → A`).
  case cycle([String])
  /// A binding maps a type to an implementation that is not one of its values (a class that does not
  /// conform to the protocol, or is not a subclass).
  case notConvertible(implementation: String, boundType: String)
  /// The runtime cannot tell whether the implementation conforms (an existential with primary
  /// associated types); bind it with a closure, which the compiler checks.
  case cannotCheckConversion(implementation: String, boundType: String)
  /// A factory asked for an argument the caller did not pass, or of another type.
  case missingArgument(index: Int, expected: String, given: [String])
  /// A module was removed that is not loaded.
  case moduleNotLoaded(String)
  /// A module's `configure` called `rejectAll()`: it would wipe the app's and other modules' rules and
  /// modules, which removing the module could not bring back.
  case moduleRejectsAll(String)
  /// A child injector was used after ``ChildInjector/end()`` (its own, or that of the child it was made
  /// from), or a ``Resolver`` given to the factory of a binding made in a child injector or an override
  /// scope that has ended since: its rules no longer apply anywhere.
  case childInjectorEnded

  /// A sentence for logs and test failures.
  public var description: String {
    switch self {
    case .unbound(let type, let name, let hint):
      let what = name.map { "\(type) named \"\($0)\"" } ?? type
      return "Nothing is bound to \(what): bind it with \(hint)."
    case .cycle(let chain):
      return "Resolving \(chain.first ?? "") needs itself: \(chain.joined(separator: " → ")). Break the cycle: "
        + "let one of them get the other after it is built — an @Inject property read when it is used, not in an "
        + "initializer or a factory, instead of a constructor argument or a read during construction."
    case .notConvertible(let implementation, let boundType):
      return "Cannot bind \(boundType) to \(implementation): \(implementation) neither conforms to nor inherits "
        + "from \(boundType)."
    case .cannotCheckConversion(let implementation, let boundType):
      return "Cannot check that \(implementation) converts to \(boundType) without a value: bind it with a closure, "
        + "such as .provider { _ in \(implementation)() }, which the compiler checks."
    case .missingArgument(let index, let expected, let given):
      let passed = given.isEmpty ? "none" : given.joined(separator: ", ")
      return "The factory asked for argument \(index) of type \(expected); the caller passed \(passed)."
    case .moduleNotLoaded(let module):
      return "The module \(module) is not loaded."
    case .moduleRejectsAll(let module):
      return "The module \(module) calls rejectAll() in configure: it would wipe the app's and other modules' "
        + "rules, which removing the module could not bring back. Reject the module's own selections instead "
        + "(lets.inject(…).reject()), or call Injection.rejectAllInjections() outside modules."
    case .childInjectorEnded:
      return "The child injector was used after end() (its own, or that of the child injector it was made from), "
        + "or a factory's resolver was used after the child injector or override scope (a test's withOverrides "
        + "or trait) its binding was made in had ended: its rules no longer apply. Make a new child injector, or "
        + "resolve from where the caller runs now."
    }
  }

  /// How to bind `type` (named `name`), for ``unbound(type:name:hint:)``.
  static func hint(for type: Any.Type, name: String?) -> String {
    let metatype = Injection.metatypeExpression(of: type)
    let named = name.map { ", named: \"\($0)\"" } ?? ""
    return "Injection.inject(\(metatype)\(named)).value(…), .singleton { … } or .provider { … }"
  }
}
