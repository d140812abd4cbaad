import Synchronization

/// The per-instance storage of one marked property: the stored value and a cached answer for reads.
///
/// A marker wrapper holds one of these (see ``MarkedPropertyWrapper``). Reads first try
/// ``fastRead()``: one atomic load, one comparison against the slot's generation, and the value — no
/// lock, no dictionary. Everything else (the first read of an instance, reads after an injection
/// changed, getters, writes) goes through the slow path, which runs getters and setters under this
/// instance's lock, so a getter that fills the storage runs once even when many threads read at once.
public final class MarkedPropertyStorage<Value>: @unchecked Sendable {
  // `stored` is written only under `lock` (and read without it only when a published answer says the
  // storage is the answer); `head` is atomic; `filledOnce` is guarded by `lock`.

  /// The newest `ResolvedAccess<Value>`, retained, or 0.
  @usableFromInline let head = Atomic<UInt>(0)
  /// The instance's own value (DeluxeInjection's ivar).
  @usableFromInline @exclusivity(unchecked) var stored: Value?
  private let lock = KernelLock()
  private var filledOnce = false

  /// Empty storage.
  public init() {}

  /// Storage that already holds `value` (for `@Marker var x = value`).
  public init(storing value: Value) { stored = value }

  deinit {
    let bits = head.load(ordering: .acquiring)
    if let pointer = UnsafeRawPointer(bitPattern: bits) {
      Unmanaged<ResolvedAccess<Value>>.fromOpaque(pointer).release()
    }
  }

  /// The answer of a read when the instance's cached answer is current, otherwise `nil`.
  @inlinable
  @inline(__always)
  public func fastRead() -> Value? {
    let bits = head.load(ordering: .acquiring)
    guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
    return Unmanaged<ResolvedAccess<Value>>.fromOpaque(pointer)._withUnsafeGuaranteedRef { access in
      guard access.isCurrent else { return nil }
      if access.readsStorage, let stored { return stored }
      return access.fallback
    }
  }

  /// The value the property stores for this instance, ignoring injections (for tests and plugins).
  public var storedValue: Value? { lock.withLock { stored } }

  /// Replaces the stored value directly, for owners without a class instance (structs, `static`
  /// properties); `nil` of an optional value type empties the storage.
  public func setStoredValue(_ value: Value) {
    lock.withLock { stored = OptionalCheck.isNone(value) ? nil : value }
  }

  // MARK: Slow paths

  /// Reads the property of `object` that this storage belongs to.
  public func read(of object: AnyObject) -> Value {
    let (slot, injection, generation) = resolve(object)
    let original = OriginalAccessor<Value>(slot: slot)
    switch injection?.read ?? .original {
    case .original:
      let value = lock.withLock { stored }
      publish(slot, generation, readsStorage: true, fallback: slot.noneValue as? Value, injection)
      return original.get(value)
    case .value(let value):
      publish(slot, generation, readsStorage: true, fallback: value, injection)
      return lock.withLock { stored } ?? value
    case .shared(let shared):
      let value = shared.get()
      publish(slot, generation, readsStorage: true, fallback: value, injection)
      return lock.withLock { stored } ?? value
    case .getter(let getter):
      publish(slot, generation, readsStorage: false, fallback: nil, injection)
      return lock.withLock { getter(object, &stored, original) }
    case .fill(let factory, let once):
      let value = lock.withLock { () -> Value? in
        if stored == nil, !(once && filledOnce) {
          stored = factory(object)
          filledOnce = true
        }
        return stored
      }
      publish(slot, generation, readsStorage: true, fallback: nil, injection)
      return original.get(value)
    }
  }

  /// Writes `newValue` to the property of `object` that this storage belongs to.
  public func write(_ newValue: Value, of object: AnyObject) {
    let (slot, injection, _) = resolve(object)
    let original = OriginalAccessor<Value>(slot: slot)
    lock.withLock {
      if let setter = injection?.write {
        setter(object, &stored, newValue, original)
      } else {
        original.set(&stored, newValue)
      }
    }
  }

  /// The slot, and its injection at a generation, preferring the instance's cached answer.
  private func resolve(_ object: AnyObject) -> (
    InjectionSlot, PropertyInjection<Value>?, UInt
  ) {
    let slot: InjectionSlot
    if let current = currentAccess() {
      if current.isCurrent { return (current.slot, current.injection, current.generation) }
      slot = current.slot
    } else {
      slot = SlotRegistry.shared.slot(for: object, storage: self, valueType: Value.self)
    }
    let (injection, generation) = slot.snapshot()
    // The kernel installs only injections whose value type is the slot's (checked at commit time).
    return (slot, injection.map { unsafeDowncast($0, to: PropertyInjection<Value>.self) }, generation)
  }

  private func currentAccess() -> ResolvedAccess<Value>? {
    let bits = head.load(ordering: .acquiring)
    guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
    return Unmanaged<ResolvedAccess<Value>>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Makes `head` answer reads at `generation`, unless it already does.
  private func publish(
    _ slot: InjectionSlot, _ generation: UInt, readsStorage: Bool, fallback: Value?,
    _ injection: PropertyInjection<Value>?
  ) {
    var expected = head.load(ordering: .acquiring)
    if let pointer = UnsafeRawPointer(bitPattern: expected) {
      let current = Unmanaged<ResolvedAccess<Value>>.fromOpaque(pointer).takeUnretainedValue()
      if current.generation == generation, current.readsStorage == readsStorage { return }
    }
    let access = ResolvedAccess(
      slot: slot, generation: generation, readsStorage: readsStorage, fallback: fallback, injection: injection)
    let desired = UInt(bitPattern: Unmanaged.passRetained(access).toOpaque())
    while true {
      // `head`'s reference moves into `previous`; readers holding the old answer stay safe.
      access.previous = UnsafeRawPointer(bitPattern: expected).map {
        Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue()
      }
      let (exchanged, actual) = head.compareExchange(
        expected: expected, desired: desired, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
      if exchanged {
        if let pointer = UnsafeRawPointer(bitPattern: expected) {
          Unmanaged<AnyObject>.fromOpaque(pointer).release()  // `previous` holds it now
        }
        return
      }
      expected = actual
    }
  }
}
