internal import InjectionReadSections

/// The process's whole injection state at one moment: committed rules, every property's injection and
/// every plugin's ``ScopedState``. Take one with ``Injection/snapshot()`` and put it back with
/// ``Injection/restore(_:)`` — in XCTest's `setUp` and `tearDown`, or around a part of an app that
/// reconfigures injections.
///
/// ```swift
/// let saved = Injection.snapshot()
/// defer { Injection.restore(saved) }
/// try Injection.inject(Clock.self).value(FixedClock())
/// ```
///
/// Snapshots work on the process's state: tests running in parallel share it, so prefer override scopes
/// (``Injection/withOverrides(_:_:)-(_,()->Result)``) there.
public struct InjectionSnapshot: @unchecked Sendable {  // immutable
  let rules: RuleLog.Saved
  /// A slot's injection and re-injection count (``InjectionSlot/replacementCount``).
  typealias SavedSlot = (injection: AnyPropertyInjection?, replacements: Int)
  /// Each slot's, by the slot's identity.
  let injections: [ObjectIdentifier: SavedSlot]
  let states: @Sendable () -> Void
  let participants: @Sendable () -> Void
}

/// An object holding a value built once and then kept — a shared value, a container's singleton — whose
/// state a snapshot captures and a restore puts back: restored to a moment before the value was built,
/// it builds it again on next use (from what is injected then), instead of keeping a value built from
/// what was injected in between (a test's fakes). The kernel's ``SharedValue``s take part; a plugin
/// keeping such values registers them with ``Injection/takePartInSnapshots(_:)``.
///
/// A participant takes part in the snapshots taken after it registered: a restore of an earlier snapshot
/// leaves it as it is (a `ScopedState` made after a snapshot, by contrast, is put back to its first value).
/// Register a participant when its plugin is first used, before the tests that snapshot run.
public protocol SnapshotParticipant: AnyObject, Sendable {
  /// Captures the state to put back and returns what puts it back. The closure runs under the kernel's
  /// commit lock, before slots publish new answers: it must not read marked properties or commit, and
  /// hands what it replaces to ``Injection/releaseAfterTheCommit(_:)`` (a deinit may do either).
  func captureForSnapshot() -> @Sendable () -> Void
}

/// The live snapshot participants, held weakly: one its owner dropped is skipped and forgotten.
enum SnapshotParticipants {
  private struct Entry: @unchecked Sendable {  // `participant` is only read
    weak var participant: (any SnapshotParticipant)?
  }

  private static let entries = LockedState<[Entry]>([])

  static func register(_ participant: any SnapshotParticipant) {
    entries.withLock { entries in
      // Dropped ones are forgotten now and then, so that the list grows with the live participants only.
      if entries.count >= 64, entries.count.nonzeroBitCount == 1 { entries.removeAll { $0.participant == nil } }
      entries.append(Entry(participant: participant))
    }
  }

  /// Captures every live participant; the closure puts them all back.
  static func capture() -> @Sendable () -> Void {
    let live = entries.withLock { $0.compactMap(\.participant) }
    let restores = live.map { $0.captureForSnapshot() }
    // Called under the commit lock: a participant dropped meanwhile by its owner would be deinitialized
    // here, and what it holds may use the kernel in its deinit.
    RuleLog.shared.keepUntilUnlocked(live)
    return { for restore in restores { restore() } }
  }
}

extension Injection {
  /// Captures the process's injection state.
  ///
  /// Called inside an override scope (a test's `.isolatedInjections` or `.injecting` trait, a
  /// `withOverrides` body), it stops the program with a message saying so: the process's state is shared
  /// with the tasks running beside it, and the scope's own commits are not in it. There, the scope itself
  /// undoes what the test changed when it ends.
  public static func snapshot() -> InjectionSnapshot {
    stopInsideScope("Injection.snapshot()")
    return RuleLog.shared.withCommitLock { log in
      var injections: [ObjectIdentifier: InjectionSnapshot.SavedSlot] = [:]
      for slot in SlotRegistry.shared.allSlots() {
        injections[ObjectIdentifier(slot)] = (slot.currentInjection, slot.replacementCount)
      }
      return InjectionSnapshot(
        rules: log.saved(), injections: injections, states: ScopedStateRegistry.capture(),
        participants: SnapshotParticipants.capture())
    }
  }

  /// Puts back the process's injection state captured by ``snapshot()``: every property reads again what
  /// it read then (properties met since get what the restored rules give them; a shared value or a
  /// singleton built since is built again on next use), and every plugin's state is what it was. Instances' stored values are theirs and stay.
  ///
  /// Called inside an override scope it stops the program, as ``snapshot()`` does: restoring there would
  /// rewrite the state of every task running beside it and leave the scope's own commits in place.
  public static func restore(_ snapshot: InjectionSnapshot) {
    stopInsideScope("Injection.restore(_:)")
    // A restore changes the configuration as a commit does: inside `withConsistentReads` the body would run
    // again for ever (found by review H84). It cannot throw, so it stops.
    if ik_consistent_reads_get() > 0 {
      stop(
        "Injection.restore(_:) was called inside Injection.withConsistentReads { … }: the body runs again until "
          + "no change lands while it reads, so its own restore would make it run for ever. Restore before or "
          + "after it.")
    }
    let (retired, forgotten) = RuleLog.shared.withCommitLock { log in
      log.restore(snapshot.rules)
      BuilderFailures.forgetAll()
      snapshot.states()
      snapshot.participants()  // before the slots below publish new answers
      configurationVersion.add(1, ordering: .acquiringAndReleasing)
      defer { configurationVersion.add(1, ordering: .acquiringAndReleasing) }
      let installed = SlotRegistry.shared.allSlots().map { slot in
        // A slot made since the snapshot gets what the restored rules give it, re-injected never.
        let saved = snapshot.injections[ObjectIdentifier(slot)] ?? (log.injection(for: slot.property), 0)
        return slot.restore(saved.injection, replacementCount: saved.replacements)
      }
      return (installed, DetachedProperties.forgetDecisions())
    }
    ReadSection.retire(retired)
    _ = forgotten
  }

  /// Makes `participant`'s state part of every snapshot taken while it lives (see
  /// ``SnapshotParticipant``); it is held weakly.
  public static func takePartInSnapshots(_ participant: any SnapshotParticipant) {
    SnapshotParticipants.register(participant)
  }

  /// Stops the program when the calling task is inside an override scope — or was: a task that outlived
  /// its scope (found by review H73: its restore rolled back the process every other test shares).
  private static func stopInsideScope(_ call: String) {
    guard InjectionScope.entered != nil else { return }
    stop(
      "\(call) was called inside an override scope: snapshots work on the process's state, which the tasks "
        + "running beside this one share, and the scope's own commits are not in it. Inside a scope (a test's "
        + "isolatedInjections or injecting trait, withOverrides), let the scope undo what it changed when it "
        + "ends; snapshot and restore outside scopes (XCTest's setUp and tearDown).")
  }
}
