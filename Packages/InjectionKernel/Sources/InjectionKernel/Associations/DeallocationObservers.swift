extension Injection {
  /// Runs `action` once `object` has been deallocated (after its `deinit`), unless the returned
  /// observation is cancelled first. It does not keep `object` alive.
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
  /// once its call is done), outside every lock of the kernel, so it may touch marked and associated properties (of other objects: the
  /// observed one is gone). Keep it short; it must not wait for the thread that releases the object.
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
    guard !(object is TypeOwner) else { return DeallocationObservation(observers: nil, id: 0) }
    let observers = unsafeDowncast(
      OwnerTable.shared.storage(
        of: object, isTypeOwner: false, key: DeallocationObservers.key, make: { DeallocationObservers() }),
      to: DeallocationObservers.self)
    let id = observers.add(action)
    return DeallocationObservation(observers: observers, id: id)
  }
}

/// An action waiting for an object's deallocation (see ``Injection/onDeallocation(of:perform:)``).
public final class DeallocationObservation: @unchecked Sendable {  // `observers` is a weak reference, set once
  private weak var observers: DeallocationObservers?
  private let id: Int

  init(observers: DeallocationObservers?, id: Int) {
    self.observers = observers
    self.id = id
  }

  /// Withdraws the action if it has not run yet; it then never runs. Idempotent.
  public func cancel() { observers?.remove(id) }
}

/// The deallocation actions of one object: an associated storage of the object (``OwnerTable``), so it
/// is released once the object is deallocated — and its `deinit` runs the actions still registered.
///
/// Reclamation: the owner's record holds the only strong reference; observations hold it weakly, so
/// `cancel()` after the release finds nothing (a weak load fails once deinit began).
final class DeallocationObservers: @unchecked Sendable {  // `actions` is guarded by its lock
  /// The key of this storage among the owner's associations: the address of this class's metadata, which
  /// no associated declaration's key (its declaration class's metadata address) can equal.
  static let key = UInt(bitPattern: unsafeBitCast(DeallocationObservers.self as AnyClass, to: UnsafeRawPointer.self))

  private let actions = LockedState<(next: Int, waiting: [Int: @Sendable () -> Void])>((0, [:]))

  func add(_ action: @escaping @Sendable () -> Void) -> Int {
    actions.withLock { state in
      state.next += 1
      state.waiting[state.next] = action
      return state.next
    }
  }

  func remove(_ id: Int) { _ = actions.withLock { $0.waiting.removeValue(forKey: id) } }

  deinit {
    let waiting = actions.withLock { state in
      defer { state.waiting = [:] }
      return state.waiting.sorted { $0.key < $1.key }.map(\.value)
    }
    for action in waiting { action() }  // outside the lock: an action may observe other objects
  }
}
