import ImperativePlugin
import InjectPlugin
import InjectionKernel
import LazyPlugin
import Testing

// The README's examples, compiled and run. Types are private to this file.

private final class PaymentGateway: Sendable {
  let sandbox: Bool
  init(sandbox: Bool) { self.sandbox = sandbox }
}

private final class CheckoutViewModel {
  @Inject var gateway: PaymentGateway
  @Lazy var basket: [String]
}

@Suite(.serialized)  // the dry run must not observe the commit of the other example
struct ReadmeExamples {
  @Test func imperativeBlock() throws {
    try Injection.imperative { lets in
      lets.checkCompleteness(in: CheckoutViewModel.self)
      try lets.inject(PaymentGateway.self).value(PaymentGateway(sandbox: true))
      lets.injectLazy(in: CheckoutViewModel.self)
    }
    let model = CheckoutViewModel()
    #expect(model.gateway.sandbox)
    #expect(model.basket.isEmpty)
  }

  @Test func dryRun() throws {
    let property = try #require(Injection.declaredProperties(of: CheckoutViewModel.self).first { $0.name == "gateway" })
    let before = Injection.injection(for: property)
    let plan = try Injection.imperativeDryRun { lets in
      try lets.inject(PaymentGateway.self).value(PaymentGateway(sandbox: false))
    }
    print(plan)  // one line per property and injection, then unmatched selections and empty properties
    #expect(plan.plan.entries.contains { $0.property.declaringClass == CheckoutViewModel.self })
    #expect(Injection.injection(for: property) === before)  // nothing was applied
  }
}
