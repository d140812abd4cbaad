/// The override scope or child injector the calling task runs in (or the process, outside any), captured
/// to run code in it later — on a `Thread`, a `DispatchQueue`, in a `Task.detached` — which would
/// otherwise read the process's injections: the task-local scope does not travel there.
///
/// ```swift
/// try await Injection.withOverrides({ lets in try lets.inject(Clock.self).value(FixedClock()) }) {
///   let context = InjectionContext.current
///   queue.async { context.run { Report().stamp } }  // the override's clock, not the process's
/// }
/// ```
///
/// A context outlives nothing: once its scope has ended, code run in it reads what the scopes around it
/// (or the process) decide, and its commits throw ``InjectionError/overrideScopeEnded``, as for a task
/// that outlived its scope. ``isActive`` tells whether it still applies.
public struct InjectionContext: Sendable {
  /// The scope captured (`nil`: the process).
  private let scope: InjectionScope?

  /// The calling task's context.
  public static var current: InjectionContext { InjectionContext(scope: InjectionScope.forChanges) }

  /// Whether the captured scope still applies (always `true` for the process).
  public var isActive: Bool { scope?.isActive ?? true }

  /// Whether code running in `other` sees this context's rules beneath its own: `other` is this context,
  /// or a scope begun inside it (the process encloses every context).
  public func encloses(_ other: InjectionContext) -> Bool {
    guard let scope else { return true }
    var candidate = other.scope
    while let inner = candidate {
      if inner === scope { return true }
      candidate = inner.parent
    }
    return false
  }

  /// Runs `body` in the captured context: its reads, resolves and commits are those of that scope.
  public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
    try InjectionScope.$entered.withValue(scope, operation: body)
  }

  /// The `async` form of ``run(_:)-(()->Result)``: `body` and the tasks it awaits run in the context.
  public func run<Result>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result)
    async rethrows -> Result
  {
    try await InjectionScope.$entered.withValue(scope, operation: body)
  }
}
