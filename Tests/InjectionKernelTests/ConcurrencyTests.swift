import InjectionKernel
import TestSupport
import Testing

private final class ConcurrentHost: @unchecked Sendable {  // read-only across threads in the test
  @Tracked var level: Int?
  @Tracked var label: String?
}

@Suite struct ConcurrencyTests {
  /// 8 threads read while one thread injects, re-injects and rejects thousands of times: every read
  /// returns a value some commit installed (or nil after a rejection), and nothing crashes.
  @Test func readsDuringInjectionAndRejectionNeverTear() throws {
    let hosts = (0..<4).map { _ in ConcurrentHost() }
    let badReads = Counter()
    let reads = Counter()
    let commits = 3000
    let selection = PropertySelection(plugin: TrackedPlugin.id).declared(in: ConcurrentHost.self)
    whileWriting(readers: 8) {
      for round in 1...commits {
        let rules = InjectionRules()
        switch round % 3 {
        case 0:
          rules.reject(selection)
        case 1:
          rules.add(PropertyInjection<Int?>(read: .value(round), summary: "value"), to: selection.ofType(Int?.self))
          rules.add(
            PropertyInjection<String?>(read: .value("v\(round)"), summary: "value"),
            to: selection.ofType(String?.self))
        default:
          rules.add(
            PropertyInjection<Int?>(read: .getter { _, _, _ in -round }, summary: "getter"),
            to: selection.ofType(Int?.self))
        }
        _ = try? Injection.commit(rules)
      }
    } read: {
      for host in hosts {
        reads.increment()
        if let level = host.level, !(1...commits).contains(abs(level)) { badReads.increment() }
        if let label = host.label, !label.hasPrefix("v") { badReads.increment() }
      }
    }
    #expect(badReads.count == 0)
    #expect(reads.count >= 8 * hosts.count)
  }
}
