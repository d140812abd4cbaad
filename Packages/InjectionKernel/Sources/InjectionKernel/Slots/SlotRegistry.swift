import Synchronization

/// Finds the slot of a property from an instance and the property's storage object.
///
/// An instance reaches this once per marked property, on its first access; afterwards it keeps the slot
/// in its cached answer. The marked properties of the instance's class and its superclasses are the
/// candidates; the one whose field (at its offset in the instance) holds this storage object is the one
/// being accessed. Reading the instance's words through a raw pointer needs no Swift access to the
/// property, so concurrent first reads of one instance do not conflict.
final class SlotRegistry: @unchecked Sendable {  // `candidatesByClass` and `byProperty` are guarded by `lock`
  static let shared = SlotRegistry()

  private let lock = KernelLock()
  private var candidatesByClass: [ObjectIdentifier: [PropertyDescriptor]] = [:]
  private var byProperty: [PropertyDescriptor: InjectionSlot] = [:]

  /// The slot of the property of `object` whose wrapper holds `storage`, created on first use.
  func slot(for object: AnyObject, storage: AnyObject, valueType: Any.Type) -> InjectionSlot {
    let dynamicClass: AnyClass = type(of: object)
    let candidates = self.candidates(for: dynamicClass)
    // Layout relied on: a marker wrapper's first stored field is its `MarkedStorage`, whose first field
    // is the strong reference to the storage object; so the word at the property's offset is that
    // object's address.
    let instance = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    let target = UInt(bitPattern: Unmanaged.passUnretained(storage).toOpaque())
    guard let property = candidates.first(where: { instance.load(fromByteOffset: $0.offset, as: UInt.self) == target })
    else {
      fatalError(
        "DeluxeInjection: \(Injection.typeName(dynamicClass)) has no cataloged marked property holding this "
          + "storage (value type \(Injection.typeName(valueType))). Marker wrappers must be stored properties "
          + "of a Swift class, with their MarkedStorage as first stored field.")
    }
    return slot(for: property)
  }

  /// The marked properties instances of `cls` have: declared by it or its superclasses.
  private func candidates(for cls: AnyClass) -> [PropertyDescriptor] {
    let id = ObjectIdentifier(cls)
    if let known = lock.withLock({ candidatesByClass[id] }) { return known }
    var all: [PropertyDescriptor] = []
    var current: AnyClass? = cls
    while let candidate = current {
      all += PropertyCatalog.shared.declaredProperties(of: candidate)
      current = MetadataAccess.superclass(of: candidate)
    }
    lock.withLock { candidatesByClass[id] = all }
    return all
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
