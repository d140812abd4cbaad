import Foundation
import InjectPlugin
import InjectionKernel
import TestSupport
import Testing

// Values shared by every instance must be `Sendable`; `UncheckedSendable` is the escape hatch for a value
// the caller vouches for. (That `value(_:)` refuses a non-`Sendable` value is a compile error; see
// `SendableCompileTests` for the check that the compiler reports it.)

/// Not `Sendable` (a mutable stored property), but synchronized inside: the kind of type a caller vouches for.
private final class LegacyTally {
  private let lock = NSLock()
  private var total = 0
  func add() { lock.withLock { total += 1 } }
  var count: Int { lock.withLock { total } }
}

private final class TallyHost: @unchecked Sendable {  // marked properties only (atomic)
  @Inject var tally: LegacyTally
}

private final class SharedTallyHost: @unchecked Sendable {  // marked properties only (atomic)
  @Inject var tally: LegacyTally
}

private final class WeakTallyHost: @unchecked Sendable {  // marked properties only (atomic)
  @Inject var tally: LegacyTally?
}

/// The supported pattern for sharing a class with marked properties between threads: its only mutable
/// stored properties are marked properties, which are atomic, so `@unchecked Sendable` is sound.
private final class Account: @unchecked Sendable {  // mutable state: marked properties only (atomic reads/writes)
  @Inject var limit: Int
  @Inject var owner: AccountOwner?
  let id: Int
  init(id: Int) { self.id = id }
}

private struct AccountOwner: Sendable {
  let name: String
  let code: Int
}

@Suite struct SendableTests {
  @Test func uncheckedValueIsSharedByEveryInstanceOnEveryThread() throws {
    let tally = LegacyTally()
    let plan = try #require(
      try Injection.inject(LegacyTally.self).declared(in: TallyHost.self).value(UncheckedSendable(tally)))
    #expect(plan.entries.first?.injection?.summary == "unchecked value InjectPluginTests.LegacyTally")
    concurrently(threads: 4) { _ in
      for _ in 0..<250 { TallyHost().tally.add() }
    }
    #expect(tally.count == 1000)
  }

  @Test func uncheckedSharedCreatesOneValueForEveryone() throws {
    try Injection.inject(LegacyTally.self).declared(in: SharedTallyHost.self).shared {
      UncheckedSendable(LegacyTally())
    }
    concurrently(threads: 4) { _ in
      for _ in 0..<100 { SharedTallyHost().tally.add() }
    }
    #expect(SharedTallyHost().tally.count == 400)
  }

  @Test func uncheckedWeakObjectDiesWithItsLastOwner() throws {
    var tally: LegacyTally? = LegacyTally()
    weak let observer = tally
    try Injection.inject(LegacyTally?.self).declared(in: WeakTallyHost.self).weak(UncheckedSendable(tally!))
    #expect(WeakTallyHost().tally === tally)
    tally = nil
    #expect(observer == nil)
    #expect(WeakTallyHost().tally == nil)
  }

  @Test func anUncheckedSendableClassWithMarkedPropertiesIsSharedAcrossThreads() throws {
    try Injection.inject(Int.self).declared(in: Account.self).value(100)
    let account = Account(id: 1)
    let bad = Counter()
    whileWriting(readers: 4) {
      for code in 0..<5_000 { account.owner = AccountOwner(name: "owner \(code)", code: code) }
      account.limit = 500
    } read: {
      // Each read returns a whole value: the injected one, or one some thread wrote.
      if let owner = account.owner, owner.name != "owner \(owner.code)" { bad.increment() }
      let limit = account.limit
      if limit != 100 && limit != 500 { bad.increment() }
    }
    #expect(bad.count == 0)
    #expect(account.owner?.code == 4_999)
    #expect(account.limit == 500)
    #expect(Account(id: 2).limit == 100)
  }
}
