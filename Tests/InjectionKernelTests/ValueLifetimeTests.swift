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

private final class ReinjectedLifetimeHost {
  @Tracked var probe: Probe
}

private final class WrittenLifetimeHost {
  @Tracked var probe: Probe?
}

/// A non-optional class value, which the instance stores without a box.
private final class WrittenObjectLifetimeHost {
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

/// The kernel holds a value only while something it serves needs it: the current injection, an
/// instance's stored value. A replaced value is released before the call that replaced it returns.
@Suite struct ValueLifetimeTests {
  @Test func getterAnswersAreNotKept() throws {
    let live = Counter()
    try inject(
      PropertyInjection(read: .getter { _, _, _ in Probe(live) }, summary: "fresh"), into: GetterLifetimeHost.self)
    let host = GetterLifetimeHost()
    for _ in 0..<1000 { #expect(host.probe.live === live) }
    #expect(live.count == 0)
  }

  @Test func aReplacedInjectionIsReleasedWhenTheCommitReturns() throws {
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
    #expect(first == nil)
    #expect(host.probe !== first)
    #expect(live.count == 1)  // the second injection's value, held by its slot
  }

  @Test func thousandReinjectionsReadByOneInstanceKeepOneValue() throws {
    let live = Counter()
    let host = ReinjectedLifetimeHost()
    var mostAlive = 0
    for round in 0..<1000 {
      let probe = Probe(live)
      try inject(PropertyInjection(read: .value(probe), summary: "round \(round)"), into: ReinjectedLifetimeHost.self)
      #expect(host.probe === probe)
      mostAlive = max(mostAlive, live.count)
    }
    #expect(mostAlive <= 2)  // this round's value and, until the commit returned, the previous one
    #expect(live.count == 1)
  }

  @Test func writesReleaseTheValuesTheyReplace() {
    let live = Counter()
    let host = WrittenLifetimeHost()
    for _ in 0..<1000 {
      host.probe = Probe(live)
      _ = host.probe
    }
    #expect(live.count == 1)
    host.probe = nil
    #expect(live.count == 0)
  }

  @Test func writesReleaseTheObjectsTheyReplaceAndTheLastDiesWithItsInstance() {
    let live = Counter()
    var host: WrittenObjectLifetimeHost? = WrittenObjectLifetimeHost()
    for _ in 0..<1000 {
      host?.probe = Probe(live)
      _ = host?.probe
    }
    #expect(live.count == 1)
    weak let last = host?.probe
    #expect(last != nil)
    host = nil
    #expect(last == nil)
    #expect(live.count == 0)
  }

  @Test func storedValuesDieWithTheirInstance() throws {
    let live = Counter()
    try inject(PropertyInjection(read: .value(Probe(live)), summary: "injected"), into: DyingLifetimeHost.self)
    var host: DyingLifetimeHost? = DyingLifetimeHost()
    weak var stored: Probe?
    do {
      let probe = Probe(live)
      stored = probe
      host?.probe = probe
    }
    #expect(host?.probe === stored)
    host = nil
    #expect(stored == nil)
    #expect(live.count == 1)  // the injection's value, held by its slot
  }
}
