import Synchronization

/// Finds the slot of a property from an instance's class and the field's offset inside it.
///
/// An instance reaches this once per marked property, on its first access; afterwards it keeps the slot
/// in its cached answer. The offset identifies the field within the instance's class hierarchy; the
/// catalog tells which class up the chain declares it.
final class SlotRegistry: @unchecked Sendable {  // `byAccess` and `byProperty` are guarded by `lock`
  static let shared = SlotRegistry()

  private struct AccessKey: Hashable {
    let dynamicClass: ObjectIdentifier
    let offset: Int
  }

  private let lock = KernelLock()
  private var byAccess: [AccessKey: InjectionSlot] = [:]
  private var byProperty: [PropertyDescriptor: InjectionSlot] = [:]

  /// The slot for the field at `fieldOffset` of `object`'s class, created on first use.
  func slot(for object: AnyObject, fieldOffset: Int, valueType: Any.Type) -> InjectionSlot {
    let dynamicClass: AnyClass = type(of: object)
    let key = AccessKey(dynamicClass: ObjectIdentifier(dynamicClass), offset: fieldOffset)
    if let slot = lock.withLock({ byAccess[key] }) { return slot }
    guard let property = PropertyCatalog.shared.property(of: dynamicClass, atOffset: fieldOffset) else {
      fatalError(
        "DeluxeInjection: no marked property at offset \(fieldOffset) of \(Injection.typeName(dynamicClass)) "
          + "(value type \(Injection.typeName(valueType))). Marker wrappers must be stored properties of a Swift class."
      )
    }
    let slot = self.slot(for: property)
    lock.withLock { byAccess[key] = slot }
    return slot
  }

  /// The slot of `property`, created (with the injection the committed rules give it) on first use.
  func slot(for property: PropertyDescriptor) -> InjectionSlot {
    if let slot = existingSlot(for: property) { return slot }
    // Rules are evaluated outside the registry lock; the commit lock orders this against commits.
    return RuleLog.shared.withCommitLock { log in slotHoldingCommitLock(for: property, log: log) }
  }

  /// The slot of `property`, created from `log`'s rules if needed; the caller holds the commit lock.
  func slotHoldingCommitLock(for property: PropertyDescriptor, log: RuleLog) -> InjectionSlot {
    lock.withLock {
      if let slot = byProperty[property] { return slot }
      let slot = InjectionSlot(property: property, injection: log.injection(for: property))
      byProperty[property] = slot
      return slot
    }
  }

  /// The slot of `property` if one exists (it does once an instance read it or a rule reached it).
  func existingSlot(for property: PropertyDescriptor) -> InjectionSlot? {
    lock.withLock { byProperty[property] }
  }

  /// Every slot created so far.
  func allSlots() -> [InjectionSlot] {
    lock.withLock { Array(byProperty.values) }
  }
}
