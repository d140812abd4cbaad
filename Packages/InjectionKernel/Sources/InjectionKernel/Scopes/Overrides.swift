/// Override scopes: injections that apply to one task and its child tasks only, for as long as a closure
/// runs — the way to give each test its own dependencies while tests run in parallel.
extension Injection {
  /// Runs `body` with the injections `configure` records applied only to the calling task and the
  /// tasks it creates, then restores exactly what was there.
  ///
  /// ```swift
  /// try Injection.withOverrides({ lets in
  ///   try lets.inject(Clock.self).value(FixedClock())
  /// }) {
  ///   #expect(Report().stamp == "2024-01-01")  // any instance, created before or inside the scope
  /// }
  /// ```
  ///
  /// Inside the scope:
  /// - reads of any instance's marked properties see the scope's injections, over its enclosing scopes'
  ///   and the process's; reads in other tasks never do;
  /// - every commit (``commit(_:)``, plugins' entry points, imperative blocks, `rejectAll`) changes the
  ///   scope, not the process, and so do plugins' ``ScopedState``s;
  /// - a value a fill (`@Lazy`) creates from the scope's overrides is kept by the scope, never by the
  ///   instance, so it does not outlive the scope; writes to a property still write the instance.
  ///
  /// Task-local values reach child tasks (`async let`, task groups, `Task { }`), not a `Thread` or a
  /// `DispatchQueue` block: such code sees the process's injections. Run it inside the scope from a task,
  /// or capture what it needs before leaving the task. A `Task { }` that outlives the scope sees the
  /// process's injections once the scope has ended; a commit it makes then throws
  /// ``InjectionError/overrideScopeEnded`` (its ``ScopedState`` changes stay in the ended scope, where
  /// they apply nowhere): nothing it does reaches the process.
  ///
  /// - Throws: the typed errors of ``commit(_:)``, raised where the override is written (nothing is
  ///   applied then), and whatever `body` throws.
  public static func withOverrides<Result>(
    _ configure: (InjectionRules) throws -> Void, _ body: () throws -> Result
  ) throws -> Result {
    let scope = InjectionScope.begin()
    defer { scope.end() }
    return try InjectionScope.$entered.withValue(scope) {
      try commitOverrides(configure, overridingProperties: true)
      return try body()
    }
  }

  /// The `async` form of ``withOverrides(_:_:)-(_,()->Result)``: `body` and every child task it creates
  /// see the overrides.
  public static func withOverrides<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ configure: (InjectionRules) throws -> Void, _ body: () async throws -> Result
  ) async throws -> Result {
    let scope = InjectionScope.begin()
    defer { scope.end() }
    return try await InjectionScope.$entered.withValue(scope) {
      try commitOverrides(configure, overridingProperties: true)
      return try await body()
    }
  }

  /// Runs `body` as if outside every override scope: its reads see the process's injections, and its
  /// commits go to the process for every task. For one-time app wiring that a test may happen to reach
  /// first — a `static let` that wires the app, used from inside a test's scope, would otherwise commit
  /// into that test's scope alone and be gone for the others. Never for a test's own fakes.
  ///
  /// ```swift
  /// enum AppWiring {
  ///   static let done: Void = Injection.outsideOverrides { try! wireTheApp() }
  /// }
  /// ```
  @discardableResult
  public static func outsideOverrides<Result>(_ body: () throws -> Result) rethrows -> Result {
    // Outside any batch being recorded too: such wiring is reached from an override's rules or a module's
    // configure as well.
    try InjectionRules.notRecording { try InjectionScope.$entered.withValue(nil, operation: body) }
  }

  /// Runs `body` in a scope of its own with no overrides yet: whatever it commits — injections,
  /// rejections, `rejectAll` — stays inside it and is gone when it returns.
  public static func withIsolatedInjections<Result>(_ body: () throws -> Result) rethrows -> Result {
    let scope = InjectionScope.begin()
    defer { scope.end() }
    return try InjectionScope.$entered.withValue(scope, operation: body)
  }

  /// The `async` form of ``withIsolatedInjections(_:)-(()->Result)``.
  public static func withIsolatedInjections<Result>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
  ) async rethrows -> Result {
    let scope = InjectionScope.begin()
    defer { scope.end() }
    return try await InjectionScope.$entered.withValue(scope, operation: body)
  }

  /// Whether the calling task runs inside an override scope.
  public static var isInsideOverrideScope: Bool { InjectionScope.anyActive && InjectionScope.current != nil }

  /// Records `configure`'s rules and commits them into the scope the calling task has just entered (a
  /// `withOverrides` scope, an ``OverrideScope``). With `overridingProperties` (a `withOverrides` scope:
  /// a test's override), a rule by type alone that reaches no property while properties are declared with
  /// a type its values fit is a mistake (see ``InjectionRules/meantForProperties``).
  static func commitOverrides(_ configure: (InjectionRules) throws -> Void, overridingProperties: Bool = false) throws {
    let rules = InjectionRules()
    rules.meantForProperties = overridingProperties
    try rules.recording(configure)
    if !rules.changes.isEmpty || !rules.recordedAtCommit.isEmpty || !rules.commitActions.isEmpty
      || !rules.afterCommitActions.isEmpty
      || !rules.validations.isEmpty
    {
      // Into the scope just begun, not a batch being recorded around it (a child injector made in a
      // module's configure): no leak. A failure after the commit ends the scope all the same (its
      // caller ends it on any error), so nothing stays applied: the error is the action's own.
      do {
        try InjectionRules.notRecording { _ = try commit(rules) }
      } catch let error as BatchAppliedError {
        throw error.underlying
      }
    } else {
      rules.markEnded()  // nothing to apply, but a rule recorded on it later would apply nowhere too
    }
  }
}
