import InjectionKernel

/// Thrown by the check of a batch worked out from the container's state (see
/// ``InjectionRules/requireContainerState(at:)``) when the state changed since: nothing applies, and the
/// entry point works the batch out again (``Injection/retryingWhileContainerStateChanged(_:)``).
struct ContainerStateChanged: Error {}

extension InjectionRules {
  /// Makes the batch's commit apply nothing, and throw ``ContainerStateChanged``, unless the container's
  /// state (as the committing task sees it) still has `revision` when the commit holds its lock.
  ///
  /// For a batch worked out from that state — which rules a module's removal brings back, which named
  /// bindings a binding for the type alone records again — by an entry point that builds its own batch
  /// and can work it out again. Every change of the state is made by a commit's action, under the commit
  /// lock, so a state that has `revision` when the check runs is the one the batch's own actions change.
  /// The lock is held for the commit alone, as for any other: nothing is held between attempts.
  func requireContainerState(at revision: UInt64) {
    validate(listingEmpty: { nil }) { _ in
      // The copy read here shares the state's storage: dropping it under the lock releases nothing.
      guard ContainerState.shared.value.revision == revision else { throw ContainerStateChanged() }
    }
  }
}

extension Injection {
  /// `attempt`'s result, after running it again for as long as it throws ``ContainerStateChanged``. Each
  /// failed attempt means that another commit changed the container's state meanwhile, so some thread
  /// always makes progress; an attempt is repeated only while others keep committing container rules in
  /// the moment it works its batch out.
  static func retryingWhileContainerStateChanged<Result>(_ attempt: () throws -> Result) throws -> Result {
    while true {
      do {
        return try attempt()
      } catch is ContainerStateChanged {
        continue  // its batch was dropped outside the commit lock; worked out again from the new state
      }
    }
  }
}
