import ForcePlugin
import Foundation
import Synchronization
import TestSupport
import Testing

// Boxes and injectors used from real threads (`concurrently`, `whileWriting`), under the thread sanitizer
// in `Scripts/test.sh`. Each test has its own box or injector and fixture classes.

private final class Service: Sendable {
  let id: Int
  init(id: Int) { self.id = id }
}

private final class BoxHost {
  var shared: Service?
  var own: Service?
}

private final class RuleHost {
  var service: Service?
  var number = 0
}

private final class FirstFillHost {  // filled with one of many candidate services
  var service: Service?
}

private final class CrossFilledSession: Sendable {}

private final class CrossFilledService: @unchecked Sendable {  // filled by its box, then only read
  var session: CrossFilledSession?
}

private final class CrossFilledScreen {
  var service: CrossFilledService?
}

@Suite struct Concurrency {
  @Test func aFillWaitsForTheServicesAnotherThreadIsFillingFromTheBox() {
    // Before, the second fill handed out the service the first was still filling (found by review H59):
    // its session was missing, then written behind the caller's back.
    let unfilled = Counter()
    for _ in 0..<10 {
      let box = ServiceBox()
      let providing = Counter()
      box.register("session") {
        providing.increment()
        usleep(20_000)
        return CrossFilledSession()
      }
      box.register(CrossFilledService(), as: "service")
      concurrently(threads: 2) { thread in
        if thread == 0 {
          box.fill(CrossFilledScreen())  // cross-fills the service: its session's provider takes a moment
        } else {
          while providing.count == 0 { sched_yield() }
          let screen = CrossFilledScreen()
          box.fill(screen)
          if screen.service?.session == nil { unfilled.increment() }
        }
      }
    }
    #expect(unfilled.count == 0)
  }

  @Test func registrationsLookupsAndFillsFromManyThreads() {
    let box = ServiceBox()
    let firstWins = Counter()
    let mismatches = Counter()
    concurrently(threads: 8) { thread in
      if box.register(Service(id: thread), as: "shared") { firstWins.increment() }
      box.register(Service(id: 100 + thread), as: "own\(thread)")
      for round in 0..<200 {
        let host = BoxHost()
        box.fill(host)
        let registered = box.lookup("shared") as? Service
        if host.shared == nil || host.shared !== registered { mismatches.increment() }
        if round % 50 == 0 {
          box.remove("own\(thread)")
          box.register(Service(id: 100 + thread), as: "own\(thread)")
        }
      }
    }
    #expect(firstWins.count == 1)
    #expect(mismatches.count == 0)
    #expect(box.count == 1 + 1 + 8)  // itself, "shared", one per thread
  }

  @Test func fillsWhileRulesChange() {
    let injector = ForceInjector()
    let wrong = Counter()
    let filled = Counter()
    whileWriting(readers: 4) {
      for round in 0..<300 {
        let service = Service(id: round)
        try? injector.forceInject(in: RuleHost.self) { property in
          property.name == "service" ? .value(service) : .value(round)
        }
        if round % 3 == 0 { injector.forceReject { $0.name == "number" } }
        if round % 10 == 0 { injector.forceRejectAll() }
      }
    } read: {
      let host = RuleHost()
      guard let report = try? injector.fill(host) else { return wrong.increment() }
      if report.didInject { filled.increment() }
      // Whatever rules a fill saw, it wrote whole values of the right type.
      if let service = host.service, service.id < 0 || service.id >= 300 { wrong.increment() }
      if host.number < 0 || host.number >= 300 { wrong.increment() }
    }
    #expect(wrong.count == 0)
    #expect(filled.count > 0)
  }

  @Test func concurrentFirstFillsOfAClassAllUseOneAnswer() {
    let injector = ForceInjector()
    try? injector.forceInject { property in
      property.isDeclared(in: FirstFillHost.self) ? .value(Service(id: Int.random(in: 0..<1_000_000))) : .skip
    }
    let first = Atomic<Int>(0)  // the id of the first service a fill wrote
    let others = Counter()
    let empty = Counter()
    concurrently(threads: 8) { _ in
      for _ in 0..<20 {
        let host = FirstFillHost()
        _ = try? injector.fill(host)
        guard let service = host.service else { return empty.increment() }
        let (exchanged, original) = first.compareExchange(
          expected: 0, desired: service.id + 1, ordering: .acquiringAndReleasing)
        if !exchanged && original != service.id + 1 { others.increment() }
      }
    }
    #expect(empty.count == 0)
    #expect(others.count == 0)
  }
}
