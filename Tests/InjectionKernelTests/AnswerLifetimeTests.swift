import InjectionKernel
import Synchronization
import TestSupport
import Testing

/// Counts its live instances (each test has its own counter).
private final class Probe: Sendable {
  let live: Counter
  init(_ live: Counter) {
    self.live = live
    live.increment()
  }
  deinit { live.decrement() }
}

private final class GetterLifetimeHost {
  @Tracked var probe: Probe
}

private final class ReplacedLifetimeHost {
  @Tracked var probe: Probe
}

private final class DyingLifetimeHost {
  @Tracked var probe: Probe
}

private func inject(_ injection: PropertyInjection<Probe>, into owner: AnyClass) throws {
  let rules = InjectionRules()
  rules.add(injection, to: PropertySelection(plugin: TrackedPlugin.id).declared(in: owner))
  try Injection.commit(rules)
}

/// Reads hand out their answers without retaining them, so the kernel must keep each answer alive while
/// a read may use it — and no longer.
@Suite struct AnswerLifetimeTests {
  @Test func getterAnswersDoNotAccumulate() throws {
    let live = Counter()
    try inject(
      PropertyInjection(read: .getter { _, _, _ in Probe(live) }, summary: "fresh"), into: GetterLifetimeHost.self)
    let host = GetterLifetimeHost()
    for _ in 0..<1000 { #expect(host.probe.live === live) }
    #expect(live.count <= 1)  // only this thread's last answer
    host.probe = Probe(live)  // a write is a slow path: the thread lets its last answer go
    #expect(live.count == 1)  // the stored one
  }

  @Test func replacedAnswersLiveUntilTheInstanceIsWritten() throws {
    let live = Counter()
    let host = ReplacedLifetimeHost()
    weak var first: Probe?
    do {
      let probe = Probe(live)
      first = probe
      try inject(PropertyInjection(read: .value(probe), summary: "first"), into: ReplacedLifetimeHost.self)
      #expect(host.probe === probe)
    }
    try inject(PropertyInjection(read: .value(Probe(live)), summary: "second"), into: ReplacedLifetimeHost.self)
    #expect(host.probe !== first)
    // Another thread may still be using the first answer: the instance keeps it.
    #expect(first != nil)
    host.probe = Probe(live)
    #expect(first == nil)
    #expect(live.count == 2)  // the second injection's value and the stored one
  }

  @Test func answersDieWithTheirInstance() throws {
    let live = Counter()
    weak var first: Probe?
    var host: DyingLifetimeHost? = DyingLifetimeHost()
    do {
      let probe = Probe(live)
      first = probe
      try inject(PropertyInjection(read: .value(probe), summary: "first"), into: DyingLifetimeHost.self)
      #expect(host?.probe === probe)
    }
    try inject(PropertyInjection(read: .value(Probe(live)), summary: "second"), into: DyingLifetimeHost.self)
    #expect(host?.probe !== first)
    host = nil
    #expect(first == nil)
    #expect(live.count == 1)  // the second injection's value, held by its slot
  }
}
