import InjectionKernel
import InjectionTesting
import MatrixSupport
import Testing

// InjectionTesting with the kernel alone: its traits scope any plugin's rules, here @Probe's.

private final class Sign {
  @Probe var text: String?
}

private final class Refused {
  @Probe var text: String?
}

@Suite struct TestingAloneTests {
  @Test(.injecting { lets in lets.probe("scoped", in: Sign.self) })
  func aTraitScopesAThirdPartyRule() throws {
    #expect(Sign().text == "scoped")
    try Injection.probe("inside", in: Sign.self)  // a commit inside the scope stays in it
    #expect(Sign().text == "inside")
  }

  @Test func outsideEveryScopeNothingLeaks() throws {
    try Injection.withOverrides({ lets in lets.probe("scoped", in: Refused.self) }) {
      #expect(Refused().text == "scoped")
    }
    #expect(Refused().text == nil)
    #expect(throws: InjectionError.self) {
      try Injection.withOverrides({ lets in lets.probe("x", in: Unmarked.self) }) {}
    }
  }
}

private final class Unmarked {}
