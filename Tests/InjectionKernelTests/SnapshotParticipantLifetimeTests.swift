import InjectionKernel
import Synchronization
import Testing

// A snapshot participant whose owner lets go of it while a snapshot is being taken is released after the
// commit lock: its deinit may commit (before, it ran under the lock, and the commit stopped the program).

private final class CommittedByDeinit {
  @Tracked var label: String
}

/// Lets go of the only other reference to its participant while the snapshot captures it.
private final class ParticipantHolder: @unchecked Sendable {  // touched on the test's thread only
  var participant: DroppedParticipant?
}

private final class DroppedParticipant: SnapshotParticipant, @unchecked Sendable {  // immutable after init
  let holder: ParticipantHolder
  init(holder: ParticipantHolder) { self.holder = holder }
  func captureForSnapshot() -> @Sendable () -> Void {
    holder.participant = nil  // the snapshot now holds the last reference
    return {}
  }
  deinit {
    let rules = InjectionRules()
    TrackedPlugin.inject("from deinit", into: CommittedByDeinit.self, rules: rules)
    _ = try? Injection.commit(rules)
  }
}

@Test func aParticipantDroppedDuringASnapshotIsReleasedAfterTheCommitLock() async {
  await #expect(processExitsWith: .success) {
    let holder = ParticipantHolder()
    do {
      let participant = DroppedParticipant(holder: holder)
      holder.participant = participant
      Injection.takePartInSnapshots(participant)
    }
    _ = Injection.snapshot()
    precondition(holder.participant == nil)
    precondition(Injection.isInjected(CommittedByDeinit.self, "label"), "the participant's deinit did not commit")
  }
}
