import DefaultsPlugin
import Foundation
import TestSupport
import Testing

private final class ConcurrentSettings: @unchecked Sendable {  // only @Defaults properties, thread-safe
  @Defaults var slot0: Int?
  @Defaults var slot1: Int?
  @Defaults var slot2: Int?
  @Defaults var slot3: Int?
  @Defaults("concurrent.shared") var shared = -1
  @ArchivedDefaults var frame: WindowFrame?

  func write(slot: Int, _ value: Int?) {
    switch slot {
    case 0: slot0 = value
    case 1: slot1 = value
    case 2: slot2 = value
    default: slot3 = value
    }
  }

  func read(slot: Int) -> Int? {
    switch slot {
    case 0: slot0
    case 1: slot1
    case 2: slot2
    default: slot3
    }
  }
}

private final class RacingRemovalSettings: @unchecked Sendable {  // only a @Defaults property, thread-safe
  @Defaults var value: Int?
}

@Suite struct ConcurrencyTests {
  /// Eight threads write and read different keys (two threads per key) and one key they all share,
  /// through shared and separate instances, on a real `UserDefaults` suite: no crash, no lost key, and
  /// every read returns a value some thread wrote.
  @Test func manyThreadsWritingAndReadingDifferentAndEqualKeys() throws {
    let suite = TemporarySuite()
    defer { suite.remove() }
    try Injection.injectDefaults(in: ConcurrentSettings.self, store: { _ in suite.store })
    let shared = ConcurrentSettings()
    let wrong = Counter()
    concurrently(threads: 8) { thread in
      let slot = thread % 4
      let own = ConcurrentSettings()
      for step in 0..<150 {
        let value = slot * 100_000 + thread * 1000 + step
        (step.isMultiple(of: 2) ? shared : own).write(slot: slot, value)
        if let read = own.read(slot: slot), read / 100_000 != slot { wrong.increment() }
        if own.read(slot: slot) == nil { wrong.increment() }  // written and never removed: never absent
        shared.shared = value
        if shared.shared < 0 { wrong.increment() }
        own.frame = WindowFrame(x: Double(thread), y: 0, width: 0, height: 0)
        if own.frame == nil { wrong.increment() }
      }
    }
    #expect(wrong.count == 0)
    for slot in 0..<4 {
      let value = try #require(shared.read(slot: slot))
      #expect(value / 100_000 == slot && value % 1000 == 149)  // the last write of one of its two threads
    }
    #expect(suite.defaults.integer(forKey: "concurrent.shared") % 1000 == 149)
    #expect(
      Set(suite.defaults.dictionaryRepresentation().keys).isSuperset(of: [
        "slot0", "slot1", "slot2", "slot3", "concurrent.shared", "frame",
      ]))
  }

  /// Removals and writes of one key racing with reads: a read returns a written value or the initial one.
  @Test func removalsRacingWithReads() throws {
    let store = InMemoryDefaultsStore()
    try Injection.injectDefaults(in: RacingRemovalSettings.self, store: { _ in store })
    let settings = RacingRemovalSettings()
    let wrong = Counter()
    whileWriting(
      readers: 4,
      {
        for step in 0..<500 { settings.value = step.isMultiple(of: 3) ? nil : step }
      },
      read: {
        if let value = settings.value, value % 3 == 0 { wrong.increment() }
      })
    #expect(wrong.count == 0)
  }
}
