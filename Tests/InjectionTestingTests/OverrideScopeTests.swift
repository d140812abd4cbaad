import Foundation
import InjectPlugin
import InjectionKernel
import InjectionTesting
import LazyPlugin
import Synchronization
import TestSupport
import Testing

// Each test has its own fixture types: the process's injections below are selected by declaring
// class, so tests running in parallel never share one.

private final class Service: Sendable {
  let id: Int
  init(_ id: Int) { self.id = id }
}

// LazyConstructible: another test plans `injectLazy()` for the whole process and expects its own fixture
// to be the only one nothing can build (the factory below is registered only once this test runs).
private final class ManyTasksCache: LazyConstructible, Sendable {
  let id: Int
  init(_ id: Int) { self.id = id }
  convenience init() { self.init(-2) }
}

private final class ManyTasksHost: @unchecked Sendable {  // marked properties are atomic
  @Inject var service: Service
  @Lazy var cache: ManyTasksCache
}

@Test func aHundredConcurrentTasksEachSeeTheirOwnOverride() async throws {
  try Injection.inject(Service.self).declared(in: ManyTasksHost.self).value(Service(-1))
  try Injection.injectLazy(ManyTasksCache.self) { ManyTasksCache(-1) }
  try Injection.injectLazy(in: ManyTasksHost.self)
  let existing = ManyTasksHost()  // created before every scope
  try await withThrowingTaskGroup(of: Void.self) { group in
    for id in 0..<100 {
      group.addTask {
        try await Injection.withOverrides({ lets in
          try lets.inject(Service.self).declared(in: ManyTasksHost.self).value(Service(id))
          lets.injectLazy(ManyTasksCache.self) { ManyTasksCache(id) }
        }) {
          await Task.yield()
          #expect(existing.service.id == id)
          #expect(ManyTasksHost().service.id == id)
          #expect(ManyTasksHost().cache.id == id)
          #expect(existing.cache.id == id)
          #expect(existing.cache === existing.cache)  // the scope keeps the value it created
          async let fromChild = existing.service.id  // child tasks inherit the scope
          #expect(await fromChild == id)
        }
      }
    }
    try await group.waitForAll()
  }
  #expect(existing.service.id == -1)
  #expect(existing.cache.id == -1)  // no override's value reached the instance
  #expect(ManyTasksHost().cache.id == -1)
}

private final class BeforeAfterHost {
  @Inject var service: Service
}

@Test func anInstanceCreatedBeforeTheScopeReadsTheOverrideInsideAndTheProcessValueAfter() throws {
  try Injection.inject(Service.self).declared(in: BeforeAfterHost.self).value(Service(1))
  let host = BeforeAfterHost()
  #expect(host.service.id == 1)  // published on the fast path before the scope
  try Injection.withOverrides({ lets in
    try lets.inject(Service.self).declared(in: BeforeAfterHost.self).value(Service(2))
  }) {
    #expect(host.service.id == 2)
    #expect(Injection.isInsideOverrideScope)
  }
  #expect(host.service.id == 1)
  #expect(!Injection.isInsideOverrideScope)
}

private final class NestedHost {
  @Inject var first: Service
  @Inject var second: Service?
}

@Test func nestedScopesStackAndUnwind() throws {
  try Injection.inject(Service.self).declared(in: NestedHost.self).named("first").value(Service(0))
  let host = NestedHost()
  try Injection.withOverrides({ lets in
    try lets.inject(Service.self).declared(in: NestedHost.self).named("first").value(Service(1))
  }) {
    try Injection.withOverrides({ lets in
      try lets.inject(Service?.self).declared(in: NestedHost.self).named("second").value(Service(22))
    }) {
      #expect(host.first.id == 1)  // from the outer scope
      #expect(host.second?.id == 22)
      try Injection.withOverrides({ lets in
        try lets.inject(Service.self).declared(in: NestedHost.self).named("first").value(Service(3))
        try lets.inject(Service?.self).declared(in: NestedHost.self).named("second").reject()
      }) {
        #expect(host.first.id == 3)
        #expect(host.second == nil)
      }
      #expect(host.first.id == 1)
      #expect(host.second?.id == 22)
    }
    #expect(host.second == nil)
    #expect(host.first.id == 1)
  }
  #expect(host.first.id == 0)
}

private struct ExpectedFailure: Error {}

private final class ThrowingHost {
  @Inject var service: Service
}

@Test func aThrowingBodyRestoresWhatWasThere() throws {
  try Injection.inject(Service.self).declared(in: ThrowingHost.self).value(Service(5))
  let host = ThrowingHost()
  #expect(throws: ExpectedFailure.self) {
    try Injection.withOverrides({ lets in
      try lets.inject(Service.self).declared(in: ThrowingHost.self).value(Service(6))
    }) {
      #expect(host.service.id == 6)
      throw ExpectedFailure()
    }
  }
  #expect(host.service.id == 5)
}

private final class MistakeHost {
  @Inject var count: Int?
}

@Test func aMistakenOverrideIsTheSameTypedErrorAndTheBodyDoesNotRun() {
  var ran = false
  #expect(throws: InjectionError.self) {
    try Injection.withOverrides({ lets in
      try lets.inject(Int.self).declared(in: MistakeHost.self).named("count").value(3)  // Int, not Int?
    }) { ran = true }
  }
  #expect(!ran)
  do {
    try Injection.withOverrides({ lets in
      try lets.inject(Int.self).declared(in: MistakeHost.self).named("cuont").value(3)
    }) {}
    Issue.record("a misspelt name must throw")
  } catch let error as InjectionError {
    #expect("\(error)".contains("cuont"))
  } catch {
    Issue.record("unexpected \(error)")
  }
}

private final class IsolatedHost: @unchecked Sendable {  // marked properties are atomic
  @Inject var service: Service
}

@Test func whatAnIsolatedScopeCommitsStaysInside() throws {
  try Injection.inject(Service.self).declared(in: IsolatedHost.self).value(Service(7))
  let host = IsolatedHost()
  try Injection.withIsolatedInjections {
    try Injection.rejectAllInjections()
    #expect(Injection.injection(for: try Injection.property(named: "service", of: IsolatedHost.self)) == nil)
    try Injection.inject(Service.self).declared(in: IsolatedHost.self).value(Service(8))
    #expect(host.service.id == 8)
    // A raw thread does not inherit the task-local scope: it sees the process's injections.
    let seenByThread = LockedState<Int?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread {
      seenByThread.withLock { $0 = host.service.id }
      done.signal()
    }.start()
    done.wait()
    #expect(seenByThread.value == 7)
  }
  #expect(host.service.id == 7)
  #expect(Injection.isInjected(IsolatedHost.self, "service"))
}

private final class GetterHost {
  @Inject var counter: Int
}

@Test func gettersAndSettersCanBeOverridden() throws {
  try Injection.inject(Int.self).declared(in: GetterHost.self).value(1)
  let host = GetterHost()
  try Injection.withOverrides({ lets in
    try lets.inject(Int.self).declared(in: GetterHost.self).getter { _, stored, _ in (stored ?? 0) + 100 }
  }) {
    #expect(host.counter == 100)
    host.counter = 5  // writes go to the instance
    #expect(host.counter == 105)
  }
  #expect(host.counter == 5)  // the instance's own value, as a write outside the scope would leave it
}

private final class SnapshotHost {
  @Inject var service: Service?
  @Inject var label: String?
}

// Restoring puts back the whole process's state, which would undo what tests running beside it commit:
// the round trip runs in a child process of its own.
@Test func snapshotAndRestoreRoundTrip() async {
  await #expect(processExitsWith: .success) {
    try Injection.inject(Service?.self).declared(in: SnapshotHost.self).value(Service(1))
    let host = SnapshotHost()
    let saved = Injection.snapshot()
    try Injection.inject(Service?.self).declared(in: SnapshotHost.self).value(Service(2))
    try Injection.inject(String?.self).declared(in: SnapshotHost.self).value("changed")
    precondition(host.service?.id == 2 && host.label == "changed")
    Injection.restore(saved)
    precondition(host.service?.id == 1, "the restored value")
    precondition(host.label == nil, "the label injected after the snapshot is gone")
    precondition(SnapshotHost().service?.id == 1)
    // The report is the snapshot's too (before, it kept counting the re-injection made since).
    precondition(!Injection.report().contains("re-injected"), Injection.report())
  }
}

private class SnapshotBase {
  @Inject var service: Service?
}
private final class SnapshotSub: SnapshotBase {}
private final class SnapshotOther: SnapshotBase {}

// A subclass's own injection is part of the process's state (in a child process, as above).
@Test func snapshotAndRestoreKeepSubclassOverrides() async {
  await #expect(processExitsWith: .success) {
    try Injection.inject(Service?.self).declared(in: SnapshotBase.self).value(Service(1))
    try Injection.inject(Service?.self).declared(in: SnapshotSub.self).value(Service(2))
    let sub = SnapshotSub()
    precondition(sub.service?.id == 2)
    let saved = Injection.snapshot()
    try Injection.inject(Service?.self).declared(in: SnapshotSub.self).reject()
    precondition(sub.service?.id == 1, "the base's injection shows through")
    try Injection.inject(Service?.self).declared(in: SnapshotOther.self).value(Service(3))
    Injection.restore(saved)
    precondition(sub.service?.id == 2, "the subclass's own injection is back")
    precondition(SnapshotBase().service?.id == 1)
    precondition(SnapshotOther().service?.id == 1, "the override made after the snapshot is gone")
  }
}

// State a plugin makes after a snapshot (its first use came later) goes back to its initial value: at the
// snapshot, that is what the process had of it (in a child process, as above).
@Test func restoringASnapshotResetsStateMadeAfterIt() async {
  await #expect(processExitsWith: .success) {
    let early = ScopedState<Int>(0)
    early.update { $0 = 1 }
    let saved = Injection.snapshot()
    early.update { $0 = 2 }
    let late = ScopedState<[String]>([])  // made after the snapshot
    late.update { $0.append("override") }
    Injection.restore(saved)
    precondition(early.value == 1, "captured state: its value at the snapshot")
    precondition(late.value == [], "state made later: its initial value, not the leftover override")
  }
}

private final class SnapshotClockHost {
  @Inject var clock: String?
}
private final class SnapshotDatabase: Sendable {
  let builtWith: String
  init(_ builtWith: String) { self.builtWith = builtWith }
}
private final class SnapshotDatabaseHost {
  @Inject var shared: SnapshotDatabase
  @Inject var early: SnapshotDatabase?
}

// A shared value or a singleton built after the snapshot, from what was injected then (a test's fake
// clock), is built again after the restore; one built before stays (in a child process, as above).
@Test func restoringASnapshotRebuildsSharedValuesBuiltAfterIt() async {
  await #expect(processExitsWith: .success) {
    try Injection.inject(String?.self).declared(in: SnapshotClockHost.self).value("real clock")
    let make: @Sendable () -> SnapshotDatabase = { SnapshotDatabase(SnapshotClockHost().clock ?? "none") }
    try Injection.inject(SnapshotDatabase.self).declared(in: SnapshotDatabaseHost.self).shared(make)
    try Injection.inject(SnapshotDatabase?.self).declared(in: SnapshotDatabaseHost.self).shared { make() }
    try Injection.inject(SnapshotDatabase.self, named: "db").singleton { _ in make() }
    let early = try #require(SnapshotDatabaseHost().early)  // built before the snapshot
    let saved = Injection.snapshot()
    try Injection.inject(String?.self).declared(in: SnapshotClockHost.self).value("fake clock")
    precondition(SnapshotDatabaseHost().shared.builtWith == "fake clock")
    let fakeDatabase = try Injection.resolve(SnapshotDatabase.self, named: "db")
    precondition(fakeDatabase.builtWith == "fake clock")
    Injection.restore(saved)
    precondition(SnapshotDatabaseHost().shared.builtWith == "real clock", "rebuilt from the restored clock")
    let realDatabase = try Injection.resolve(SnapshotDatabase.self, named: "db")
    precondition(realDatabase.builtWith == "real clock", "the singleton is built again")
    precondition(SnapshotDatabaseHost().early === early, "a value built before the snapshot stays")
  }
}

// Inside a scope, a snapshot would capture the state shared with the tests running beside it and miss
// the scope's own commits; restoring would rewrite that shared state. Both stop at the call.
@Test(arguments: ["snapshot", "restore"])
func snapshotAndRestoreInsideAScopeStopAtTheCall(call: String) async {
  let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
    [call = call as String] in
    let saved = Injection.snapshot()
    Injection.withIsolatedInjections {
      if call == "snapshot" { _ = Injection.snapshot() } else { Injection.restore(saved) }
    }
  }
  let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
  let expected = call == "snapshot" ? "Injection.snapshot()" : "Injection.restore(_:)"
  #expect(stderr.hasPrefix("\(expected) was called inside an override scope"), "\(stderr)")
}

private final class ScopedCounter: Sendable {
  let state = ScopedState<Int>(0)
}

@Test func scopedStateChangesStayInTheirScope() async throws {
  let counter = ScopedCounter()
  counter.state.update { $0 = 1 }
  try await Injection.withOverrides({ _ in }) {
    #expect(counter.state.value == 1)  // starts from what the task saw
    counter.state.update { $0 += 10 }
    #expect(counter.state.value == 11)
    #expect(counter.state.isOverriddenForCurrentTask)
    await withTaskGroup(of: Int.self) { group in
      group.addTask { counter.state.value }
      for await seen in group { #expect(seen == 11) }
    }
  }
  #expect(counter.state.value == 1)
  #expect(!counter.state.isOverriddenForCurrentTask)
}

private final class RaceHost: @unchecked Sendable {  // marked properties are atomic
  @Inject var service: Service
}

@Test func readersOutsideNeverSeeOverridesWhileScopesComeAndGo() throws {
  try Injection.inject(Service.self).declared(in: RaceHost.self).value(Service(0))
  let host = RaceHost()
  let wrong = Counter()
  whileWriting(
    readers: 3,
    {
      for round in 1...200 {
        try? Injection.withOverrides({ lets in
          try lets.inject(Service.self).declared(in: RaceHost.self).value(Service(round))
        }) {
          if host.service.id != round { wrong.increment() }
        }
      }
    },
    read: { if host.service.id != 0 { wrong.increment() } })
  #expect(wrong.count == 0)
  #expect(host.service.id == 0)
}

private final class NeverReadHost: @unchecked Sendable {  // marked properties are atomic
  @Inject var service: Service?
}

@Test func aPropertyFirstReadInsideAScopeIsOverriddenThereOnly() throws {
  try Injection.withOverrides({ lets in
    try lets.inject(Service?.self).declared(in: NeverReadHost.self).value(Service(9))
  }) {
    let host = NeverReadHost()  // its property's slot is created by this first read, inside the scope
    #expect(host.service?.id == 9)
    let seenByThread = LockedState<Int?>(-1)
    let done = DispatchSemaphore(value: 0)
    Thread {
      seenByThread.withLock { $0 = host.service?.id }
      done.signal()
    }.start()
    done.wait()
    #expect(seenByThread.value == nil)  // outside the scope: nothing injected
  }
  #expect(NeverReadHost().service == nil)
}

private final class OnceFillCache: LazyConstructible, Sendable {
  init() {}
}

private final class OnceFillHost: @unchecked Sendable {  // marked properties are atomic
  @Lazy var cache: OnceFillCache
}

/// Eight threads running in one scope read the lazy properties of the same instances at once: the scope's
/// factory runs once per instance, as a fill outside scopes does, and every thread gets that value.
@Test func threadsOfOneScopeFillingOneInstanceAtOnceRunTheFactoryOnce() throws {
  try Injection.injectLazy(in: OnceFillHost.self)
  let made = Counter()
  let scope = try OverrideScope { lets in
    lets.injectLazy(OnceFillCache.self) {
      made.increment()
      usleep(20)  // long enough for other threads to arrive while it runs
      return OnceFillCache()
    }
  }
  defer { scope.end() }
  let hosts = (0..<100).map { _ in OnceFillHost() }
  let mixed = Counter()
  concurrently(threads: 8) { _ in
    scope.run {
      for host in hosts.shuffled() where host.cache !== host.cache { mixed.increment() }
    }
  }
  #expect(made.count == hosts.count)
  #expect(mixed.count == 0)
}

@Test func aScopedStateIsToldWhenAScopeThatChangedItEnds() throws {
  let heard = HeardScopes()
  let state = ScopedState<Int>(0) { copy, scope in heard.note(copy, scope) }
  var inside: ObjectIdentifier?
  try Injection.withOverrides({ _ in }) {
    inside = Injection.overrideScopeID
    state.update { $0 = 5 }
    #expect(heard.all.isEmpty)  // not before the scope ends
  }
  #expect(heard.all.map(\.copy) == [5])
  #expect(heard.all.map(\.scope) == [inside])
  // A scope that did not change the state holds no copy of it and is not reported.
  try Injection.withOverrides({ _ in }) { _ = state.value }
  #expect(heard.all.count == 1)
}

/// Records the scopes a state was told about.
private final class HeardScopes: Sendable {
  private let entries = Mutex<[(copy: Int, scope: ObjectIdentifier?)]>([])
  func note(_ copy: Int, _ scope: ObjectIdentifier) { entries.withLock { $0.append((copy, scope)) } }
  var all: [(copy: Int, scope: ObjectIdentifier?)] { entries.withLock { $0 } }
}
