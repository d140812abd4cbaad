import AuditPlugin
import Foundation
import InjectionKernel
import Testing

private final class Meter {
  @Audited var level = 1
  @Audited var label = "meter"
}

private class Base {
  @Audited var inherited = "base"
}

private final class Derived: Base {
  @Audited var own = 0
}

private final class Toggled {
  @Audited var value = 7
}

private final class Shared {
  @Audited var counter = 0
}

private final class NoMarkers {
  var plain = 0
}

@Suite struct AuditTests {
  @Test func readsAreCountedPerPropertyAndWritesKeepTheirValue() throws {
    let log = AuditLog()
    try Injection.audit(log, in: Meter.self)
    let meter = Meter()
    meter.level = 5
    #expect(meter.level == 5 && meter.level == 5)
    #expect(meter.label == "meter")
    #expect(log.reads(of: "level") == 2 && log.reads(of: "label") == 1)
    #expect(Injection.report().contains("AuditPluginTests.Meter.level: Swift.Int <- audited (Audit)"))
  }

  @Test func subclassesInheritTheAuditOfTheirSuperclass() throws {
    let log = AuditLog()
    try Injection.imperative(log: log)
    let derived = Derived()
    _ = derived.inherited
    _ = derived.own
    #expect(log.reads(of: "inherited") == 1 && log.reads(of: "own") == 1)
  }

  @Test func rejectingMakesThePropertyPlainAgain() throws {
    let log = AuditLog()
    try Injection.audit(log, in: Toggled.self)
    let toggled = Toggled()
    _ = toggled.value
    try Injection.rejectAudit(in: Toggled.self)
    #expect(toggled.value == 7)
    #expect(log.reads(of: "value") == 1)
    #expect(!Injection.isInjected(Toggled.self, "value"))
  }

  @Test func aClassWithoutAuditedPropertiesIsRefused() {
    #expect(throws: InjectionError.self) { try Injection.audit(AuditLog(), in: NoMarkers.self) }
  }

  @Test func readsFromManyThreadsAreCountedExactly() throws {
    let log = AuditLog()
    try Injection.audit(log, in: Shared.self)
    // Marked properties are safe to read from any thread: that is what this test counts on.
    let shared = UncheckedSendable(Shared())
    let threads = 4
    let readsPerThread = 1_000
    let done = DispatchSemaphore(value: 0)
    for _ in 0..<threads {
      Thread {
        for _ in 0..<readsPerThread { _ = shared.value.counter }
        done.signal()
      }.start()
    }
    for _ in 0..<threads { done.wait() }
    #expect(log.reads(of: "counter") == threads * readsPerThread)
  }
}

extension Injection {
  /// Audits `Base` and `Derived` in one batch (the kernel's own commit: no ImperativePlugin here).
  fileprivate static func imperative(log: AuditLog) throws {
    let rules = InjectionRules()
    rules.audit(log, in: Base.self, Derived.self)
    try commit(rules)
  }
}
