public import InjectionKernel
public import Testing

/// A Swift Testing trait that runs a test — or each test of a suite — inside an override scope of its
/// own (`InjectionKernel/Injection/withOverrides(_:_:)-(_,()->Result)`): the injections it records
/// apply to that test and the tasks it creates only, and whatever the test commits itself stays inside
/// it. Tests running in parallel never see each other's injections.
///
/// ```swift
/// @Test(.injecting { lets in try lets.inject(Clock.self).value(FixedClock()) })
/// func stampsReports() { … }
///
/// @Suite(.isolatedInjections)  // each test starts from the process's injections; its changes stay in it
/// struct CheckoutTests { … }
/// ```
public struct InjectionOverrideTrait: TestTrait, SuiteTrait, TestScoping {
  /// Records the overrides, as an imperative block does.
  let configure: @Sendable (InjectionRules) throws -> Void

  /// On a suite, the trait applies to each of its tests (and nested suites' tests) separately.
  public var isRecursive: Bool { true }

  /// One scope per test case (each case of a parameterized test gets its own, as cases run in
  /// parallel); suites get none of their own, their tests get theirs.
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    test.isSuite || testCase == nil ? nil : self
  }

  /// Runs the test inside a new override scope with the trait's injections.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await Injection.withOverrides(configure) { try await function() }
  }
}

extension Trait where Self == InjectionOverrideTrait {
  /// Runs the test (each test, on a suite) with the injections `configure` records, seen by that test
  /// and its tasks only. An override that would be a mistake in a commit — a type mismatch, a selection
  /// that matches nothing — fails the test before it runs, with the same typed error.
  public static func injecting(_ configure: @escaping @Sendable (InjectionRules) throws -> Void) -> Self {
    InjectionOverrideTrait(configure: configure)
  }

  /// Runs the test (each test, on a suite) in a clean scope on top of the process's injections:
  /// whatever it commits — injections, rejections, `rejectAll` — stays inside it.
  public static var isolatedInjections: Self { InjectionOverrideTrait(configure: { _ in }) }
}
