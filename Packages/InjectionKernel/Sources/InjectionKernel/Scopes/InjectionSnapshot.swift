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
  let injections: [ObjectIdentifier: AnyPropertyInjection?]
  let states: @Sendable () -> Void
}

extension Injection {
  /// Captures the process's injection state.
  public static func snapshot() -> InjectionSnapshot {
    RuleLog.shared.withCommitLock { log in
      var injections: [ObjectIdentifier: AnyPropertyInjection?] = [:]
      for slot in SlotRegistry.shared.allSlots() { injections[ObjectIdentifier(slot)] = .some(slot.currentInjection) }
      return InjectionSnapshot(rules: log.saved(), injections: injections, states: ScopedStateRegistry.capture())
    }
  }

  /// Puts back the process's injection state captured by ``snapshot()``: every property reads again what
  /// it read then (properties met since get what the restored rules give them), and every plugin's
  /// state is what it was. Instances' stored values are theirs and stay.
  public static func restore(_ snapshot: InjectionSnapshot) {
    let (retired, forgotten) = RuleLog.shared.withCommitLock { log in
      log.restore(snapshot.rules)
      snapshot.states()
      configurationVersion.add(1, ordering: .acquiringAndReleasing)
      defer { configurationVersion.add(1, ordering: .acquiringAndReleasing) }
      let installed = SlotRegistry.shared.allSlots().map { slot in
        let injection = snapshot.injections[ObjectIdentifier(slot)] ?? log.injection(for: slot.property)
        return slot.install(injection, countingReplacement: false)
      }
      return (installed, DetachedProperties.forgetDecisions())
    }
    ReadSection.retire(retired)
    _ = forgotten
  }
}
