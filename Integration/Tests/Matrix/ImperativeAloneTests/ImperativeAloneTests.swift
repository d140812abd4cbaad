import ImperativePlugin
import MatrixSupport
import Testing

// ImperativePlugin alone: its block carries any plugin's verbs, here only the kernel-only @Probe's.

private final class Banner {
  @Probe var text: String
  @Probe var probe: String?
}

private final class Forgotten {
  @Probe var text: String
}

private final class Bystander {
  @Probe var probe: String?
}

@Suite struct ImperativeAloneTests {
  @Test func oneBlockCommitsAThirdPartyPluginsVerbs() throws {
    let plan = try Injection.imperative { lets in
      lets.checkCompleteness(in: Banner.self)
      lets.probe("hello", in: Banner.self)
    }
    #expect(plan.catalogPasses <= 1)
    let banner = Banner()
    #expect(banner.text == "hello" && banner.probe == "hello")
    try Injection.imperative { lets in
      lets.skipChecks()
      lets.rejectProbe(in: Banner.self)
    }
    #expect(banner.probe == nil)
  }

  @Test func aForgottenPropertyFailsTheBlockAndNothingIsApplied() throws {
    #expect(throws: InjectionError.self) {
      try Injection.imperative { lets in
        lets.checkCompleteness(in: Forgotten.self, Bystander.self)
        lets.probe("partial", in: Bystander.self)
      }
    }
    #expect(Bystander().probe == nil)
    let plan = try Injection.imperativeDryRun { lets in lets.checkCompleteness(in: Forgotten.self) }
    #expect(plan.missing == ["ImperativeAloneTests.Forgotten.text: Swift.String (Probe)"])
  }
}
