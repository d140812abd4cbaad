import Synchronization

/// The per-instance storage of one marked property: the instance's stored value, if any, and the slot
/// of the property once the instance has found it.
///
/// A marker wrapper holds one of these (see ``MarkedPropertyWrapper``). A read takes the inlined fast
/// path when the slot is known and its answer can be served: inside a `ReadSection` it loads the
/// slot's published answer and this instance's stored value and copies out the one that applies — no
/// lock, no allocation. Everything else (an instance's first read, getters, fills, nothing injected)
/// goes through `answer(for:)`. Writes, fills and getters that change the storage run under this
/// instance's lock and publish a new immutable box; the replaced box is released once no read section
/// can still be using it, before the write returns. A read racing with a write of the same instance
/// therefore returns the old or the new value, as an Objective-C `atomic` property does.
public final class MarkedPropertyStorage<Value>: MarkedStorageSlot, @unchecked Sendable {
  // `state` and `slotAddress` are atomic; `state` is written only under `lock`. Everything they point to
  // is immutable (StoredValue, SlotAnswer) or immortal (InjectionSlot).

  /// The retained address of the instance's stored value (0: nothing stored), with `filledFlag`: the
  /// object itself when `Value` is a class type (see ``storesObjectsDirectly``), otherwise an immutable
  /// ``StoredValue`` box holding it.
  @usableFromInline let state: Atomic<UInt>
  @usableFromInline let lock: Mutex<Void>
  /// Whether the stored value is held weakly (associated storage with the weak reference policy): the
  /// box in `state` is then a ``WeakStoredValue``, and reads never take the fast path (the associated
  /// storage calls ``answer(for:)`` directly; marker wrappers never create such storage).
  @usableFromInline let holdsWeakly: Bool

  /// Set in `state` once a fill created this instance's value (for fills that run once per instance).
  @inlinable
  static var filledFlag: UInt { 1 }
  /// The bits of `state` that hold the box's address (boxes are at least 2-byte aligned).
  @usableFromInline static var addressMask: UInt { ~1 }

  /// Empty storage (inlinable: the owner's module allocates it with specialized metadata).
  @inlinable
  public convenience init() { self.init(state: 0) }

  /// Storage that already holds `value` (for `@Marker var x = value`).
  public convenience init(storing value: Value) { self.init(state: Self.retainedBox(value)) }

  @usableFromInline
  init(state: UInt) {
    self.state = Atomic(state)
    lock = Mutex(())
    holdsWeakly = false
    super.init(slotAddress: 0)
  }

  /// Empty storage whose slot is known from the start: an associated property's storage for one owner
  /// (see ``AssociatedProperty``).
  init(slot: InjectionSlot, holdsWeakly: Bool) {
    state = Atomic(0)
    lock = Mutex(())
    self.holdsWeakly = holdsWeakly
    super.init(slotAddress: UInt(bitPattern: Unmanaged.passUnretained(slot).toOpaque()))
  }

  deinit {
    // No read can run: readers hold the instance that owns this storage.
    Self.release(box: state.load(ordering: .acquiring))
  }

  // MARK: Fast path

  /// The answer of a read when the fast path can serve it, otherwise `nil` (take ``answer(for:)``).
  @inlinable
  @inline(__always)
  func servedAnswer(of object: AnyObject, declarationArguments: @autoclosure () -> (any Sendable)? = nil) -> Value? {
    if slotAddress.load(ordering: .relaxed) == 0 {
      findSlot(of: object, declarationArguments: declarationArguments(), fromWrapper: true)
    }
    ReadSection.enter()
    defer { ReadSection.exit() }
    let slot = slotAddress.load(ordering: .acquiring)
    guard slot != 0 else { return nil }
    let answerBits = Unmanaged<InjectionSlot>.fromOpaque(UnsafeRawPointer(bitPattern: slot).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { $0.answer.load(ordering: .acquiring) }
    guard answerBits != 0 else { return nil }
    let stored = state.load(ordering: .acquiring) & Self.addressMask
    return Unmanaged<SlotAnswer<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: answerBits).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { answer -> Value? in
        guard answer.isServedByReads else { return nil }
        guard stored != 0 else { return answer.fallback }
        return Self.value(at: stored)
      }
  }

  // MARK: Stored value

  /// The value the property stores for this instance, ignoring injections (for tests and plugins).
  public var storedValue: Value? { locked { storedHoldingLock() } }

  /// Replaces the stored value directly, for owners without a class instance (structs, `static`
  /// properties); `nil` of an optional value type empties the storage.
  public func setStoredValue(_ value: Value) {
    let retired = locked { publishHoldingLock(OptionalTypes.isNone(value) ? nil : value) }
    ReadSection.retire(retired)
  }

  // MARK: Slow paths

  /// The answer to a read of `object`'s property when ``servedAnswer()`` has none. Stops the program for
  /// a non-optional property with nothing injected and nothing stored.
  @inlinable  // specialized in the owner's module: a generic slow path looks up metadata at every step
  @inline(never)
  func answer(for object: AnyObject) -> Value {
    let slot = slot(of: object)
    if InjectionScope.anyActive, let scope = InjectionScope.current {
      return answer(for: object, slot: slot, in: scope)
    }
    let (served, injection) = slot.servedAnswer(as: Value.self)
    let original = OriginalAccessor<Value>(slot: slot)
    switch injection?.read ?? .original {
    case .original:
      return original.get(storedValue)
    case .value(let value):
      return storedValue ?? value
    case .shared(let shared):
      if let stored = storedValue { return stored }
      let value = shared.get()  // outside every kernel lock: the factory may read other properties
      if let served, served.fallback == nil { slot.refreshAnswer(replacing: served) }
      return value
    case .getter(let getter):
      return read(object, through: getter, original: original)
    case .fill(let factory, let once):
      return original.get(fill(object, with: factory, once: once))
    }
  }

  /// The answer to a read from a task inside an override scope: the scope's injection if it (or a
  /// parent) decides one, and a fill that used the scope's overrides keeps its value in the scope.
  @inlinable  // specialized in the owner's module, like the process's slow path
  @inline(never)
  func answer(for object: AnyObject, slot: InjectionSlot, in scope: InjectionScope) -> Value {
    let (injection, fromScope) = scope.injection(for: slot)
    // A fill running in this task (a factory reading this property) depends on the scope then: its
    // value must stay in the scope rather than reach the instance (see the `.fill` case below).
    if fromScope { scope.dependencyReads.add(1, ordering: .relaxed) }
    let original = OriginalAccessor<Value>(slot: slot)
    switch injection.map({ unsafeDowncast($0, to: PropertyInjection<Value>.self).read }) ?? .original {
    case .original:
      return original.get(storedValue)
    case .value(let value):
      return storedValue ?? value
    case .shared(let shared):
      return storedValue ?? shared.get()
    case .getter(let getter):
      return read(object, through: getter, original: original)
    case .fill(let factory, let once):
      if let stored = storedValue { return stored }
      let kept = scope.filledValue(of: object, slot: slot)
      // Matched as `Any` before the cast: `nil as Any?` would cast to an optional `Value`.
      if case .some(.some(let value)) = kept, let kept = value as? Value {
        scope.dependencyReads.add(1, ordering: .relaxed)  // a value built inside the scope, as above
        return kept
      }
      // A "once" fill the scope ran, emptied by a write since, stays empty; as does the instance's.
      guard !(once && kept != nil), fromScope || !once || state.load(ordering: .acquiring) & Self.filledFlag == 0
      else {
        return original.get(nil)
      }
      let readsBefore = scope.dependencyReads.load(ordering: .acquiring)
      let created = factory(object)
      if fromScope || scope.dependencyReads.load(ordering: .acquiring) != readsBefore {
        return scope.keepFilledValue(created, of: object, slot: slot) as? Value ?? created
      }
      return original.get(fill(object, with: { _ in created }, once: once))
    }
  }

  /// A read through a getter, under this instance's lock; a changed storage is published.
  @inlinable
  func read(_ object: AnyObject, through getter: PropertyInjection<Value>.Getter, original: OriginalAccessor<Value>)
    -> Value
  {
    var retired: UInt = 0
    let value = locked { () -> Value in
      var stored = storedHoldingLock()
      let before = stored
      let value = getter(object, &stored, original)
      if !Self.sameBits(before, stored) { retired = publishHoldingLock(stored) }
      return value
    }
    ReadSection.retire(retired)
    return value
  }

  /// Fills an empty storage with the factory's value (at most once per instance with `once`) and
  /// returns what the storage holds then.
  @inlinable
  func fill(_ object: AnyObject, with factory: (AnyObject) -> Value, once: Bool) -> Value? {
    var retired: UInt = 0
    let stored = locked { () -> Value? in
      let stored = storedHoldingLock()
      let filled = state.load(ordering: .relaxed) & Self.filledFlag != 0
      guard stored == nil, !(once && filled) else { return stored }
      let created = factory(object)
      retired = publishHoldingLock(created, filled: true)
      return created
    }
    ReadSection.retire(retired)
    return stored
  }

  /// Writes `newValue` to the property of `object` that this storage belongs to, through the setter of
  /// the injection the writing task sees.
  @inlinable
  @inline(never)
  public func write(_ newValue: Value, of object: AnyObject) {
    let slot = slot(of: object)
    let scope = InjectionScope.anyActive ? InjectionScope.current : nil
    let injection =
      if let scope {
        scope.injection(for: slot).injection.map { unsafeDowncast($0, to: PropertyInjection<Value>.self) }
      } else {
        slot.injection(as: Value.self)
      }
    let setter = injection?.write
    let original = OriginalAccessor<Value>(slot: slot)
    let retired = locked { () -> UInt in
      var stored = storedHoldingLock()
      if let setter {
        setter(object, &stored, newValue, original)
      } else {
        original.set(&stored, newValue)
      }
      return publishHoldingLock(stored)
    }
    ReadSection.retire(retired)
    // The instance's storage decides from now on, not a value a fill of the scope kept.
    scope?.forgetFilledValue(of: object, slot: slot)
  }

  // MARK: State (lock held)

  /// Runs `body` holding this instance's lock. (`Mutex` is inline and needs no allocation; its
  /// `withLock` wants a `sending` result, which a generic value read under the lock cannot promise, so
  /// the result leaves through a local.)
  ///
  /// On Linux a contended `Mutex` is handed over inside the operating system, where the thread sanitizer
  /// cannot see it; the acquiring load on entry and the releasing no-op on exit make each holder's
  /// writes visibly happen before the next holder's reads (a fill factory's own state, say), at the cost
  /// of one atomic no-op per slow-path section.
  @inlinable
  func locked<Result>(_ body: () -> Result) -> Result {
    var result: Result?
    lock.withLock { _ in
      _ = slotAddress.load(ordering: .acquiring)
      result = body()
      slotAddress.wrappingAdd(0, ordering: .releasing)
    }
    return result.unsafelyUnwrapped
  }

  /// A copy of the stored value; the box cannot be retired meanwhile (only lock holders unpublish).
  @inlinable
  func storedHoldingLock() -> Value? {
    let bits = state.load(ordering: .acquiring) & Self.addressMask
    guard bits != 0 else { return nil }
    if holdsWeakly { return WeakStoredValue.value(at: bits, as: Value.self) }
    return Self.value(at: bits)
  }

  /// Whether the state word holds a stored value itself rather than a ``StoredValue`` box: when `Value`
  /// is a class type (a single reference-counted pointer), storing or filling one costs no allocation.
  /// Known at compile time in specialized code.
  @inlinable
  static var storesObjectsDirectly: Bool {
    Value.self is AnyObject.Type && MemoryLayout<Value>.size == MemoryLayout<UInt>.size
  }

  /// A copy of the value published at `bits` (an address from `state`, without the flag), which the
  /// caller keeps from being retired (a read section, or the lock).
  @inlinable
  static func value(at bits: UInt) -> Value {
    let pointer = UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped
    if storesObjectsDirectly {
      return unsafeBitCast(Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue(), to: Value.self)
    }
    return Unmanaged<StoredValue<Value>>.fromOpaque(pointer)._withUnsafeGuaranteedRef { $0.value }
  }

  /// Publishes `value` (nil: nothing stored), keeping or setting the filled flag, and returns the
  /// retained address of the box it replaced, for ``ReadSection/retire(_:)`` after the lock.
  @inlinable
  func publishHoldingLock(_ value: Value?, filled: Bool = false) -> UInt {
    let flag = (filled ? Self.filledFlag : 0) | (state.load(ordering: .relaxed) & Self.filledFlag)
    let box = value.map { holdsWeakly ? WeakStoredValue.retainedBox($0) : Self.retainedBox($0) } ?? 0
    return state.exchange(box | flag, ordering: .acquiringAndReleasing) & Self.addressMask
  }

  /// `value` published: the object itself, retained, or a new retained box (see ``storesObjectsDirectly``).
  @inlinable
  static func retainedBox(_ value: Value) -> UInt {
    if storesObjectsDirectly {
      return UInt(bitPattern: Unmanaged.passRetained(unsafeBitCast(value, to: AnyObject.self)).toOpaque())
    }
    return UInt(bitPattern: Unmanaged.passRetained(StoredValue(value)).toOpaque())
  }

  private static func release(box bits: UInt) {
    let address = bits & addressMask
    guard address != 0 else { return }
    Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).release()
  }

  /// Whether two optional values have the same representation (then a getter left the storage as it
  /// was; unequal padding only costs a needless publish).
  @inlinable
  static func sameBits(_ lhs: Value?, _ rhs: Value?) -> Bool {
    withUnsafeBytes(of: lhs) { left in withUnsafeBytes(of: rhs) { right in left.elementsEqual(right) } }
  }

  // MARK: Slot

  /// The property's slot, found on the instance's first access and kept.
  @inlinable
  func slot(of object: AnyObject) -> InjectionSlot {
    if slotAddress.load(ordering: .acquiring) == 0 { findSlot(of: object) }
    let address = slotAddress.load(ordering: .acquiring)
    return Unmanaged<InjectionSlot>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
  }

  /// Finds the property's slot on the instance's first access (not generic, so the first read of a fresh
  /// instance costs no metadata lookups) and stores its address; racing first reads store the same one.
  /// The marker's declaration arguments, if any, reach the slot before its address is stored, so no read
  /// of this instance can run the plugin's injection without them. `fromWrapper`: the arguments are the
  /// wrapper's own (`nil` then means it has none), so that other instances' storages of this property
  /// may be given the slot by their instance's first access (see ``SlotRegistry``).
  @usableFromInline
  @inline(never)
  func findSlot(of object: AnyObject, declarationArguments: (any Sendable)? = nil, fromWrapper: Bool = false) {
    let found = SlotRegistry.shared.slotAddress(for: object, storage: self, valueType: Value.self)
    if fromWrapper, !InjectionSlot.hasSettledDeclarationArguments(inSlotAt: found) {
      if let declarationArguments {
        InjectionSlot.recordDeclarationArguments(declarationArguments, inSlotAt: found)
      }
      InjectionSlot.settleDeclarationArguments(inSlotAt: found)
    }
    slotAddress.store(found, ordering: .releasing)
  }
}
