import Synchronization

/// The class-level state of one concrete property as one class sees it: its current injection, swapped
/// atomically.
///
/// Every instance of a class reads a property through the same slot, so installing or removing an
/// injection changes all of them at once. A subclass has a slot of its own for each property it
/// inherits (its view, ``PropertyDescriptor/viewed(from:)``), holding the declaring class's injection
/// object until a rule naming the subclass gives it one of its own. Slots live as long as the process
/// (one per property, specialization and class that has instances), which lets instances refer to them
/// without reference counting.
public final class InjectionSlot: @unchecked Sendable {  // `injection` is guarded by `lock`; `answer` is atomic
  /// The property this slot serves.
  public let property: PropertyDescriptor
  /// The retained address of the ``SlotAnswer`` of the current injection, or 0 until a read builds it.
  /// Written only under `lock`; read by fast reads inside a ``ReadSection``.
  @usableFromInline let answer = Atomic<UInt>(0)
  @usableFromInline let lock = KernelLock()
  // Guarded by `lock`, which makes every access exclusive: no runtime exclusivity checks.
  @exclusivity(unchecked) @usableFromInline var injection: AnyPropertyInjection?
  @exclusivity(unchecked) private var replacements = 0
  /// How many active override scopes select this slot; while any does, no answer is published, so every
  /// read takes the slow path and asks its task's scope.
  @exclusivity(unchecked) @usableFromInline var overrides = 0
  /// Whether the value type is an optional (read from its metadata: a cast to `ExpressibleByNilLiteral`
  /// would scan every conformance record of every image for each new value type).
  @usableFromInline let isOptional: Bool
  /// The retained address of the marker's ``DeclarationArgumentsBox`` (0 until an instance was accessed);
  /// set once, first wins (see `DeclarationArguments.swift`).
  let declarationArgumentsAddress = Atomic<UInt>(0)
  /// Whether an instance's wrapper has handed its declaration arguments (or said it has none): from then
  /// on, an instance's first access may give this slot to the instance's storage of the property without
  /// asking its wrapper (see ``SlotRegistry``).
  let declarationArgumentsSettled = Atomic<Bool>(false)

  init(property: PropertyDescriptor, injection: AnyPropertyInjection?) {
    self.property = property
    self.injection = injection
    isOptional = MetadataAccess.optionalWrappedType(property.valueType) != nil
  }

  /// The current injection, if any.
  public var currentInjection: AnyPropertyInjection? { lock.withLock { injection } }

  /// The current injection, typed; the kernel installs only injections of the slot's value type
  /// (checked when rules commit). Taken from the published answer without the lock when there is one.
  @inlinable
  func injection<Value>(as type: Value.Type) -> PropertyInjection<Value>? {
    if let published = publishedAnswer(as: Value.self) { return published.injection }
    return currentInjection.map { unsafeDowncast($0, to: PropertyInjection<Value>.self) }
  }

  /// The published answer, retained inside a read section (so a commit retiring it meanwhile waits for
  /// the retain), or `nil` when none is published. An answer is published only while it belongs to the
  /// current injection and no override scope selects the slot: `install` and `beginOverride` unpublish
  /// it under the lock before they return, so a caller that starts after them finds none or the new one.
  @inlinable
  func publishedAnswer<Value>(as type: Value.Type) -> SlotAnswer<Value>? {
    ReadSection.enter()
    defer { ReadSection.exit() }
    let bits = answer.load(ordering: .acquiring)
    guard bits != 0 else { return nil }
    return Unmanaged<SlotAnswer<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
      .takeUnretainedValue()
  }

  /// Installs `newInjection` (or removes the injection with `nil`) and returns the retained address of
  /// the answer it unpublished (0 if none), which the caller must retire through ``ReadSection``.
  func install(_ newInjection: AnyPropertyInjection?, countingReplacement: Bool = true) -> UInt {
    lock.withLock {
      if countingReplacement, injection != nil, newInjection != nil { replacements += 1 }
      injection = newInjection
      return answer.exchange(0, ordering: .acquiringAndReleasing)
    }
  }

  /// Installs a restored snapshot's `savedInjection`, with its re-injection count, and returns the
  /// retained address of the answer it unpublished (0 if none), which the caller must retire.
  func restore(_ savedInjection: AnyPropertyInjection?, replacementCount: Int) -> UInt {
    lock.withLock {
      injection = savedInjection
      replacements = replacementCount
      return answer.exchange(0, ordering: .acquiringAndReleasing)
    }
  }

  /// Switches the fast path off while an override scope selects this slot; returns the retained
  /// address of the answer it unpublished (0 if none), which the caller must retire.
  func beginOverride() -> UInt {
    lock.withLock {
      overrides += 1
      return answer.exchange(0, ordering: .acquiringAndReleasing)
    }
  }

  /// Ends one override begun by ``beginOverride()``; the next read publishes an answer again.
  func endOverride() {
    lock.withLock { overrides -= 1 }
  }

  /// The published answer and the injection it belongs to, built and published now if needed; no answer
  /// while an override scope selects the slot. Without the lock once an answer is published.
  @inlinable
  func servedAnswer<Value>(as type: Value.Type) -> (SlotAnswer<Value>?, PropertyInjection<Value>?) {
    if let published = publishedAnswer(as: Value.self) { return (published, published.injection) }
    return lock.withLock {
      let current = injection.map { unsafeDowncast($0, to: PropertyInjection<Value>.self) }
      guard !isOverridden else { return (nil, current) }
      let bits = answer.load(ordering: .acquiring)
      if bits != 0 {
        return (
          Unmanaged<SlotAnswer<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue(), current
        )
      }
      let built = SlotAnswer<Value>(injection: current, none: none(as: Value.self))
      answer.store(UInt(bitPattern: Unmanaged.passRetained(built).toOpaque()), ordering: .releasing)
      return (built, current)
    }
  }

  /// Unpublishes `stale` if it is still the published answer (a shared value was created since it was
  /// built), so that the next read builds one that serves the value.
  @inlinable
  func refreshAnswer<Value>(replacing stale: SlotAnswer<Value>) {
    let staleBits = UInt(bitPattern: Unmanaged.passUnretained(stale).toOpaque())
    let retired = lock.withLock {
      answer.compareExchange(expected: staleBits, desired: 0, ordering: .acquiringAndReleasing).exchanged
    }
    if retired { ReadSection.retire(staleBits) }
  }

  /// The outer `nil` of the value type when it is an optional, else `nil` (no such value).
  @inlinable
  func none<Value>(as type: Value.Type) -> Value? {
    isOptional ? Injection.none(of: Value.self) : nil
  }

  /// Whether an override scope selects the slot (lock held).
  @usableFromInline var isOverridden: Bool { overrides > 0 }

  /// How many times an injection was replaced by another one without a rejection in between.
  public var replacementCount: Int { lock.withLock { replacements } }

  /// Stops the program: a non-optional property was read with nothing injected and nothing stored, or
  /// its injection (a getter, a setter) asked for the stored value of an instance that stores none.
  @usableFromInline
  func stopForMissingValue() -> Never {
    // The injection the reading task sees: its override scope's, if one decides the property.
    let seen =
      if InjectionScope.anyActive, let scope = InjectionScope.current {
        scope.injection(for: self).injection
      } else {
        currentInjection
      }
    guard let injection = seen else { Injection.stop(property.missingValueMessage) }
    if injection.leavesReadsPlain {
      Injection.stop(
        "\(property.description) was read with nothing stored: its injection (\(injection.summary)) leaves reads "
          + "plain (it handles writes only), so a read needs a stored value. Give the instance a value first, or "
          + "inject a getter with it (getter(_:setter:)).")
    }
    Injection.stop(
      "\(property.description) was read with nothing stored, and its injection (\(injection.summary)) asked for "
        + "the stored value with original.get: give the instance a value first, or have the injection return "
        + "one of its own when the storage is nil.")
  }
}
