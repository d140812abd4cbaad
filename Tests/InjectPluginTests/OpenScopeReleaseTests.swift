import Foundation
import InjectPlugin
import InjectionTesting
import Synchronization
import TestSupport
import Testing

// A value the process replaces or rejects is released before that call returns, also while another
// task's override scope — which copies the container's bookkeeping when it commits its overrides — is
// open. Each test has its own fixture classes (the process's rules below select them by class).

private final class Released: Sendable {
  let live: Counter
  init(_ live: Counter) {
    self.live = live
    live.increment()
  }
  deinit { live.decrement() }
}

private final class Unrelated: Sendable {}

/// Runs `body` while another thread is inside an override scope that committed a rule of its own, and ran
/// `inScope` there.
private func whileAnotherScopeIsOpen<Host: AnyObject>(
  overriding host: Host.Type, inScope: @escaping @Sendable () -> Void = {}, _ body: () throws -> Void
) rethrows {
  let entered = DispatchSemaphore(value: 0)
  let leave = DispatchSemaphore(value: 0)
  let left = DispatchSemaphore(value: 0)
  Thread {
    try? Injection.withOverrides({ lets in
      try lets.inject(Unrelated?.self).declared(in: host).value(Unrelated())
    }) {
      inScope()
      entered.signal()
      leave.wait()
    }
    left.signal()
  }.start()
  entered.wait()
  defer {
    leave.signal()
    left.wait()
  }
  try body()
}

private final class RejectedSharedHost {
  @Inject var value: Released?
}
private final class RejectedSharedScopeHost {
  @Inject var unrelated: Unrelated?
}

@Test func aSharedValueTheProcessRejectsIsReleasedWhileAnotherTasksScopeIsOpen() throws {
  let live = Counter()
  try Injection.inject(Released?.self).declared(in: RejectedSharedHost.self).shared { Released(live) }
  _ = RejectedSharedHost().value
  #expect(live.count == 1)
  try whileAnotherScopeIsOpen(overriding: RejectedSharedScopeHost.self) {
    try Injection.inject(Released?.self).declared(in: RejectedSharedHost.self).reject()
    #expect(live.count == 0)
  }
}

private final class ReplacedValueHost {
  @Inject var value: Released?
}
private final class ReplacedValueScopeHost {
  @Inject var unrelated: Unrelated?
}

@Test func aValueTheProcessReplacesIsReleasedWhileAnotherTasksScopeIsOpen() throws {
  let live = Counter()
  try Injection.inject(Released?.self).declared(in: ReplacedValueHost.self).value(Released(live))
  // The scope reads the property, so it has looked up what decides it.
  try whileAnotherScopeIsOpen(overriding: ReplacedValueScopeHost.self, inScope: { _ = ReplacedValueHost().value }) {
    try Injection.inject(Released?.self).declared(in: ReplacedValueHost.self).value(Released(live))
    #expect(live.count == 1)
  }
}

/// A type nothing else injects: rules by type alone for it reach this test's properties only.
private final class ReleasedByType: Sendable {
  let live: Counter
  init(_ live: Counter) {
    self.live = live
    live.increment()
  }
  deinit { live.decrement() }
}
private final class ReplacedByTypeHost {
  @Inject var value: ReleasedByType
}
private final class UnrelatedByType: Sendable {}

@Test func aValueByTypeAloneTheProcessReplacesIsReleasedWhileAnotherTasksScopeIsOpen() throws {
  // The scope overrides a type alone too, so it keeps its own copy of the injections that structs and
  // statics read, which are by type alone.
  let live = Counter()
  try Injection.inject(ReleasedByType.self).value(ReleasedByType(live))
  let entered = DispatchSemaphore(value: 0)
  let leave = DispatchSemaphore(value: 0)
  let left = DispatchSemaphore(value: 0)
  Thread {
    try? Injection.withOverrides({ lets in try lets.inject(UnrelatedByType.self).value(UnrelatedByType()) }) {
      entered.signal()
      leave.wait()
    }
    left.signal()
  }.start()
  entered.wait()
  try Injection.inject(ReleasedByType.self).value(ReleasedByType(live))
  #expect(live.count == 1)
  #expect(ReplacedByTypeHost().value.live === live)
  leave.signal()
  left.wait()
}

private final class RacedByType: Sendable {}
private struct RacedByTypeStruct {
  @Inject var value: RacedByType?
}
private final class RacedScopeOnly: Sendable {}

@Test func aStructReadInAScopeWhileTheProcessReplacesItsValueReadsTheOldOrTheNew() throws {
  // The scope's copy holds the process's entries weakly: a read that took the copy just before the process
  // replaced the entry must still find a value, never nothing.
  try Injection.inject(RacedByType.self).value(RacedByType())
  let stop = Atomic<Bool>(false)
  let missed = Atomic<Int>(0)
  let reads = Atomic<Int>(0)
  let done = DispatchSemaphore(value: 0)
  Thread {
    try? Injection.withOverrides({ lets in try lets.inject(RacedScopeOnly.self).value(RacedScopeOnly()) }) {
      while !stop.load(ordering: .relaxed) {
        if RacedByTypeStruct().value == nil { missed.add(1, ordering: .relaxed) }
        reads.add(1, ordering: .relaxed)
      }
    }
    done.signal()
  }.start()
  for _ in 0..<20_000 { try Injection.inject(RacedByType.self).value(RacedByType()) }
  stop.store(true, ordering: .relaxed)
  done.wait()
  #expect(reads.load(ordering: .relaxed) > 0)
  #expect(missed.load(ordering: .relaxed) == 0)
}
