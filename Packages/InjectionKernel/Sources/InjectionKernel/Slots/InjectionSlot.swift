import Synchronization

/// The class-level state of one concrete property: its current injection, swapped atomically.
///
/// Every instance of the declaring class and its subclasses reads through the same slot, so installing
/// or removing an injection changes all of them at once. Slots live as long as the process (there is one
/// per property and specialization), which lets instance caches refer to them without reference counting.
public final class InjectionSlot: @unchecked Sendable {  // `injection` is guarded by `lock`; `generation` is atomic
  /// The property this slot serves.
  public let property: PropertyDescriptor
  /// Changes whenever the injection changes; instance caches compare against it.
  @usableFromInline let generation = Atomic<UInt>(1)
  private let lock = KernelLock()
  private var injection: AnyPropertyInjection?
  private var replacements = 0
  let isOptional: Bool
  /// `nil` of the value type, boxed, when the value type is optional.
  let noneValue: Any?

  init(property: PropertyDescriptor, injection: AnyPropertyInjection?) {
    self.property = property
    self.injection = injection
    if let nilType = property.valueType as? any ExpressibleByNilLiteral.Type {
      isOptional = true
      noneValue = nilType.init(nilLiteral: ())
    } else {
      isOptional = false
      noneValue = nil
    }
  }

  /// The current injection and the generation it belongs to, read together.
  func snapshot() -> (injection: AnyPropertyInjection?, generation: UInt) {
    lock.withLock { (injection, generation.load(ordering: .relaxed)) }
  }

  /// The current injection, if any.
  public var currentInjection: AnyPropertyInjection? { lock.withLock { injection } }

  /// Installs `newInjection` (or removes the injection with `nil`) under `generation`.
  func install(_ newInjection: AnyPropertyInjection?, generation newGeneration: UInt) {
    lock.withLock {
      if injection != nil, newInjection != nil { replacements += 1 }
      injection = newInjection
      generation.store(newGeneration, ordering: .releasing)
    }
  }

  /// How many times an injection was replaced by another one without a rejection in between.
  public var replacementCount: Int { lock.withLock { replacements } }

  /// Stops the program: a non-optional property was read with nothing injected and nothing stored.
  func stopForMissingValue() -> Never {
    let hint = property.markerType?.injectionHint(for: property) ?? "an injection"
    fatalError(
      "\(property) was read before anything was injected or stored. Inject it with \(hint), or assign a value first.")
  }
}
