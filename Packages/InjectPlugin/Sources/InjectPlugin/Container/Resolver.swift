import InjectionKernel

/// What a binding's factory receives: a way to resolve its own dependencies under the same rules, and
/// the arguments the caller of `resolve` passed (Gummi Injection's `getObject:withArgs:`).
///
/// ```swift
/// try Injection.inject(Greeter.self).provider { resolver in
///   Greeter(clock: try resolver.resolve(Clock.self), name: try resolver.argument(0, as: String.self))
/// }
/// let greeter = try Injection.resolve(Greeter.self, arguments: "Ann")
/// ```
///
/// A value built for an `@Inject` property's read, or an eager singleton built at commit, gets no
/// arguments.
///
/// A binding made in a child injector (or a test's override) resolves there: its factory's resolver,
/// kept by the value and used later from outside that child — a coordinator that resolves its screens
/// on demand — still resolves under the child's rules (called inside the child, or a scope within it,
/// it resolves under the caller's, which include the child's), and throws
/// ``ResolutionError/childInjectorEnded`` once the child has ended. A binding made in the process resolves
/// under the rules of wherever it is called.
public struct Resolver {
  /// The arguments the caller passed to `resolve`, in order (none for property reads).
  public let arguments: [Any]
  /// Where the binding was made (see above).
  private let home: InjectionContext

  init(arguments: [Any], home: InjectionContext) {
    self.arguments = arguments
    self.home = home
  }

  /// Resolves a dependency: what `Injection/resolve(_:named:arguments:)` returns (under the rules
  /// described above). A dependency that needs the value being built is a cycle, thrown as
  /// ``ResolutionError/cycle(_:)``.
  public func resolve<Value>(_ type: Value.Type = Value.self, named name: String? = nil, arguments: Any...) throws
    -> Value
  {
    try atHome { try Resolution.resolve(type, named: name, arguments: arguments) }
  }

  /// Every binding of `type`, in registration order (see `Injection/resolveAll(_:)`), under the rules
  /// described above.
  public func resolveAll<Value>(_ type: Value.Type = Value.self) throws -> [Value] {
    try atHome { try Injection.resolveAll(type) }
  }

  /// `body` where the binding was made, unless the caller runs there already (or in a scope within it,
  /// whose rules are more specific). Found by review H82: a coordinator's resolver kept from a child
  /// injector's factory resolved the parent's bindings when called outside the child. The binding's home
  /// must apply from the call's start to its end, as for ``ChildInjector/resolve(_:named:arguments:)``: an
  /// ended one (also one that ends while the call runs) would have answered with the rules around it
  /// (found by review H84).
  private func atHome<Result>(_ body: () throws -> Result) throws -> Result {
    guard home.isActive else { throw ResolutionError.childInjectorEnded }
    do {
      let result = home.encloses(.current) ? try body() : try home.run(body)
      guard home.isActive else { throw ResolutionError.childInjectorEnded }
      return result
    } catch  where !home.isActive {
      throw ResolutionError.childInjectorEnded
    }
  }

  /// The caller's argument at `index`, of type `type`.
  ///
  /// - Throws: ``ResolutionError/missingArgument(index:expected:given:)`` when there is none there, or
  ///   it has another type.
  public func argument<Argument>(_ index: Int = 0, as type: Argument.Type = Argument.self) throws -> Argument {
    if index < arguments.count, let argument = arguments[index] as? Argument { return argument }
    throw ResolutionError.missingArgument(
      index: index, expected: Injection.typeName(type),
      given: arguments.map { Injection.typeName(Swift.type(of: $0)) })
  }
}
