import InjectPlugin
import InjectionKernel
import InjectionTesting
import Testing

private final class Clock: Sendable {
  let now: String
  init(_ now: String) { self.now = now }
}

private final class Report {
  @Inject var clock: Clock
}

/// The suite's tests run in parallel, each in its own scope: the trait's override and whatever a test
/// commits reach that test only.
@Suite(.injecting { lets in try lets.inject(Clock.self).declared(in: Report.self).value(Clock("suite")) })
struct InjectingSuiteTests {
  @Test func seesTheSuitesOverride() {
    #expect(Report().clock.now == "suite")
    #expect(Injection.isInsideOverrideScope)
  }

  @Test(.injecting { lets in try lets.inject(Clock.self).declared(in: Report.self).value(Clock("test")) })
  func aTestsOwnOverrideWins() {
    #expect(Report().clock.now == "test")
  }

  @Test(arguments: ["a", "b", "c", "d"])  // the cases run in parallel, each in a scope of its own
  func changesStayInTheTestCase(label: String) async throws {
    try Injection.inject(Clock.self).declared(in: Report.self).value(Clock(label))
    for _ in 0..<50 {
      #expect(Report().clock.now == label)
      await Task.yield()
    }
  }

  @Test func anotherTestSeesNoOtherTestsChanges() async {
    for _ in 0..<50 {
      #expect(Report().clock.now == "suite")
      await Task.yield()
    }
  }
}

private final class Mailer: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class Outbox {
  @Inject var mailer: Mailer?
}

@Suite(.isolatedInjections)
struct IsolatedSuiteTests {
  @Test func rejectAllStaysInsideTheTest() throws {
    try Injection.inject(Mailer?.self).declared(in: Outbox.self).value(Mailer("mine"))
    #expect(Outbox().mailer?.name == "mine")
    try Injection.rejectAllInjections()
    #expect(Outbox().mailer == nil)
  }

  @Test func eachTestStartsFromTheProcessState() {
    #expect(Outbox().mailer == nil)
  }
}

@Test func aMistakenTraitFailsTheTestBeforeItRuns() async {
  let trait = InjectionOverrideTrait.injecting { lets in
    try lets.inject(String.self).declared(in: Outbox.self).value("not a mailer")
  }
  await #expect(throws: InjectionError.self) {
    try await trait.provideScope(for: Test.current!, testCase: nil) {
      Issue.record("the test body must not run")
    }
  }
}
