import Synchronization

/// Finds the slot of a property from an instance and the property's storage object.
///
/// An instance reaches this once per marked property, on its first access; afterwards it keeps the slot
/// in its storage. The marked properties of the instance's class and its superclasses are the
/// candidates; the one whose field (at its offset in the instance) holds this storage object is the one
/// being accessed. Reading the instance's words through a raw pointer needs no Swift access to the
/// property, so concurrent first reads of one instance do not conflict.
final class SlotRegistry: @unchecked Sendable {  // `byClass` and `byProperty` are guarded by `lock`
  static let shared = SlotRegistry()

  /// The marked fields instances of one class have (its own and its superclasses'), with their slots.
  /// Immutable and never deallocated (`byClass` keeps every one), so `recent` may point at it unretained.
  private final class ClassSlots: Sendable {
    let classID: ObjectIdentifier
    let offsets: [Int]
    let slots: [InjectionSlot]

    init(classID: ObjectIdentifier, offsets: [Int], slots: [InjectionSlot]) {
      self.classID = classID
      self.offsets = offsets
      self.slots = slots
    }
  }

  private let lock = KernelLock()
  private var byClass: [ObjectIdentifier: ClassSlots] = [:]
  private var byProperty: [PropertyDescriptor: InjectionSlot] = [:]
  /// The address of the ``ClassSlots`` the last lookup used: instances of one class created together
  /// find their slots without a lock.
  private let recent = Atomic<UInt>(0)

  /// The slot of the property of `object` whose wrapper holds `storage`, created on first use.
  func slot(for object: AnyObject, storage: AnyObject, valueType: Any.Type) -> InjectionSlot {
    let dynamicClass: AnyClass = type(of: object)
    let entry = classSlots(for: dynamicClass)
    // Layout relied on: a marker wrapper's first stored field is its `MarkedStorage`, whose first field
    // is the strong reference to the storage object; so the word at the property's offset is that
    // object's address.
    let instance = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    let target = UInt(bitPattern: Unmanaged.passUnretained(storage).toOpaque())
    guard let index = entry.offsets.firstIndex(where: { instance.load(fromByteOffset: $0, as: UInt.self) == target })
    else {
      fatalError(
        "DeluxeInjection: \(Injection.typeName(dynamicClass)) has no cataloged marked property holding this "
          + "storage (value type \(Injection.typeName(valueType))). Marker wrappers must be stored properties "
          + "of a Swift class, with their MarkedStorage as first stored field.")
    }
    return entry.slots[index]
  }

  /// The fields and slots of `cls`, from the last lookup when it was the same class.
  private func classSlots(for cls: AnyClass) -> ClassSlots {
    let id = ObjectIdentifier(cls)
    let recentAddress = recent.load(ordering: .acquiring)
    if recentAddress != 0 {
      let last = Unmanaged<ClassSlots>.fromOpaque(UnsafeRawPointer(bitPattern: recentAddress)!).takeUnretainedValue()
      if last.classID == id { return last }
    }
    let entry = lock.withLock { byClass[id] } ?? makeClassSlots(for: cls)
    recent.store(UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()), ordering: .releasing)
    return entry
  }

  /// Builds and keeps the fields and slots of `cls` (the marked properties it declares or inherits).
  private func makeClassSlots(for cls: AnyClass) -> ClassSlots {
    var properties: [PropertyDescriptor] = []
    var current: AnyClass? = cls
    while let candidate = current {
      properties += PropertyCatalog.shared.declaredProperties(of: candidate)
      current = MetadataAccess.superclass(of: candidate)
    }
    let built = ClassSlots(
      classID: ObjectIdentifier(cls), offsets: properties.map(\.offset), slots: properties.map { slot(for: $0) })
    return lock.withLock {
      if let existing = byClass[built.classID] { return existing }
      byClass[built.classID] = built
      return built
    }
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
