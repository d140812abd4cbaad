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
  private let children = LockedState<Children>(Children())

  init(parent: ChildInjector? = nil, _ configure: (InjectionRules) throws -> Void) throws {
    self.parent = parent
    scope = try OverrideScope(configure)
    guard let parent else { return }
    parent.children.withLock { $0.add(self) }
    // A parent ended meanwhile by another thread: either its `end()` found this child in its list, or
    // this check finds the parent ended (it ended its scope before reading the list).
    if !parent.isActive {
      end()
      throw ResolutionError.childInjectorEnded
    }
  }

  /// What `Injection/resolve(_:named:arguments:)` returns under the child's rules.
  ///
  /// - Throws: ``ResolutionError/childInjectorEnded`` after ``end()`` (also when the child ends while the
  ///   call runs: what it found then may come from the parent's rules), and what `resolve` throws.
  public func resolve<Value>(_ type: Value.Type = Value.self, named name: String? = nil, arguments: Any...) throws
    -> Value
  {
    try whileActive { try Resolution.resolve(type, named: name, arguments: arguments) }
  }

  /// Every binding of `type` under the child's rules (see `Injection/resolveAll(_:)`).
  ///
  /// - Throws: ``ResolutionError/childInjectorEnded`` after ``end()`` (also when the child ends while the
  ///   call runs), and what `resolveAll` throws.
  public func resolveAll<Value>(_ type: Value.Type = Value.self) throws -> [Value] {
    try whileActive { try Injection.resolveAll(type) }
  }

  /// `body` under the child's rules, which must apply from its start to its end: a child ended meanwhile
  /// (by another thread, or its parent's end) may have answered with its parent's rules, or found nothing,
  /// so the call is an error of the ended child rather than a misleading answer.
  private func whileActive<Result>(_ body: () throws -> Result) throws -> Result {
    try checkActive()
    do {
      let result = try scope.run(body)
      try checkActive()
      return result
    } catch  where !isActive {
      throw ResolutionError.childInjectorEnded
    }
  }

  /// Runs `body` under the child's rules: reads, resolves, commits and modules there are the child's.
  ///
  /// Calling it after ``end()`` stops the program with a message saying so: `body` would run under
  /// rules that no longer apply, and what it committed would be lost. If the child ends while `body`
  /// runs (another thread, or `body` itself, calls `end()`, or its parent ends), the rest of `body` reads
  /// the rules beneath it — its parent's, or the process's when the parent ended too — and what it
  /// commits applies nowhere.
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
    // Descendants are ended from a work list, not recursively: a chain of children may be deep.
    var pending: [ChildInjector] = [self]
    while let next = pending.popLast() {
      next.scope.end()
      pending += next.children.withLock { $0.live() }
    }
  }

  private func checkActive() throws {
    guard isActive else { throw ResolutionError.childInjectorEnded }
  }
}

/// The children made from one child injector, held weakly (a child keeps its parent alive, not the
/// reverse).
private struct Children: Sendable {
  private struct Entry: Sendable {
    weak var child: ChildInjector?
  }
  private var entries: [Entry] = []
  /// Dropped children are forgotten when the list reaches this size, which then doubles if the live ones
  /// still fill half of it: adding stays amortized constant however many children live at once.
  private var pruneAt = 16

  mutating func add(_ child: ChildInjector) {
    if entries.count >= pruneAt {
      entries.removeAll { $0.child == nil }
      if entries.count * 2 >= pruneAt { pruneAt *= 2 }
    }
    entries.append(Entry(child: child))
  }

  /// The children still alive.
  func live() -> [ChildInjector] { entries.compactMap(\.child) }
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
