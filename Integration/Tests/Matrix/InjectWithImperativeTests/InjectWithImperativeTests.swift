import ImperativePlugin
import InjectPlugin
import MatrixSupport
import Testing

// InjectPlugin with ImperativePlugin: @Inject and @Probe on one class, configured in one block.

private final class Api: Sendable {
  let host: String
  init(host: String) { self.host = host }
}

private final class Session {
  @Inject var api: Api
  @Inject var token: String?
  @Probe var probe: String?
}

private final class Incomplete {
  @Inject var api: Api
  @Probe var label: String
}

@Suite struct InjectWithImperativeTests {
  @Test func oneBlockInjectsBothPlugins() throws {
    let plan = try Injection.imperative { lets in
      lets.checkCompleteness(in: Session.self)
      try lets.inject(Api.self).declared(in: Session.self).value(Api(host: "example.org"))
      try lets.inject(String?.self).declared(in: Session.self).value("t0k3n")
      lets.probe("probed", in: Session.self)
    }
    #expect(Set(plan.entries.compactMap(\.property.plugin?.name)) == ["Inject", "Probe"])
    let session = Session()
    #expect(session.api.host == "example.org" && session.token == "t0k3n" && session.probe == "probed")

    try Injection.imperative { lets in
      lets.skipChecks()
      try lets.inject(String?.self).declared(in: Session.self).reject()
    }
    #expect(session.token == nil && session.probe == "probed" && session.api.host == "example.org")
  }

  @Test func completenessNamesEachPluginsMissingProperty() throws {
    let plan = try Injection.imperativeDryRun { lets in lets.checkCompleteness(in: Incomplete.self) }
    #expect(
      plan.missing == [
        "InjectWithImperativeTests.Incomplete.api: InjectWithImperativeTests.Api (Inject)",
        "InjectWithImperativeTests.Incomplete.label: Swift.String (Probe)",
      ])
    #expect(throws: InjectionError.self) {
      try Injection.imperative { lets in
        lets.checkCompleteness(in: Incomplete.self)
        lets.probe("only half", in: Incomplete.self)
      }
    }
    #expect(!Injection.isInjected(Incomplete.self, "label"))
  }
}
