public import InjectionReadSections
import Synchronization

/// The operations on one marked property's state for one instance: its held-value word (inside the
/// instance's ``MarkedStorage``, or inside an associated storage's cell) and the property's slot.
///
/// A view over the word's address, valid while the instance (or the associated storage's owner) is
/// alive, which the caller guarantees by holding it. A read takes the inlined fast path when the
/// field table knows the property and the slot's answer can be served: inside a `ReadSection` it loads
/// the slot's published answer and the instance's held word and copies out the one that applies — no
/// lock, no allocation. Everything else (a class's first access, getters, fills, nothing injected) goes
/// through `answer(for:)`. Writes, fills and getters that change the stored value run under the field's
/// lock (`FieldLocks.h`) and publish a new holder with an atomic exchange; the replaced holder is
/// released once no read section can still be using it, before the write returns. A read racing with a
/// write of the same instance therefore returns the old or the new value, as an Objective-C `atomic`
/// property does. Memory held per instance is the two words of its ``MarkedStorage`` and its current
/// value, whatever the number of writes or re-injections.
@usableFromInline
struct MarkedPropertyStorage<Value> {
  /// The held word: the retained address of the stored value's holder (see ``StoredValueHolder``), or 0.
  @usableFromInline let held: UnsafeMutableRawPointer
  /// The property's slot (slots are immortal).
  @usableFromInline let slot: InjectionSlot
  /// Whether the stored value is held weakly (associated storage with the weak reference policy): the
  /// holder is then a ``WeakStoredValue``, and reads never take the fast path.
  @usableFromInline let holdsWeakly: Bool

  @inlinable
  init(held: UnsafeMutableRawPointer, slot: InjectionSlot, holdsWeakly: Bool = false) {
    self.held = held
    self.slot = slot
    self.holdsWeakly = holdsWeakly
  }

  // MARK: Fast path

  /// The answer of a read of the property with `token` of `object` when the fast path can serve it,
  /// otherwise `nil` (take the slow path). Call it inside a read section.
  @inlinable
  @inline(__always)
  static func servedAnswer(of object: AnyObject, token: UInt) -> Value? {
    let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    let field = ik_field_find_in(base, token)
    guard field.slot != 0 else { return nil }
    return served(bySlotAt: field.slot, held: base + field.offset)
  }

  /// The answer of a read of this storage when the fast path can serve it, otherwise `nil`. Call it
  /// inside a read section.
  @inlinable
  @inline(__always)
  func servedAnswer() -> Value? {
    Self.served(bySlotAt: UInt(bitPattern: Unmanaged.passUnretained(slot).toOpaque()), held: held)
  }

  /// The slot's published answer, or the held value when there is one and the answer lets it decide.
  @inlinable
  @inline(__always)
  static func served(bySlotAt slot: UInt, held: UnsafeRawPointer) -> Value? {
    let answerBits = Unmanaged<InjectionSlot>.fromOpaque(UnsafeRawPointer(bitPattern: slot).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { $0.answer.load(ordering: .acquiring) }
    guard answerBits != 0 else { return nil }
    let stored = ik_held_load(held)
    return Unmanaged<SlotAnswer<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: answerBits).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { answer -> Value? in
        guard answer.isServedByReads else { return nil }
        guard stored != 0, stored != ik_emptied_fill_bits() else { return answer.fallback }
        return Self.value(at: stored)
      }
  }

  /// The storage of the property with `token` of `object`, from the field table; `nil` until the
  /// class's first access of the property added it there (see `LocatedField`).
  @inlinable
  @inline(__always)
  static func located(in object: AnyObject, token: UInt) -> MarkedPropertyStorage? {
    let base = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque())
    let field = ik_field_find_in(base, token)
    guard field.slot != 0 else { return nil }
    return MarkedPropertyStorage(
      held: base + field.offset,
      slot: Unmanaged<InjectionSlot>.fromOpaque(UnsafeRawPointer(bitPattern: field.slot).unsafelyUnwrapped)
        .takeUnretainedValue())
  }

  // MARK: Stored value

  /// The value the property stores for this instance, ignoring injections. Called outside read
  /// sections (slow paths run outside them).
  @inlinable
  var storedValue: Value? {
    ReadSection.enter()
    defer { ReadSection.exit() }
    return storedHoldingLock()
  }

  // MARK: Slow paths

  /// The answer to a read of `object`'s property when ``servedAnswer()`` has none. Stops the program for
  /// a non-optional property with nothing injected and nothing stored.
  @inlinable  // specialized in the owner's module: a generic slow path looks up metadata at every step
  @inline(never)
  func answer(for object: AnyObject) -> Value {
    // What plugin code runs from here (a factory, a getter) can name the property the user read.
    let outer = ik_reading_begin(UInt(bitPattern: Unmanaged.passUnretained(slot).toOpaque()))
    defer { ik_reading_end(outer) }
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
      // Republished only when the new answer would serve the value: not while an override scope keeps a
      // value of its own for it (`createdValue` is `nil` then), or every read would retire an answer.
      if let served, served.fallback == nil, shared.createdValue != nil { slot.refreshAnswer(replacing: served) }
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
    if fromScope { InjectionScope.noteDependencyRead() }
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
      if let kept = keptValue(of: object, in: scope) { return kept }
      // Under the field's lock, as a fill outside scopes: tasks filling the instance at once (of this
      // scope or not) run the factory one after the other, and the later ones find the value made.
      var retired: UInt = 0
      let value = locked { () -> Value? in
        if let stored = storedHoldingLock() { return stored }
        let kept = scope.filledValue(of: object, slot: slot)
        if let value = Self.value(kept: kept, in: scope) { return value }
        // A "once" fill the scope ran, emptied by a write since, stays empty; as does the instance's.
        let filled = ik_held_load(held) == EmptiedFill.bits
        guard !(once && kept != nil), fromScope || !once || !filled else { return nil }
        FillChain.enter(slot)
        let (created, dependsOnScope) = InjectionScope.measuringDependencies { factory(object) }
        FillChain.leave()
        if fromScope || dependsOnScope {
          // A factory's `nil` keeps nothing, as outside scopes: the next read fills again (found by review
          // H65); a once-only fill keeps it, so that it stays done.
          if !once, storedForm(ofFilled: created) == nil { return created }
          return scope.keepFilledValue(created, of: object, slot: slot) as? Value ?? created
        }
        retired = publishHoldingLock(storedForm(ofFilled: created), filled: true)
        return created
      }
      ReadSection.retire(retired)
      return original.get(value)
    }
  }

  /// The value a fill inside `scope` (or an enclosing one) kept for `object`'s property, if any.
  @inlinable
  func keptValue(of object: AnyObject, in scope: InjectionScope) -> Value? {
    Self.value(kept: scope.filledValue(of: object, slot: slot), in: scope)
  }

  /// The value in `kept` (what ``InjectionScope/filledValue(of:slot:)`` returned), counted as a read that
  /// depends on the scope: it was built inside it.
  @inlinable
  static func value(kept: Any??, in scope: InjectionScope) -> Value? {
    // Matched as `Any` before the cast: `nil as Any?` would cast to an optional `Value`.
    guard case .some(.some(let value)) = kept, let kept = value as? Value else { return nil }
    InjectionScope.noteDependencyRead()
    return kept
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
      let filled = ik_held_load(held) == EmptiedFill.bits
      guard stored == nil, !(once && filled) else { return stored }
      FillChain.enter(slot)
      let created = factory(object)
      FillChain.leave()
      retired = publishHoldingLock(storedForm(ofFilled: created), filled: true)
      return created
    }
    ReadSection.retire(retired)
    return stored
  }

  /// What a fill stores of the value its factory made: nothing for an optional property's `nil`, which
  /// leaves the property empty as an assigned `nil` does — the next read fills it again (a fill that runs
  /// once per instance stays done), as `if (_items == nil) _items = …` did.
  @inlinable
  func storedForm(ofFilled created: Value) -> Value? {
    slot.isOptional && OptionalTypes.isNone(created) ? nil : created
  }

  /// Writes `newValue` to the property of `object` that this storage belongs to, through the setter of
  /// the injection the writing task sees.
  @inlinable
  @inline(never)
  func write(_ newValue: Value, of object: AnyObject) {
    let scope = InjectionScope.anyActive ? InjectionScope.current : nil
    let injection =
      if let scope {
        scope.injection(for: slot).injection.map { unsafeDowncast($0, to: PropertyInjection<Value>.self) }
      } else {
        slot.injection(as: Value.self)
      }
    let setter = injection?.write
    // Emptying a property whose once-per-instance fill may have run keeps the fill from running again.
    let fillsOnce = if case .fill(_, true)? = injection?.read { true } else { false }
    let original = OriginalAccessor<Value>(slot: slot)
    let retired = locked { () -> UInt in
      var stored = storedHoldingLock()
      let heldSomething = ik_held_load(held) != 0
      if let setter {
        setter(object, &stored, newValue, original)
      } else {
        original.set(&stored, newValue)
      }
      return publishHoldingLock(stored, filled: fillsOnce && heldSomething)
    }
    ReadSection.retire(retired)
    // The instance's storage decides from now on, not a value a fill of the scope kept.
    scope?.forgetFilledValue(of: object, slot: slot)
  }

  // MARK: State (lock held)

  /// Runs `body` holding the field's lock (see `FieldLocks.h`). A body that re-enters the same
  /// property of the same instance on the same thread (a fill whose factory reads the property it
  /// fills, a getter writing its own property) would wait for itself, and threads whose fills wait for
  /// each other's properties would wait forever: both stop with a message.
  @inlinable
  func locked<Result>(_ body: () -> Result) -> Result {
    let taken = ik_field_lock(held)
    if taken != 0 { Self.stopForCycle(taken, at: slot.property) }
    defer { ik_field_unlock(held) }
    return body()
  }

  /// Stops for a field lock that `ik_field_lock` did not take (`refusal`: 1, the calling thread holds it;
  /// 2, waiting for it would close a cycle of waits across threads).
  @usableFromInline
  static func stopForCycle(_ refusal: Int32, at property: PropertyDescriptor) -> Never {
    if refusal == 1 {
      Injection.stop(
        "\(property) was read or written from inside its own fill or getter on the same thread (a factory "
          + "that needs the value it is creating: a cycle).")
    }
    Injection.stop(
      "\(property) was read or written while the thread filling or writing it waits, directly or through "
        + "other properties' fills and shared values' creations, for a property this thread is filling or "
        + "writing or a value it is creating: a cycle across threads (factories or getters that need each "
        + "other's values), which would wait forever.")
  }

  /// A copy of the stored value; the caller holds the field's lock or is inside a read section, so the
  /// holder cannot be released meanwhile (only lock holders unpublish, and they retire what they replace).
  @inlinable
  func storedHoldingLock() -> Value? {
    let bits = ik_held_load(held)
    guard bits != 0, bits != EmptiedFill.bits else { return nil }
    if holdsWeakly { return WeakStoredValue.value(at: bits, as: Value.self) }
    return Self.value(at: bits)
  }

  /// A copy of the value published at `bits` (a held word's holder, not the emptied-fill mark), which
  /// the caller keeps from being retired (a read section, or the lock).
  @inlinable
  static func value(at bits: UInt) -> Value {
    let pointer = UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped
    if StoredValueHolder<Value>.storesObjectsDirectly {
      return unsafeBitCast(Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue(), to: Value.self)
    }
    return Unmanaged<StoredValue<Value>>.fromOpaque(pointer)._withUnsafeGuaranteedRef { $0.value }
  }

  /// Publishes `value` (nil: nothing stored; after a fill, or once one ran, the emptied-fill mark) and
  /// returns the retained address of the holder it replaced, for ``ReadSection/retire(_:)`` after the
  /// lock.
  @inlinable
  func publishHoldingLock(_ value: Value?, filled: Bool = false) -> UInt {
    let holder: UInt
    if let value {
      holder =
        holdsWeakly
        ? WeakStoredValue.retainedBox(value)
        : UInt(bitPattern: Unmanaged.passRetained(StoredValueHolder<Value>.holder(of: value)).toOpaque())
    } else if filled || ik_held_load(held) == EmptiedFill.bits {
      holder = UInt(bitPattern: Unmanaged.passRetained(EmptiedFill.mark).toOpaque())
    } else {
      holder = 0
    }
    return ik_held_exchange(held, holder)
  }

  /// Whether two optional values have the same representation (then a getter left the storage as it
  /// was; unequal padding only costs a needless publish).
  @inlinable
  static func sameBits(_ lhs: Value?, _ rhs: Value?) -> Bool {
    withUnsafeBytes(of: lhs) { left in withUnsafeBytes(of: rhs) { right in left.elementsEqual(right) } }
  }
}
