import Synchronization

/// The slots of marked properties, by property and by class.
///
/// A class's first access of one of its marked properties locates the property's field by its
/// declaration token (``locate(token:in:wrapperType:)``) among the marked fields of the class and its
/// superclasses, and adds it to the field table, which every later read of any instance uses. Each
/// class has its own slots, its views of the properties it inherits included. Reading an instance's
/// words through a raw pointer needs no Swift access to the property, so concurrent first reads of one
/// instance do not conflict.
final class SlotRegistry: @unchecked Sendable {  // `byClass`, `byProperty`, `viewsByProperty`: guarded by `lock`
  static let shared = SlotRegistry()

  /// The marked fields instances of one class have (its own and its superclasses'), with their slots.
  /// Immutable and never deallocated (`byClass` keeps every one), so `recent` may point at it unretained;
  /// the fields are a flat buffer so that the first access of an instance scans them without retains.
  final class ClassSlots: @unchecked Sendable {  // immutable after init
    let classID: ObjectIdentifier
    let count: Int
    /// Each marked field's offset and its slot's address (slots are immortal, kept by `byProperty`).
    let fields: UnsafeMutablePointer<(offset: Int, slot: UInt)>

    init(classID: ObjectIdentifier, offsets: [Int], slots: [InjectionSlot]) {
      self.classID = classID
      count = offsets.count
      fields = .allocate(capacity: max(count, 1))
      for index in 0..<count {
        fields[index] = (offsets[index], UInt(bitPattern: Unmanaged.passUnretained(slots[index]).toOpaque()))
      }
    }

    deinit { fields.deallocate() }  // only a losing racer of `makeClassSlots` is ever deallocated
  }

  private let lock = KernelLock()
  // The stored state below is only touched holding `lock`, which already makes every access exclusive:
  // `@exclusivity(unchecked)` drops the runtime's dynamic check (a thread-local access-set insertion and
  // removal, about 80 instructions per access, on every hot path of passes and commits).
  @exclusivity(unchecked) private var byClass: [ObjectIdentifier: ClassSlots] = [:]
  @exclusivity(unchecked) private var byProperty: [PropertyDescriptor: InjectionSlot] = [:]
  /// The subclass views with a slot, by the declared property.
  @exclusivity(unchecked) private var viewsByProperty: [PropertyDescriptor: [PropertyDescriptor]] = [:]
  /// The address of the ``ClassSlots`` the last lookup used: instances of one class created together
  /// find their slots without a lock.
  private let recent = Atomic<UInt>(0)

  /// The fields and slots of `cls`, from the last lookup when it was the same class.
  func classSlots(for cls: AnyClass) -> Unmanaged<ClassSlots> {
    let id = ObjectIdentifier(cls)
    let recentAddress = recent.load(ordering: .acquiring)
    if recentAddress != 0 {
      let last = Unmanaged<ClassSlots>.fromOpaque(UnsafeRawPointer(bitPattern: recentAddress)!)
      if last._withUnsafeGuaranteedRef({ $0.classID == id }) { return last }
    }
    let entry = lock.withLock { byClass[id] } ?? makeClassSlots(for: cls)
    let unmanaged = Unmanaged.passUnretained(entry)
    recent.store(UInt(bitPattern: unmanaged.toOpaque()), ordering: .releasing)
    return unmanaged  // `byClass` keeps it alive for the process's lifetime
  }

  /// Builds and keeps the fields and slots of `cls` (the marked properties it declares or inherits).
  private func makeClassSlots(for cls: AnyClass) -> ClassSlots {
    // Each class has a slot of its own for every property it inherits (its view of the property), so
    // that a rule naming it later reaches its instances without them looking up their slots again;
    // until one does, the view's slot holds the same injection as the declaring class's.
    var properties: [PropertyDescriptor] = []
    var current: AnyClass? = cls
    while let candidate = current {
      // Associated properties (negative offsets) are not fields: their owners find their slots by key.
      properties += PropertyCatalog.shared.declaredProperties(of: candidate).filter { $0.offset >= 0 }
        .map { $0.viewed(from: cls) ?? $0 }
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
  ///
  /// A subclass view whose injection comes from a rule reaching a shallower class (the declaring class,
  /// or a superclass of the view's class that has an injection of its own) takes that class's slot's
  /// injection object: every instance that one rule reaches shares what it made (a lazily created shared
  /// value, say).
  func slotHoldingCommitLock(for property: PropertyDescriptor, log: RuleLog) -> InjectionSlot {
    if let slot = existingSlot(for: property) { return slot }
    let level = property.isSubclassView ? log.decidingLevel(for: property) ?? 0 : 0
    let injection =
      if level < property.viewDepth {
        slotHoldingCommitLock(for: property.view(atDepth: level), log: log).currentInjection
      } else {
        log.injection(for: property)
      }
    return lock.withLock {
      if let slot = byProperty[property] { return slot }
      let slot = InjectionSlot(property: property, injection: injection)
      byProperty[property] = slot
      if property.isSubclassView { viewsByProperty[property.declared, default: []].append(property) }
      if InjectionScope.anyActive { ActiveScopes.applyToNewSlot(slot) }
      return slot
    }
  }

  /// The subclass views of every property that have a slot.
  func allViews() -> [PropertyDescriptor] {
    lock.withLock { viewsByProperty.values.flatMap { $0 } }
  }

  /// The subclass views of `property` that have a slot.
  func views(of property: PropertyDescriptor) -> [PropertyDescriptor] {
    lock.withLock { viewsByProperty[property.declared] ?? [] }
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
