import ForcePlugin
import Testing

// The README's examples, compiled and run (on the shared injector, hence nested in the serialized
// `SharedInjectorTests`). Types are private to this file.

private final class PaymentGateway: Sendable {
  let sandbox: Bool
  init(sandbox: Bool) { self.sandbox = sandbox }
}

private final class Session: Sendable {}

private protocol Analytics: AnyObject {}
private final class AnalyticsService: Analytics, Sendable {}
private final class RequestID: Sendable {}

private final class Checkout {
  var gateway: PaymentGateway?
  var session: Session?
  var retries = 0
  let id = 1  // a let is never written
}

private final class ProfileScreen: FillObserver {
  var analytics: (any Analytics)?
  var serviceBox: ServiceBox?
  var isReady = false
  func didInjectDependencies(_ report: FillReport) { isReady = true }
}

private final class SettingsScreen {
  var analytics: (any Analytics)?
  init(box: ServiceBox = .default) {
    box.fill(self)
  }
}

extension SharedInjectorTests {
  @Suite struct ReadmeExamples {
    @Test func decisionClosure() throws {
      let gateway = PaymentGateway(sandbox: true)
      try Injection.forceInject(in: Checkout.self) { property in
        switch property.name {
        case "gateway": return .value(gateway)  // the same value for every instance
        case "session": return .provider { Session() }  // a new value for each filled instance
        default: return .skip  // DeluxeInjection's `doNotInject`
        }
      }
      let checkout = try Injection.fill(Checkout())
      #expect(checkout.gateway === gateway)
      #expect(checkout.session != nil)
      #expect(checkout.retries == 0 && checkout.id == 1)
      try Injection.forceReject { $0.isDeclared(in: Checkout.self) }
    }

    @Test func keyedRule() throws {
      func applySession(_ session: Session) throws {
        // However often the session changes, one rule holds it.
        try Injection.forceInject(in: Checkout.self, key: "checkout.session") { property in
          property.name == "session" ? .value(session) : .skip
        }
      }
      try applySession(Session())
      try applySession(Session())
      #expect(try Injection.fill(Checkout()).session != nil)
      try Injection.forceReject { $0.isDeclared(in: Checkout.self) }
    }

    @Test func serviceBox() {
      let box = ServiceBox()
      box.register(AnalyticsService(), as: "analytics")
      box.register("requestID") { RequestID() }  // a provider: a new value for each fill
      let screen = ProfileScreen()
      let report = box.fill(screen)
      #expect(screen.analytics != nil && screen.serviceBox === box)
      #expect(report.skipReason(for: "requestID") == .noSuchProperty)
      #expect(screen.isReady)
    }

    @Test func selfFilling() {
      let box = ServiceBox()
      let analytics = AnalyticsService()
      box.register(analytics, as: "analytics")
      #expect(SettingsScreen(box: box).analytics === analytics)
    }
  }
}
