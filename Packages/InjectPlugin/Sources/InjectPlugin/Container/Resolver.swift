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
public struct Resolver {
  /// The arguments the caller passed to `resolve`, in order (none for property reads).
  public let arguments: [Any]

  init(arguments: [Any]) { self.arguments = arguments }

  /// Resolves a dependency: what `Injection/resolve(_:named:arguments:)` returns. A dependency that
  /// needs the value being built is a cycle, thrown as ``ResolutionError/cycle(_:)``.
  public func resolve<Value>(_ type: Value.Type = Value.self, named name: String? = nil, arguments: Any...) throws
    -> Value
  {
    try Resolution.resolve(type, named: name, arguments: arguments)
  }

  /// Every binding of `type`, in registration order (see `Injection/resolveAll(_:)`).
  public func resolveAll<Value>(_ type: Value.Type = Value.self) throws -> [Value] {
    try Injection.resolveAll(type)
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
