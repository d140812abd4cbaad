import Foundation
import InjectPlugin
import InjectionKernel
import Synchronization
import Testing

// A value released because a commit replaced it may use the library in its deinit: it is released after
// the commit lock (before, its first read of a property or a commit waited forever for the lock its own
// thread held). Each test owns its classes. Serialized, as they count deinits after commits; and the
// counts are awaited (for up to 10 s), not read at once: a module's removal or an override scope of
// another test running beside them holds a copy of the container's bookkeeping — and so the values of
// rules replaced meanwhile — until it ends, which the README allows.

/// Waits until `counter` reaches `expected` (for up to 10 s) and returns its value then.
private func awaited(_ counter: borrowing Atomic<Int>, reaching expected: Int) -> Int {
  for _ in 0..<10_000 where counter.load(ordering: .acquiring) < expected { usleep(1_000) }
  return counter.load(ordering: .acquiring)
}

private final class FirstReadLater: @unchecked Sendable {  // marked properties only
  @Inject var count: Int?
}

private final class CommittedLater {
  @Inject var label: String?
}

/// Reads a property never read before, and commits, in its deinit; counts what it saw. Outside override
/// scopes: the last reference may be dropped where another test's scope ends (its copy of the container's
/// bookkeeping held the value), and its deinit would then read and commit in that scope — one that
/// rejected everything read nil, and the commit applied nowhere (seen about once in a hundred full runs).
private final class UsesTheLibraryInDeinit: Sendable {
  let seen: Seen
  init(_ seen: Seen) { self.seen = seen }
  deinit {
    Injection.outsideOverrides {
      seen.reads.add(FirstReadLater().count ?? -1, ordering: .relaxed)
      _ = try? Injection.inject(String?.self).declared(in: CommittedLater.self).value("from deinit")
    }
    seen.deinits.add(1, ordering: .relaxed)
  }
}

private final class Seen: Sendable {
  let reads = Atomic<Int>(0)
  let deinits = Atomic<Int>(0)
}

private final class NeverTouchedBefore: @unchecked Sendable {  // marked properties only
  @Inject var note: String?
}

private final class SharedBuildHost: @unchecked Sendable {  // marked properties only
  @Inject var service: UsesTheLibraryInDeinit
}

private final class ServiceHost {
  @Inject var service: UsesTheLibraryInDeinit
}

private final class ModuleServiceHost {
  @Inject var service: UsesTheLibraryInDeinit
}

/// Binds a service by type in a module: replacing it replaces the container's entry too.
private final class ServiceModule: InjectionModule {
  let seen: Seen
  init(_ seen: Seen) { self.seen = seen }
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(UsesTheLibraryInDeinit.self).declared(in: ModuleServiceHost.self).value(
      UsesTheLibraryInDeinit(seen))
  }
}

@Suite(.serialized) struct DeinitDuringCommitTests {
  @Test func aReplacedValueMayReadAndCommitInItsDeinit() throws {
    let seen = Seen()
    try Injection.inject(Int?.self).declared(in: FirstReadLater.self).value(7)
    try Injection.inject(UsesTheLibraryInDeinit.self).declared(in: ServiceHost.self).value(
      UsesTheLibraryInDeinit(seen))
    _ = ServiceHost().service
    // Replaced by a new injection, then rejected: each old value's deinit runs after the commit.
    try Injection.inject(UsesTheLibraryInDeinit.self).declared(in: ServiceHost.self).value(
      UsesTheLibraryInDeinit(seen))
    #expect(awaited(seen.deinits, reaching: 1) == 1)
    try Injection.inject(UsesTheLibraryInDeinit.self).declared(in: ServiceHost.self).reject()
    #expect(awaited(seen.deinits, reaching: 2) == 2)
    #expect(awaited(seen.reads, reaching: 14) == 14)
    #expect(CommittedLater().label == "from deinit")
  }

  @Test func aValueAModuleHeldMayUseTheLibraryInItsDeinitWhenTheModuleIsRemoved() throws {
    let seen = Seen()
    let module = ServiceModule(seen)
    try Injection.addModule(module)
    _ = ModuleServiceHost().service
    try Injection.removeModule(module)
    #expect(awaited(seen.deinits, reaching: 1) == 1)
  }

  @Test func aValueARestoreReleasesMayUseTheLibraryInItsDeinit() async {
    // In a child process: a restore puts back the whole process's state.
    await #expect(processExitsWith: .success) {
      let seen = Seen()
      try Injection.inject(Int?.self).declared(in: FirstReadLater.self).value(7)
      let snapshot = Injection.snapshot()
      try Injection.inject(UsesTheLibraryInDeinit.self).declared(in: ServiceHost.self).value(
        UsesTheLibraryInDeinit(seen))
      Injection.restore(snapshot)
      precondition(seen.deinits.load(ordering: .relaxed) == 1, "the replaced value was not released")
    }
  }

  @Test func singletonsAndSharedValuesARestoreReleasesMayUseTheLibraryInTheirDeinit() async {
    // In a child process: a restore puts back the whole process's state. Before, the restore released
    // them under the commit lock: the deinit's commit stopped the program (it hung before that).
    await #expect(processExitsWith: .success) {
      let seen = Seen()
      try Injection.inject(Int?.self).declared(in: FirstReadLater.self).value(7)
      try Injection.inject(UsesTheLibraryInDeinit.self).singleton { _ in UsesTheLibraryInDeinit(seen) }
      try Injection.inject(UsesTheLibraryInDeinit.self).declared(in: ServiceHost.self).shared {
        UsesTheLibraryInDeinit(seen)
      }
      let snapshot = Injection.snapshot()
      _ = try Injection.resolve(UsesTheLibraryInDeinit.self)
      _ = ServiceHost().service
      Injection.restore(snapshot)
      precondition(seen.deinits.load(ordering: .relaxed) == 2, "the values built after the snapshot were kept")
    }
  }

  @Test func aRestoreDoesNotWaitForASharedValueBeingBuiltOnAnotherThread() async {
    // In a child process: a restore puts back the whole process's state. The factory is still running
    // when the restore starts, and then reads a property for the first time (which needs the commit lock
    // the restore holds). Before, the restore waited for the value's lock and the factory for the commit
    // lock: both waited forever.
    await #expect(processExitsWith: .success) {
      let started = DispatchSemaphore(value: 0)
      let built = DispatchSemaphore(value: 0)
      try Injection.inject(UsesTheLibraryInDeinit.self).declared(in: SharedBuildHost.self).shared {
        started.signal()
        Thread.sleep(forTimeInterval: 0.2)
        _ = NeverTouchedBefore().note  // the class's first access makes its slots under the commit lock
        return UsesTheLibraryInDeinit(Seen())
      }
      let snapshot = Injection.snapshot()
      Thread {
        _ = SharedBuildHost().service
        built.signal()
      }.start()
      started.wait()
      Injection.restore(snapshot)
      built.wait()
    }
  }

  @Test func aBuilderThatCommitsStopsSayingWhyInsteadOfWaitingForever() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let rules = InjectionRules()
      rules.add(to: PropertySelection(plugin: InjectPlugin.id).ofType(String?.self)) { property in
        _ = Injection.isInjected(property)  // plans under the lock the commit holds
        return nil
      }
      try Injection.commit(rules)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("The kernel's commit lock was asked for by the thread that holds it"))
  }
}
