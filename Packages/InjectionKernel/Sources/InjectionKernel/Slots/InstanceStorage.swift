internal import InjectionReadSections
public import Synchronization

/// One marked property's ``MarkedStorage`` inside a live class instance, read and written in place.
///
/// The two words are only ever accessed atomically here (after the instance's initializer, before its
/// deinitialization):
/// - `box`: the retained address of an immutable ``StoredValue`` (0: nothing stored). Replaced only by
///   a thread holding the instance's lock; the replaced box is retired through ``ReadSection`` (released
///   once no read section can still be using it, before the replacing call returns). The instance's
///   deinitialization releases the last one, as for any strong stored property.
/// - `control`: the address of the property's ``InjectionSlot`` (immortal, 16-byte aligned; 0 until the
///   instance's first access; racing first accesses OR in the same address), the instance's lock
///   (bits 0 and 1, see `WordLock.h`) and `filledFlag`. Bits other than the lock's change only through
///   atomic read-modify-write operations.
///
/// A fast read loads the slot, the slot's published ``SlotAnswer`` and the box inside a read section and
/// copies the value out; everything else takes ``answer(for:)``. A read racing with a write of the same
/// instance therefore returns the old or the new value, as an Objective-C `atomic` property does.
@usableFromInline
struct InstanceStorage<Value> {
  /// The address of the ``MarkedStorage`` inside the instance (the instance is alive: its caller holds it).
  @usableFromInline let address: UnsafeMutableRawPointer

  @inlinable
  @inline(__always)
  init(_ object: AnyObject, offset: Int) {
    address = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()) + offset
  }

  @inlinable
  var box: UnsafeMutablePointer<Atomic<UInt>> { address.assumingMemoryBound(to: Atomic<UInt>.self) }

  @inlinable
  var control: UnsafeMutablePointer<Atomic<UInt>> {
    (address + MemoryLayout<UInt>.size).assumingMemoryBound(to: Atomic<UInt>.self)
  }

  /// The bits of `control` that hold the slot's address.
  @inlinable
  static var slotMask: UInt { ~0xF }
  /// Set in `control` once a fill created this instance's value (for fills that run once per instance).
  static var filledFlag: UInt { 4 }

  // MARK: Fast path

  /// The answer of a read when the fast path can serve it, otherwise `nil` (take ``answer(for:)``).
  @inlinable
  @inline(__always)
  func servedAnswer(of object: AnyObject) -> Value? {
    var slot = control.pointee.load(ordering: .acquiring) & Self.slotMask
    if slot == 0 { slot = Self.findSlot(of: object, storage: address) }
    ReadSection.enter()
    defer { ReadSection.exit() }
    let answerBits = Unmanaged<InjectionSlot>.fromOpaque(UnsafeRawPointer(bitPattern: slot).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { $0.answer.load(ordering: .acquiring) }
    guard answerBits != 0 else { return nil }
    let stored = box.pointee.load(ordering: .acquiring)
    return Unmanaged<SlotAnswer<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: answerBits).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { answer -> Value? in
        guard answer.isServedByReads else { return nil }
        guard stored != 0 else { return answer.fallback }
        return Unmanaged<StoredValue<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: stored).unsafelyUnwrapped)
          ._withUnsafeGuaranteedRef { $0.value }
      }
  }

  /// Finds the property's slot on the instance's first access (not generic: the first read of a fresh
  /// instance costs no metadata lookups), stores its address in `control` and returns it.
  @usableFromInline
  @inline(never)
  static func findSlot(of object: AnyObject, storage: UnsafeMutableRawPointer) -> UInt {
    let offset = storage - UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque())
    let slot = SlotRegistry.shared.slot(for: object, offset: offset)
    let bits = UInt(bitPattern: Unmanaged.passUnretained(slot).toOpaque())
    precondition(bits & ~slotMask == 0, "DeluxeInjection: a slot is not 16-byte aligned")
    (storage + MemoryLayout<UInt>.size).assumingMemoryBound(to: Atomic<UInt>.self).pointee
      .bitwiseOr(bits, ordering: .acquiringAndReleasing)
    return bits
  }

  // MARK: Slow paths

  /// The answer to a read of `object`'s property when ``servedAnswer(of:)`` has none. Stops the program
  /// for a non-optional property with nothing injected and nothing stored.
  @usableFromInline
  @inline(never)
  func answer(for object: AnyObject) -> Value {
    let slot = slot(of: object)
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
      if served.fallback == nil { slot.refreshAnswer(replacing: served) }
      return value
    case .getter(let getter):
      var retired: UInt = 0
      let value = locked { () -> Value in
        var stored = storedValue
        let before = stored
        let value = getter(object, &stored, original)
        if !Self.sameBits(before, stored) { retired = publishHoldingLock(stored) }
        return value
      }
      ReadSection.retire(retired)
      return value
    case .fill(let factory, let once):
      var retired: UInt = 0
      let stored = locked { () -> Value? in
        let stored = storedValue
        let filled = control.pointee.load(ordering: .relaxed) & Self.filledFlag != 0
        guard stored == nil, !(once && filled) else { return stored }
        let created = factory(object)
        retired = publishHoldingLock(created, filled: true)
        return created
      }
      ReadSection.retire(retired)
      return original.get(stored)
    }
  }

  /// Writes `newValue` to the property of `object` whose storage this is.
  @usableFromInline
  @inline(never)
  func write(_ newValue: Value, of object: AnyObject) {
    let slot = slot(of: object)
    let setter = slot.injection(as: Value.self)?.write
    let original = OriginalAccessor<Value>(slot: slot)
    let retired = locked { () -> UInt in
      var stored = storedValue
      if let setter {
        setter(object, &stored, newValue, original)
      } else {
        original.set(&stored, newValue)
      }
      return publishHoldingLock(stored)
    }
    ReadSection.retire(retired)
  }

  // MARK: Stored value

  /// A copy of the stored value. Safe outside read sections only while holding the lock (only lock
  /// holders unpublish boxes).
  private var storedValue: Value? {
    let bits = box.pointee.load(ordering: .acquiring)
    guard bits != 0 else { return nil }
    return Unmanaged<StoredValue<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue().value
  }

  /// Runs `body` holding the instance's lock for this property (not recursive: a getter or factory that
  /// reads the same property of the same instance deadlocks, as it would with any lock).
  private func locked<Result>(_ body: () -> Result) -> Result {
    let word = UnsafeMutableRawPointer(control).assumingMemoryBound(to: UInt.self)
    ik_word_lock(word)
    defer { ik_word_unlock(word) }
    return body()
  }

  /// Publishes `value` (nil: nothing stored), setting the filled flag if asked, and returns the retained
  /// address of the box it replaced, for ``ReadSection/retire(_:)`` after the lock. Lock held.
  private func publishHoldingLock(_ value: Value?, filled: Bool = false) -> UInt {
    if filled { control.pointee.bitwiseOr(Self.filledFlag, ordering: .relaxed) }
    let bits = value.map { UInt(bitPattern: Unmanaged.passRetained(StoredValue($0)).toOpaque()) } ?? 0
    return box.pointee.exchange(bits, ordering: .acquiringAndReleasing)
  }

  /// Whether two optional values have the same representation (then a getter left the storage as it
  /// was; unequal padding only costs a needless publish).
  private static func sameBits(_ lhs: Value?, _ rhs: Value?) -> Bool {
    withUnsafeBytes(of: lhs) { left in withUnsafeBytes(of: rhs) { right in left.elementsEqual(right) } }
  }

  /// The property's slot, found on the instance's first access and kept.
  private func slot(of object: AnyObject) -> InjectionSlot {
    var bits = control.pointee.load(ordering: .acquiring) & Self.slotMask
    if bits == 0 { bits = Self.findSlot(of: object, storage: address) }
    return Unmanaged<InjectionSlot>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
  }
}
