public import InjectionKernel

/// Container bindings: the verbs of OCInject's and Gummi Injection's binders, as rules. Each one is an
/// injection like `value(…)` — it reaches every `@Inject` property it selects — and `resolve` returns
/// what such a property reads. Factories receive a ``Resolver`` for their own dependencies.
extension InjectSelection where Value: Sendable {
  /// Binds one value, built by `make` on first use — the first resolve or the first read of any
  /// instance — and shared by all (exactly once, even under concurrent first uses).
  ///
  /// ```swift
  /// try Injection.inject(Database.self).singleton { resolver in Database(url: try resolver.resolve(URL.self)) }
  /// ```
  @discardableResult
  public func singleton(_ make: @escaping @Sendable (Resolver) throws -> Value) throws -> InjectionPlan? {
    try bindShared(.singleton, make)
  }

  /// Binds one value built when the rules commit (Gummi Injection's eager singleton), then shared.
  ///
  /// - Throws: after the commit, `BatchAppliedError` with whatever `make` threw as its `underlying`
  ///   error (the rules are applied; the binding stays, and builds on first use).
  @discardableResult
  public func eagerSingleton(_ make: @escaping @Sendable (Resolver) throws -> Value) throws -> InjectionPlan? {
    try bindShared(.eagerSingleton, make)
  }

  /// Binds one `implementation()`, built on first use and shared.
  ///
  /// - Throws: ``ResolutionError/notConvertible(implementation:boundType:)`` when `implementation` is
  ///   not a `Value` (a class that does not conform to the bound protocol); nothing is committed.
  @discardableResult
  public func singleton<Implementation: Constructible>(_ implementation: Implementation.Type) throws
    -> InjectionPlan?
  {
    try bindShared(.singleton, try constructor(of: implementation))
  }

  /// Binds one `implementation()`, built when the rules commit and shared.
  ///
  /// - Throws: ``ResolutionError/notConvertible(implementation:boundType:)`` as ``singleton(_:)-(Implementation.Type)``.
  @discardableResult
  public func eagerSingleton<Implementation: Constructible>(_ implementation: Implementation.Type) throws
    -> InjectionPlan?
  {
    try bindShared(.eagerSingleton, try constructor(of: implementation))
  }

  private func bindShared(_ lifetime: BindingLifetime, _ make: @escaping @Sendable (Resolver) throws -> Value) throws
    -> InjectionPlan?
  {
    let binding = ContainerBinding(lifetime, display: bindingDisplay, make: make)
    let kind = lifetime == .eagerSingleton ? "eager singleton" : "singleton"
    let injection = PropertyInjection<Value>(
      // Created outside the shared value's lock: the binding builds once under its own, where a wait is
      // seen by the container's cycle check (across threads too).
      read: .shared(SharedValue(onceElsewhere: { binding.valueForRead() }, keptElsewhere: { binding.isKeptByAScope })),
      summary: "\(kind) \(Injection.typeName(Value.self))")
    BindingRegistry.register(binding, for: injection)
    return try apply(
      injection, typeKeyed: .shared({ binding.valueForRead(ofStructOrStatic: true) }), reachesOptionals: true,
      afterCommit: lifetime == .eagerSingleton
        ? { [isBinding, bindingName] in
          try Self.buildIfInForce(binding, checkingBinding: isBinding, named: bindingName)
        } : nil)
  }

  /// Builds an eager singleton after its commit — unless its binding (by type, or type and name) is not
  /// the one in force then: the same batch replaced or withdrew it, and its factory must not run (found by
  /// reviews H73 and H75). A rule naming classes builds as committed. (Static, so that the batch's action
  /// does not hold the selection, which holds the batch.)
  private static func buildIfInForce(
    _ binding: ContainerBinding<Value>, checkingBinding: Bool, named name: String?
  ) throws {
    if checkingBinding {
      let current = Injection.detachedInjection(of: Inject<Value>.self, named: name ?? "")
      guard let current, BindingRegistry.binding(for: current) === binding else { return }
    }
    _ = try binding.resolve(arguments: [])
  }
}

extension InjectSelection where Value: AnyObject & Sendable {
  /// Binds an object shared while someone holds it: every resolve and every instance's first read get
  /// the living one, or a new one from `make` once the last holder let it go (instances hold what they
  /// read, as any property does; struct and `static` properties hold nothing, and ask on every read).
  @discardableResult
  public func weakShared(_ make: @escaping @Sendable (Resolver) throws -> Value) throws -> InjectionPlan? {
    try bindPerRead(.weakShared, make)
  }
}

extension InjectSelection {
  /// Binds a factory called on every resolve and on every instance's first read (the instance keeps
  /// its value): OCInject's provider, Gummi Injection's block mapping. Struct and `static` properties
  /// keep nothing (a struct's getter cannot store): each of their reads calls it.
  ///
  /// ```swift
  /// try Injection.inject(Request.self).provider { resolver in Request(id: try resolver.argument(0, as: Int.self)) }
  /// ```
  @discardableResult
  public func provider(_ make: @escaping @Sendable (Resolver) throws -> Value) throws -> InjectionPlan? {
    try bindPerRead(.provider, make)
  }

  /// Binds `implementation`, built with `init()` on every resolve and every instance's first read (and
  /// every read of a struct's or `static` property, which keeps nothing) — Gummi Injection's class
  /// mapping, `map:[HybridEngine class] to:@protocol(Engine)`.
  ///
  /// ```swift
  /// try Injection.inject((any Engine).self).to(HybridEngine.self)
  /// ```
  ///
  /// - Throws: ``ResolutionError/notConvertible(implementation:boundType:)`` when `implementation` is
  ///   not a `Value` (a class that does not conform to the bound protocol); nothing is committed.
  @discardableResult
  public func to<Implementation: Constructible>(_ implementation: Implementation.Type) throws -> InjectionPlan? {
    try bindPerRead(.provider, try constructor(of: implementation))
  }

  private func bindPerRead(_ lifetime: BindingLifetime, _ make: @escaping @Sendable (Resolver) throws -> Value) throws
    -> InjectionPlan?
  {
    let binding = ContainerBinding(lifetime, display: bindingDisplay, make: make)
    let kind = lifetime == .provider ? "provider" : "weak-shared"
    let injection = PropertyInjection<Value>(
      read: .fill({ _ in binding.valueForRead() }, once: false), summary: "\(kind) \(Injection.typeName(Value.self))")
    BindingRegistry.register(binding, for: injection)
    // Struct and static owners keep nothing per instance: each of their reads asks the binding (a new
    // value for a provider, the living one for weak-shared).
    return try apply(
      injection, typeKeyed: .shared({ binding.valueForRead(ofStructOrStatic: true) }), reachesOptionals: true)
  }

  /// A factory that builds `implementation` as a `Value`, after checking that it is one.
  func constructor<Implementation: Constructible>(of implementation: Implementation.Type) throws
    -> @Sendable (Resolver) throws -> Value
  {
    switch Injection.isConvertible(implementation, to: Value.self) {
    case true?: break
    case false?:
      throw ResolutionError.notConvertible(
        implementation: Injection.typeName(implementation), boundType: Injection.typeName(Value.self))
    case nil:
      throw ResolutionError.cannotCheckConversion(
        implementation: Injection.typeName(implementation), boundType: Injection.typeName(Value.self))
    }
    let display = bindingDisplay
    return { _ in
      guard let value = Implementation() as? Value else {
        Injection.stop("\(Injection.typeName(Implementation.self)) was checked to convert to \(display), but does not.")
      }
      return value
    }
  }

  /// `Module.Service`, or `Module.Service named "primary"`.
  var bindingDisplay: String {
    Injection.typeName(Value.self) + (bindingName.map { " named \"\($0)\"" } ?? "")
  }
}
