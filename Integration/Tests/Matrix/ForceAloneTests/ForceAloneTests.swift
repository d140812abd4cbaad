import ForcePlugin
import MatrixSupport
import Testing

// ForcePlugin alone (plus the kernel-only @Probe): force rules fill plain stored properties and never
// touch a marked one.

private final class Gateway: Sendable {}

private final class Checkout {
  var gateway: Gateway?
  var retries = 0
  @Probe var probe: String?
}

// Its own class: the test above injects Checkout's probe while this one runs beside it.
private final class Register {
  var retries = 0
  @Probe var probe: String?
}

@Suite struct ForceAloneTests {
  @Test func fillsPlainPropertiesAndNeverOffersTheMarkedOne() throws {
    let injector = ForceInjector()
    let gateway = Gateway()
    let offered = LockedState<[String]>([])
    try injector.forceInject(in: Checkout.self) { property in
      offered.withLock { $0.append(property.name) }
      switch property.name {
      case "gateway": return .value(gateway)
      case "retries": return .value(3)
      default: return .skip
      }
    }
    try Injection.probe("probed", in: Checkout.self)
    let checkout = Checkout()
    try injector.fill(checkout)
    #expect(checkout.gateway === gateway && checkout.retries == 3 && checkout.probe == "probed")
    #expect(Set(offered.withLock { $0 }) == ["gateway", "retries"])

    injector.forceReject { $0.name == "retries" }
    let second = Checkout()
    try injector.fill(second)
    #expect(second.gateway === gateway && second.retries == 0 && second.probe == "probed")
    try Injection.rejectProbe(in: Checkout.self)
    #expect(second.probe == nil && second.gateway === gateway)
  }

  @Test func rejectsAValueThatDoesNotFit() throws {
    let injector = ForceInjector()
    #expect(throws: ForceError.self) {
      try injector.forceInject(in: Register.self) { $0.name == "retries" ? .value("three") : .skip }
    }
    let register = Register()
    try injector.fill(register)
    #expect(register.retries == 0 && register.probe == nil)
  }
}
