import InjectPlugin
import MatrixSupport
import Testing

// InjectPlugin alone (plus the kernel-only @Probe on every fixture).

private final class Clock: Sendable {
  let now: String
  init(now: String) { self.now = now }
}

private final class Dashboard {
  @Inject var clock: Clock
  @Inject var title: String?
  @Probe var probe: String?
}

private final class Refused {
  @Inject var count: Int
  @Probe var probe: String?
}

@Suite struct InjectAloneTests {
  @Test func injectsBesideAProbe() throws {
    try Injection.inject(Clock.self).declared(in: Dashboard.self).value(Clock(now: "noon"))
    try Injection.inject(String?.self).declared(in: Dashboard.self).value("Home")
    try Injection.probe("probed", in: Dashboard.self)
    let dashboard = Dashboard()
    #expect(dashboard.clock.now == "noon" && dashboard.title == "Home" && dashboard.probe == "probed")
    #expect(Injection.injectedPlugins(of: Dashboard.self) == ["Inject", "Probe"])

    // Rejecting one plugin's injections leaves the other's.
    try Injection.inject(String?.self).declared(in: Dashboard.self).reject()
    #expect(dashboard.title == nil && dashboard.probe == "probed" && dashboard.clock.now == "noon")
    try Injection.rejectProbe(in: Dashboard.self)
    #expect(dashboard.probe == nil && dashboard.clock.now == "noon")
  }

  @Test func rejectsAWrongTypedInjectionAndAppliesNothing() throws {
    #expect(throws: InjectionError.self) {
      try Injection.inject(String.self).declared(in: Refused.self).value("three")
    }
    #expect(!Injection.isInjected(Refused.self, "count"))
    try Injection.probe("still works", in: Refused.self)
    #expect(Refused().probe == "still works")
  }
}
