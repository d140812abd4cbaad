import AuditPlugin
import EnvPlugin
import InjectionKernel
import MatrixSupport
import Testing

// The kernel with the third-party plugins only (AuditPlugin, EnvPlugin, and the matrix's @Probe): no
// first-party plugin is imported.

private final class Service {
  @Env("SERVICE_NAME") var name = "anonymous"
  @Audited var requests = 0
  @Probe var probe: String?
}

private final class Plain {
  var nothingMarked = 0
}

@Suite struct ThirdPartyPluginsTests {
  @Test func threeOutsidePluginsOnOneClass() throws {
    let log = AuditLog()
    try Injection.withOverrides({ lets in
      lets.injectEnvironment(in: Service.self)
      lets.useEnvironment(["SERVICE_NAME": "billing"])
      lets.audit(log, in: Service.self)
      lets.probe("probed", in: Service.self)
    }) {
      let service = Service()
      service.requests += 1
      #expect(service.name == "billing" && service.requests == 1 && service.probe == "probed")
      #expect(log.reads(of: "requests") == 2)
      #expect(Injection.injectedPlugins(of: Service.self) == ["Audit", "Env", "Probe"])

      try Injection.rejectProbe(in: Service.self)
      #expect(service.probe == nil && service.name == "billing" && service.requests == 1)
    }
    #expect(Service().name == "anonymous")  // the scope is over: nothing was injected for the process
  }

  @Test func outsidePluginsRefuseAClassWithoutTheirMarkers() {
    #expect(throws: InjectionError.self) { try Injection.injectEnvironment(in: Plain.self) }
    #expect(throws: InjectionError.self) {
      let rules = InjectionRules()
      rules.audit(AuditLog(), in: Plain.self)
      try Injection.commit(rules)
    }
  }
}
