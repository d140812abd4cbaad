public import InjectionKernel

/// An injector that overrides some bindings and falls back to its parent for the rest; the parent never
/// sees its bindings (Gummi Injection's `createChildInjector`). Its rules live in an `OverrideScope`
/// for as long as the child does: singletons it binds are built once for it.
///
/// ```swift
/// let child = try Injection.childInjector { lets in
///   try lets.inject((any Engine).self).to(ElectricEngine.self)
/// }
/// let engine = try child.resolve((any Engine).self)  // ElectricEngine; the parent keeps its own
/// ```
///
/// `@Inject` properties are injected per class, not per object, so objects the child builds read the
/// child's bindings inside ``run(_:)-(()->Result)`` (and resolves made there), and their parent's elsewhere.
///
/// A child made with another child's ``childInjector(_:)`` keeps that parent alive and ends with it: after
/// the parent's ``end()`` its rules stop applying too, and using it is an error, rather than falling
/// back past its parent. (One made with `Injection.childInjector` inside the other's
/// ``run(_:)-(()->Result)`` sits on the other's rules while they apply, but is not tied to it.)
public final class ChildInjector: Sendable {
  private let scope: OverrideScope
  /// The child injector this one was made from with ``childInjector(_:)``, if any: kept alive while this
  /// one lives.
  private let parent: ChildInjector?
  /// The children made from this one, held weakly (a child keeps its parent alive, not the reverse):
  /// ended with it.
  private let children = LockedState<[WeakChild]>([])

  init(parent: ChildInjector? = nil, _ configure: (InjectionRules) throws -> Void) throws {
    self.parent = parent
    scope = try OverrideScope(configure)
    guard let parent else { return }
    parent.children.withLock { children in
      children.removeAll { $0.child == nil }
      children.append(WeakChild(child: self))
    }
    // A parent ended meanwhile by another thread: either its `end()` found this child in its list, or
    // this check finds the parent ended (it ended its scope before reading the list).
    if !parent.isActive {
      end()
      throw ResolutionError.childInjectorEnded
    }
  }

  /// What `Injection/resolve(_:named:arguments:)` returns under the child's rules.
  ///
  /// - Throws: ``ResolutionError/childInjectorEnded`` after ``end()``, and what `resolve` throws.
  public func resolve<Value>(_ type: Value.Type = Value.self, named name: String? = nil, arguments: Any...) throws
    -> Value
  {
    try checkActive()
    return try scope.run { try Resolution.resolve(type, named: name, arguments: arguments) }
  }

  /// Every binding of `type` under the child's rules (see `Injection/resolveAll(_:)`).
  ///
  /// - Throws: ``ResolutionError/childInjectorEnded`` after ``end()``, and what `resolveAll` throws.
  public func resolveAll<Value>(_ type: Value.Type = Value.self) throws -> [Value] {
    try checkActive()
    return try scope.run { try Injection.resolveAll(type) }
  }

  /// Runs `body` under the child's rules: reads, resolves, commits and modules there are the child's.
  ///
  /// Calling it after ``end()`` stops the program with a message saying so: `body` would run under
  /// rules that no longer apply, and what it committed would be lost. If the child ends while `body`
  /// runs (another thread, or `body` itself, calls `end()`), the rest of `body` reads the parent's rules
  /// and what it commits applies nowhere.
  public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
    precondition(isActive, ResolutionError.childInjectorEnded.description)
    return try scope.run(body)
  }

  /// The `async` form of ``run(_:)-(()->Result)``: `body` and the tasks it awaits run under the child's
  /// rules across suspension points.
  public func run<Result>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result)
    async rethrows -> Result
  {
    precondition(isActive, ResolutionError.childInjectorEnded.description)
    return try await scope.run(body)
  }

  /// A child of this child: it keeps this one alive and ends with it.
  ///
  /// - Throws: ``ResolutionError/childInjectorEnded`` after ``end()`` (also when another thread ends this
  ///   child meanwhile), and the typed errors of a commit.
  public func childInjector(_ configure: (InjectionRules) throws -> Void) throws -> ChildInjector {
    try checkActive()
    return try scope.run { try ChildInjector(parent: self, configure) }
  }

  /// Whether the child's rules still apply: `false` after its own ``end()`` or its parent's.
  public var isActive: Bool { scope.isActive }

  /// Ends the child now rather than when it is released: its rules stop applying, and using it (or a
  /// child made from it, which ends with it) afterwards is an error (``ResolutionError/childInjectorEnded``).
  public func end() {
    scope.end()
    for child in children.withLock({ $0.compactMap(\.child) }) { child.end() }
  }

  private func checkActive() throws {
    guard isActive else { throw ResolutionError.childInjectorEnded }
  }
}

/// A child injector, held weakly.
private struct WeakChild: Sendable {
  weak var child: ChildInjector?
}

extension Injection {
  /// A child injector of the calling task's current injector (the process's, or the override scope or
  /// child it runs in), with the rules `configure` records.
  ///
  /// - Throws: the typed errors of `Injection/commit(_:)`.
  public static func childInjector(_ configure: (InjectionRules) throws -> Void) throws -> ChildInjector {
    try ChildInjector(configure)
  }
}
