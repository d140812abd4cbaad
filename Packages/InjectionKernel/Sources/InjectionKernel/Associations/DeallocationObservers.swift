import Synchronization

extension Injection {
  /// Runs `action` once `object` has been deallocated (after its `deinit`; an `isolated deinit` that
  /// the runtime runs later on its actor may run after the action, as associated values are released
  /// before it too), unless the returned observation is cancelled first. It does not keep `object` alive.
  ///
  /// For plugins whose per-instance work must end with the instance: DefaultsPlugin ends a
  /// `$property.values` sequence this way.
  ///
  /// ```swift
  /// let released = LockedState(false)
  /// var player: Player? = Player()
  /// let observation = Injection.onDeallocation(of: player!) { released.withLock { $0 = true } }
  /// player = nil  // `released` is now true
  /// observation.cancel()  // no effect once the action ran
  /// ```
  ///
  /// The action runs on the thread that released the object's last strong reference (or, when a
  /// `cancel()` of another observation of the object races with that release, on the cancelling thread,
  /// once its call is done), outside every lock of the kernel, so it may touch marked and associated
  /// properties (of other objects: the observed one is gone). Keep it short; it must not wait for the thread that releases the object.
  /// Observing a class object's ``TypeOwner`` (which never dies) records nothing; an observation added
  /// from the object's own `deinit` may run late or never. The observed object's class gets the kernel's
  /// deallocation hook, as a class with associated properties does (on Linux a class that is not a
  /// native Swift class stops the program, naming it).
  ///
  /// - Parameters:
  ///   - object: The object to watch.
  ///   - action: What to run once it is gone.
  /// - Returns: The observation; cancel it when the action is no longer needed, so that a long-lived
  ///   object does not keep actions of observers long gone (each costs a closure until then).
  @discardableResult
  public static func onDeallocation(
    of object: AnyObject, perform action: @escaping @Sendable () -> Void
  ) -> DeallocationObservation {
    guard !(object is TypeOwner) else { return DeallocationObservation(observers: nil) }
    let observers = unsafeDowncast(
      OwnerTable.shared.storage(
        of: object, isTypeOwner: false, key: DeallocationObservers.key, make: { DeallocationObservers() }),
      to: DeallocationObservers.self)
    let observation = DeallocationObservation(observers: observers)
    observers.add(observation, action)
    return observation
  }
}

/// An action waiting for an object's deallocation (see ``Injection/onDeallocation(of:perform:)``).
public final class DeallocationObservation: @unchecked Sendable {  // `observers` is set once; `state` is atomic
  /// The object's actions, weakly: the object's record holds them, and only until it is deallocated.
  private weak var observers: DeallocationObservers?
  /// 0 waiting, 1 cancelled, 2 run (or running): the one transition out of 0 decides.
  private let state = Atomic<Int>(0)

  init(observers: DeallocationObservers?) {
    self.observers = observers
  }

  /// Withdraws the action if it has not started yet; it then never runs. Idempotent. Called while the
  /// object's other actions run (from one of them, or from another thread), it still withdraws this one
  /// if it has not started.
  public func cancel() {
    guard state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else { return }
    observers?.remove(self)  // frees the action (and what it captured) while the object lives on
  }

  /// Whether the object's deallocation is still awaited: its action list exists (also while its deinit
  /// runs) and has not begun running its actions.
  var isAwaitingDeallocation: Bool { observers != nil }

  /// Whether this observation is on `object`'s own action list (a later object at the same address has a
  /// list of its own). For a deallocating object, whose weak references read `nil`.
  func watches(_ object: AnyObject) -> Bool {
    guard let mine = observers else { return false }
    return mine
      === OwnerTable.shared.storage(of: object, isTypeOwner: false, key: DeallocationObservers.key) {
        DeallocationObservers()
      }
  }

  /// Runs `action` unless the observation was cancelled first.
  fileprivate func run(_ action: @Sendable () -> Void) {
    guard state.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged else { return }
    action()
  }
}

/// The deallocation actions of one object: an associated storage of the object (``OwnerTable``), so it
/// is released once the object is deallocated — and its `deinit` runs the actions not cancelled.
///
/// Reclamation: the owner's record holds the only strong reference; observations hold it weakly, so a
/// `cancel()` after the release (or during it: a weak load fails once deinit began) finds nothing to
/// remove, and the observation's own state keeps a cancelled action from running.
final class DeallocationObservers: @unchecked Sendable {  // `actions` is guarded by its lock
  /// The key of this storage among the owner's associations: the address of this class's metadata, which
  /// no associated declaration's key (its declaration class's metadata address) can equal.
  static let key = UInt(bitPattern: unsafeBitCast(DeallocationObservers.self as AnyClass, to: UnsafeRawPointer.self))

  private struct Waiting {
    /// Its place in the order the actions were added.
    let order: Int
    let observation: DeallocationObservation
    let action: @Sendable () -> Void
  }

  /// By observation identity (a cancel removes one at once, however many wait).
  private let actions = LockedState<(added: Int, waiting: [ObjectIdentifier: Waiting])>((0, [:]))

  func add(_ observation: DeallocationObservation, _ action: @escaping @Sendable () -> Void) {
    actions.withLock { state in
      state.added += 1
      state.waiting[ObjectIdentifier(observation)] = Waiting(
        order: state.added, observation: observation, action: action)
    }
  }

  func remove(_ observation: DeallocationObservation) {
    let removed = actions.withLock { $0.waiting.removeValue(forKey: ObjectIdentifier(observation)) }
    withExtendedLifetime(removed) {}  // what the action captured is released outside the lock
  }

  deinit {
    let waiting = actions.withLock { state in
      defer { state.waiting = [:] }
      return state.waiting.values.sorted { $0.order < $1.order }
    }
    // Outside the lock: an action may observe other objects, or cancel another action of this object.
    for entry in waiting { entry.observation.run(entry.action) }
  }
}
