import Dispatch
import InjectionKernel
import Synchronization
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
    let done = Atomic<Bool>(false)
    let badReads = Atomic<Int>(0)
    let reads = Atomic<Int>(0)
    let commits = 3000
    let selection = PropertySelection(plugin: TrackedPlugin.id).declared(in: ConcurrentHost.self)
    DispatchQueue.concurrentPerform(iterations: 9) { worker in
      if worker == 0 {
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
        done.store(true, ordering: .releasing)
      } else {
        while !done.load(ordering: .acquiring) {
          for host in hosts {
            reads.add(1, ordering: .relaxed)
            if let level = host.level, !(1...commits).contains(abs(level)) { badReads.add(1, ordering: .relaxed) }
            if let label = host.label, !label.hasPrefix("v") { badReads.add(1, ordering: .relaxed) }
          }
        }
      }
    }
    #expect(badReads.load(ordering: .relaxed) == 0)
    #expect(reads.load(ordering: .relaxed) > 0)
  }
}
