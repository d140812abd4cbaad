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
      let done = DispatchSemaphore(value: 0)
      let thread = Thread {  // a small stack: the cycle stops when it is nearly used up
        _ = LazyCycleA()
        done.signal()
      }
      thread.stackSize = 256 * 1024
      thread.start()
      _ = done.wait(timeout: .now() + 20)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("a cycle of fills"))
    #expect(message.contains("LazyPluginTests.LazyCycleA.b: LazyPluginTests.LazyCycleB → "))
  }
}
