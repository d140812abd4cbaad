import Synchronization

/// The per-instance storage of one marked property: the stored value and the instance's current answer.
///
/// A marker wrapper holds one of these (see ``MarkedPropertyWrapper``). A read whose cached answer is
/// current takes the inlined fast path: an atomic load of `head`, one comparison against the slot's
/// generation, and the answer — no lock, no retain. Everything else (the first read of an instance, the
/// first read after an injection changed or after a write, getters) goes through ``answer(for:)``, which
/// runs under this instance's lock, so a getter that fills the storage runs once even when many threads
/// read at once.
public final class MarkedPropertyStorage<Value>: @unchecked Sendable {
  // `stored`, `slot` and `filledOnce` are guarded by `lock`; `head` is atomic and written only under
  // `lock`; the objects it points to are immutable (see ResolvedAccess).

  /// The newest published answer, retained, or `nil`.
  @usableFromInline let head = Atomic<Unmanaged<ResolvedAccess<Value>>?>(nil)
  /// The instance's own value (DeluxeInjection's ivar).
  private var stored: Value?
  /// The slot of the property, once the instance has found it.
  private unowned(unsafe) var slot: InjectionSlot?
  private let lock = KernelLock()
  private var filledOnce = false

  /// Empty storage.
  public init() {}

  /// Storage that already holds `value` (for `@Marker var x = value`).
  public init(storing value: Value) { stored = value }

  deinit {
    head.load(ordering: .acquiring)?.release()
  }

  /// The cached answer when it belongs to the slot's current generation, otherwise `nil`.
  @inlinable
  @inline(__always)
  func currentAnswer() -> Unmanaged<ResolvedAccess<Value>>? {
    guard let access = head.load(ordering: .acquiring), access._withUnsafeGuaranteedRef({ $0.isCurrent }) else {
      return nil
    }
    return access
  }

  /// The value the property stores for this instance, ignoring injections (for tests and plugins).
  public var storedValue: Value? { lock.withLock { stored } }

  /// Replaces the stored value directly, for owners without a class instance (structs, `static`
  /// properties); `nil` of an optional value type empties the storage.
  public func setStoredValue(_ value: Value) {
    lock.withLock { stored = OptionalCheck.isNone(value) ? nil : value }
  }

  // MARK: Slow paths

  /// The answer to a read of `object`'s property when ``currentAnswer()`` has none: computed under the
  /// instance's lock, then published for the next reads, or — for getters, which run on every read —
  /// kept alive by the reading thread (``TransientAnswers``). Stops the program for a non-optional
  /// property with nothing injected and nothing stored.
  @usableFromInline
  @inline(never)
  func answer(for object: AnyObject) -> Unmanaged<ResolvedAccess<Value>> {
    TransientAnswers.drop()
    // A shared value is created outside the instance's lock (its factory may read other properties).
    let (slot, injection, generation) = resolve(object)
    let shared: Value? = if case .shared(let value)? = injection?.read { value.get() } else { nil }
    let (access, isTransient) = lock.withLock { () -> (ResolvedAccess<Value>, Bool) in
      if let current = head.load(ordering: .acquiring)?.takeUnretainedValue(), current.generation == generation {
        return (current, false)  // another reader published this generation's answer meanwhile
      }
      let original = OriginalAccessor<Value>(slot: slot)
      let answer: Value
      switch injection?.read ?? .original {
      case .original:
        answer = original.get(stored)
      case .value(let value):
        answer = stored ?? value
      case .shared:
        answer = stored ?? shared.unsafelyUnwrapped
      case .getter(let getter):
        let value = getter(object, &stored, original)
        return (ResolvedAccess(slot: slot, generation: 0, answer: value, injection: injection), true)
      case .fill(let factory, let once):
        if stored == nil, !(once && filledOnce) {
          stored = factory(object)
          filledOnce = true
        }
        answer = original.get(stored)
      }
      let access = ResolvedAccess(slot: slot, generation: generation, answer: answer, injection: injection)
      // Readers on other threads may still be using the answer being replaced: the new one keeps it.
      access.previous = head.load(ordering: .acquiring)?.takeRetainedValue()
      head.store(Unmanaged.passRetained(access), ordering: .releasing)
      return (access, false)
    }
    // Outside the lock: holding may release this thread's previous answer, whose deinit may read this
    // very property.
    if isTransient { TransientAnswers.hold(access) }
    return Unmanaged.passUnretained(access)  // kept alive by `head` or by this thread
  }

  /// Writes `newValue` to the property of `object` that this storage belongs to.
  public func write(_ newValue: Value, of object: AnyObject) {
    TransientAnswers.drop()
    let (slot, injection, _) = resolve(object)
    let original = OriginalAccessor<Value>(slot: slot)
    let dropped = lock.withLock {
      if let setter = injection?.write {
        setter(object, &stored, newValue, original)
      } else {
        original.set(&stored, newValue)
      }
      // The next read computes its answer afresh; no read of this instance runs during a write.
      return head.exchange(nil, ordering: .acquiringAndReleasing)
    }
    dropped?.release()
  }

  /// The slot, and its injection at a generation, preferring the instance's cached answer.
  private func resolve(_ object: AnyObject) -> (InjectionSlot, PropertyInjection<Value>?, UInt) {
    if let current = currentAnswer() {
      let access = current.takeUnretainedValue()
      return (access.slot, access.injection, access.generation)
    }
    let slot = lock.withLock { self.slot } ?? findSlot(object)
    let (injection, generation) = slot.snapshot()
    // The kernel installs only injections whose value type is the slot's (checked at commit time).
    return (slot, injection.map { unsafeDowncast($0, to: PropertyInjection<Value>.self) }, generation)
  }

  private func findSlot(_ object: AnyObject) -> InjectionSlot {
    let found = SlotRegistry.shared.slot(for: object, storage: self, valueType: Value.self)
    lock.withLock { slot = found }
    return found
  }
}
