import Foundation
import LazyPlugin
import Testing

// Classes whose initializers read each other's `@Lazy` property: each fill builds a new instance whose
// initializer fills again. Before, the stack overflowed with no message (found by review H71).

private final class LazyCycleA: LazyConstructible, @unchecked Sendable {  // marked properties only
  @Lazy var b: LazyCycleB
  init() { _ = b }
}
private final class LazyCycleB: LazyConstructible, @unchecked Sendable {  // marked properties only
  @Lazy var a: LazyCycleA
  init() { _ = a }
}

extension LazyCycleTests {
  @Test func lazyPropertiesWhoseFactoriesNeedEachOtherStopWithTheChain() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.injectLazy(in: LazyCycleA.self, LazyCycleB.self)
      _ = LazyCycleA()
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("a cycle of fills"))
    #expect(message.contains("LazyPluginTests.LazyCycleA.b: LazyPluginTests.LazyCycleB → "))
  }
}
