import AuditPlugin
import InjectionKernel
import Testing

// The README's examples, compiled and run.

private final class Cart {
  @Audited var total = 0.0
  @Audited var coupon: String? = nil
}

@Suite struct AuditReadmeExamples {
  @Test func countsReads() throws {
    let log = AuditLog()
    try Injection.audit(log, in: Cart.self)
    let cart = Cart()
    cart.total += 9.5  // a read and a write
    #expect(cart.total == 9.5)  // a second read
    #expect(log.reads(of: "total") == 2)
    #expect(log.reads(of: "coupon") == 0)
  }
}
