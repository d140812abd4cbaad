import ForcePlugin
import Foundation
import TestSupport
import Testing

@Suite struct ConfigureOnceTests {
  /// OBInjector configured its injector before anyone used it: a call racing the first one waits for it.
  @Test func callsRacingTheFirstConfigurationWaitForItAndFindTheBoxConfigured() {
    let box = ServiceBox()
    let ran = Counter()
    let foundService = Counter()
    concurrently(threads: 8) { _ in
      let first = box.configureOnce { box in
        usleep(50_000)  // the others call meanwhile
        _ = box.register("svc", as: "service")
      }
      if first { ran.increment() }
      if box.lookup("service") as? String == "svc" { foundService.increment() }
    }
    #expect(ran.count == 1)
    #expect(foundService.count == 8)
  }

  @Test func aCallFromInsideConfigureReturnsFalseAtOnce() {
    let box = ServiceBox()
    var nested: Bool?
    #expect(box.configureOnce { box in nested = box.configureOnce { _ in } })
    #expect(nested == false)
  }
}
