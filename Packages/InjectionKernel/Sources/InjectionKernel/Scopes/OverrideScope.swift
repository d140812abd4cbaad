import Synchronization

/// An override scope held by an object instead of a closure: its rules apply to whatever runs inside
/// ``run(_:)-(()->Result)`` until the scope ends — explicitly with ``end()``, or when the object is
/// released. What a container's child injector is made of.
///
/// ```swift
/// let child = try OverrideScope { lets in try lets.inject(Clock.self).value(FixedClock()) }
/// child.run { Report().stamp }  // the child's clock; the process, and other tasks, keep theirs
/// ```
///
/// The scope's parent is the scope the creating task was in (or the process); rules committed inside
/// `run` stay in the scope. While any scope is active, slots its rules select take the slow path of
/// reads in every task (see ``Injection/withOverrides(_:_:)-(_,()->Result)``).
public final class OverrideScope: Sendable {
  let scope: InjectionScope
  private let ended = Atomic<Bool>(false)

  /// A scope inside the calling task's current one, with the rules `configure` records.
  ///
  /// - Throws: the typed errors of ``Injection/commit(_:)``; the scope is ended then.
  public init(_ configure: (InjectionRules) throws -> Void = { _ in }) throws {
    scope = InjectionScope.begin()
    do {
      try InjectionScope.$entered.withValue(scope) { try Injection.commitOverrides(configure) }
    } catch {
      scope.end()
      ended.store(true, ordering: .releasing)
      throw error
    }
  }

  deinit { end() }

  /// Runs `body` inside the scope: its reads, commits and plugin state see the scope's rules.
  public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
    try InjectionScope.$entered.withValue(scope, operation: body)
  }

  /// The `async` form of ``run(_:)-(()->Result)``.
  public func run<Result>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result)
    async rethrows -> Result
  {
    try await InjectionScope.$entered.withValue(scope, operation: body)
  }

  /// Whether the scope still applies.
  public var isActive: Bool { !ended.load(ordering: .acquiring) }

  /// Ends the scope (once; later calls do nothing): its rules stop applying, also inside ``run(_:)-(()->Result)``.
  public func end() {
    guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
    scope.end()
  }
}
