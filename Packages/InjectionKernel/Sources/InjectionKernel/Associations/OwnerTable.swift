internal import InjectionOwnerLifetime

#if canImport(ObjectiveC)
  import ObjectiveC
#endif

/// The associated storages of one owner object: one ``AssociatedCell`` per associated property
/// the owner has touched.
///
/// Its contents are guarded by the lock of the owner's stripe in ``OwnerTable`` (also while the
/// owner's deinit uses it, when it is reachable from no table), so a record needs no lock of its own.
final class OwnerRecord: @unchecked Sendable {  // `storages` is guarded by the owner's stripe lock
  /// The owner, to tell it from a later object at the same address (see ``OwnerTable``).
  weak var owner: AnyObject?
  /// The owner's dynamic class (late records compare it; see ``OwnerTable``).
  let ownerClass: ObjectIdentifier
  /// (declaration key, storage) pairs; owners have few associated properties.
  var storages: [(key: UInt, storage: AnyObject)] = []

  init(owner: AnyObject) {
    self.owner = owner
    ownerClass = ObjectIdentifier(type(of: owner))
  }

  /// The storage of `key`, made by `make` on first use (stripe lock held).
  func storage(for key: UInt, make: () -> AnyObject) -> AnyObject {
    for entry in storages where entry.key == key { return entry.storage }
    let made = make()
    storages.append((key, made))
    return made
  }
}

/// Every owner's associations, and their release when the owner dies.
///
/// **Where a record lives.** Apple platforms: as the owner's Objective-C associated object, which the
/// runtime releases when the owner is deallocated (after its `deinit`). Elsewhere: in one of 64 stripes,
/// each a dictionary from owner address to record under its own pthread lock, and the owner's class
/// gets the deallocation hook of the `InjectionOwnerLifetime` C module (installed once per dynamic class
/// before the first record of one of its instances is stored). When an object of a hooked class is
/// destroyed, `willDestroy` removes its record from the stripe *before* its deinit runs and the hook
/// keeps it on the destroying thread's dying stack, where the deinit's own accesses find it; after the
/// memory is freed `didDestroy` releases the record, outside every lock. So:
///
/// - **Address reuse.** A record is out of the table before its owner's memory can be reused, so a new
///   object at that address starts empty. As a second line (an object freed without its destroy, as a
///   failing initializer's partially initialized `self` is), each record holds its owner weakly and a
///   lookup that finds a record whose owner is not the caller's object replaces it.
/// - **Races with deallocation.** An access needs a strong reference to the owner (the caller's), so the
///   owner cannot be destroyed during it; only the owner's own deinit runs after detaching, on the
///   destroying thread, and it finds the record on that thread's dying stack. (`unowned(unsafe)` access
///   to a dead owner is undefined behaviour, as for any property.)
/// - **Hook installation.** The hook is installed, under its own lock, before the record that needs it is
///   stored; a thread destroying that object acquired everything the attaching thread did before its
///   release of the object, the installation included. Subclasses: only the most-derived class's destroy
///   runs, so the hook goes on each dynamic class that has owners; generic classes have one metadata per
///   specialization, each hooked on first use. Metadata in read-only relocated pages is made writable
///   for the store (and read-only again); if that fails the access stops with a message naming the class.
/// - **Late first association.** An object whose deinit began before its class was hooked and that
///   gets its first association in that deinit keeps it in a *late* record, keyed by address and class:
///   its class is hooked at once (so this happens at most once per class and racing thread), the record
///   is found again only by a deallocating object of the same class at that address, and it is released
///   when a hooked object at that address is destroyed.
/// - **Values are released outside every lock**, so a value's deinit may use associations itself.
///
/// Class objects (`static` associated properties) are owners that never die: a ``TypeOwner`` per
/// class, kept for the process's lifetime.
final class OwnerTable: @unchecked Sendable {  // each stripe's state is guarded by its LockedState
  static let shared = OwnerTable()

  struct Stripe {
    var owners: [UInt: OwnerRecord] = [:]
    var late: [UInt: OwnerRecord] = [:]
    /// Removals since the dictionary's storage was last sized to its contents.
    var removals = 0
  }

  private static let stripeCount = 64
  private let stripes: [LockedState<Stripe>] = (0..<OwnerTable.stripeCount).map { _ in LockedState(Stripe()) }

  private init() {
    #if !canImport(ObjectiveC)
      ik_owner_lifetime_set_callbacks(ownerWillBeDestroyed, ownerWasDestroyed)
    #endif
  }

  @inline(__always)
  private func stripe(of address: UInt) -> LockedState<Stripe> {
    stripes[Int(truncatingIfNeeded: (address >> 4) ^ (address >> 10)) & (Self.stripeCount - 1)]
  }

  /// The storage of the property `key` for `owner`, created on first use. `isTypeOwner`: `owner` is a
  /// ``TypeOwner`` (it never dies).
  func storage(of owner: AnyObject, isTypeOwner: Bool, key: UInt, make: () -> AnyObject) -> AnyObject {
    let address = UInt(bitPattern: Unmanaged.passUnretained(owner).toOpaque())
    let stripe = stripe(of: address)
    #if canImport(ObjectiveC)
      return stripe.withLock { _ in
        recordHoldingLock(of: owner).storage(for: key, make: make)
      }
    #else
      let pointer = UnsafeRawPointer(bitPattern: address)!
      if ik_owner_dying_depth() > 0, let slot = ik_owner_dying_slot(pointer) {
        // This thread runs the owner's destroy: its record is on the dying stack (or is created there).
        return stripe.withLock { _ in
          let record: OwnerRecord
          if let existing = slot.pointee {
            record = Unmanaged<OwnerRecord>.fromOpaque(existing).takeUnretainedValue()
          } else {
            record = OwnerRecord(owner: owner)
            slot.pointee = Unmanaged.passRetained(record).toOpaque()
          }
          return record.storage(for: key, make: make)
        }
      }
      // The common case: the owner has a record.
      var stale: OwnerRecord?
      let found = stripe.withLock { state -> AnyObject? in
        guard let record = state.owners[address] else { return nil }
        guard isTypeOwner || record.owner === owner else {
          stale = state.owners.removeValue(forKey: address)  // a freed owner's, released after the lock
          return nil
        }
        return record.storage(for: key, make: make)
      }
      withExtendedLifetime(stale) {}
      if let found { return found }
      if isTypeOwner {
        return stripe.withLock { state in
          let record = state.owners[address] ?? OwnerRecord(owner: owner)
          state.owners[address] = record
          return record.storage(for: key, make: make)
        }
      }
      let ownerClass: AnyClass = type(of: owner)
      Self.installHook(in: ownerClass)
      if ik_owner_is_deallocating(pointer) != 0 {
        return lateStorage(of: owner, address: address, key: key, make: make)
      }
      return stripe.withLock { state in
        let record: OwnerRecord
        if let existing = state.owners[address] {
          record = existing  // another thread created it meanwhile (the caller's owner: it is alive)
        } else {
          record = OwnerRecord(owner: owner)
          state.owners[address] = record
        }
        return record.storage(for: key, make: make)
      }
    #endif
  }

  #if canImport(ObjectiveC)
    /// The address of one allocated byte: the key of the record's Objective-C association.
    private static let associationKeyAddress = UInt(
      bitPattern: UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

    /// The owner's record, as its associated object (stripe lock held: creation is not racing).
    private func recordHoldingLock(of owner: AnyObject) -> OwnerRecord {
      let key = UnsafeRawPointer(bitPattern: Self.associationKeyAddress)!
      if let record = objc_getAssociatedObject(owner, key) as? OwnerRecord { return record }
      let record = OwnerRecord(owner: owner)
      objc_setAssociatedObject(owner, key, record, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
      return record
    }
  #else
    /// The storage of a deallocating owner whose destroy began before its class was hooked.
    private func lateStorage(of owner: AnyObject, address: UInt, key: UInt, make: () -> AnyObject) -> AnyObject {
      var replaced: OwnerRecord?
      let storage = stripe(of: address).withLock { state -> AnyObject in
        let ownerClass = ObjectIdentifier(type(of: owner))
        if let record = state.late[address], record.ownerClass == ownerClass {
          return record.storage(for: key, make: make)
        }
        let record = OwnerRecord(owner: owner)
        replaced = state.late.updateValue(record, forKey: address)
        return record.storage(for: key, make: make)
      }
      withExtendedLifetime(replaced) {}
      return storage
    }

    /// Installs the deallocation hook in `cls` (once), or stops naming the class.
    static func installHook(in cls: AnyClass) {
      let metadata = unsafeBitCast(cls, to: UnsafeRawPointer.self)
      if ik_owner_lifetime_is_installed(metadata) != 0 { return }
      guard MetadataAccess.isSafeSwiftClass(cls) else {
        Injection.stop(
          "\(Injection.typeName(cls)) cannot own associated values: it is not a native Swift class, so its "
            + "deallocation cannot be observed")
      }
      let error = ik_owner_lifetime_install(metadata)
      if error != 0 {
        Injection.stop(
          "\(Injection.typeName(cls)) cannot own associated values: its class metadata could not be made "
            + "writable to observe its deallocation (errno \(error))")
      }
    }

    /// Removes the record of `address` (and a late record there) before a hooked object's deinit runs.
    fileprivate func detach(_ address: UInt) -> OwnerRecord? {
      let (record, late) = stripe(of: address).withLock { state -> (OwnerRecord?, OwnerRecord?) in
        let record = state.owners.removeValue(forKey: address)
        let late = state.late.isEmpty ? nil : state.late.removeValue(forKey: address)
        if record != nil {
          state.removals += 1
          Self.shrinkIfSparse(&state)
        }
        return (record, late)
      }
      withExtendedLifetime(late) {}  // a long-dead object's late values, released outside the lock
      return record
    }
  #endif

  /// Gives a stripe's dictionary storage sized to its contents once it is mostly empty, so memory follows
  /// the live owners after a burst of them (dictionaries never shrink by themselves). Amortized: it runs
  /// after as many removals as the dictionary can hold.
  private static func shrinkIfSparse(_ state: inout Stripe) {
    let capacity = state.owners.capacity
    guard capacity > 64, state.removals >= capacity / 2, state.owners.count * 8 < capacity else { return }
    state.owners = Dictionary(uniqueKeysWithValues: state.owners.map { ($0.key, $0.value) })
    state.removals = 0
  }

  // MARK: Measures (tests, benchmarks)

  /// Owners with a record in the tables, class objects included (Apple platforms: not tracked, 0).
  var liveOwnerCount: Int { stripes.reduce(0) { $0 + $1.withLock { $0.owners.count + $0.late.count } } }

  /// The capacity of the tables' dictionaries, in owners.
  var ownerCapacity: Int { stripes.reduce(0) { $0 + $1.withLock { $0.owners.capacity + $0.late.capacity } } }
}

#if !canImport(ObjectiveC)
  /// `will_destroy` of the C hook: detaches the object's record (retained for the dying stack).
  private func ownerWillBeDestroyed(_ object: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    guard let record = OwnerTable.shared.detach(UInt(bitPattern: object)) else { return nil }
    return Unmanaged.passRetained(record).toOpaque()
  }

  /// `did_destroy` of the C hook: the object is gone; its values are released here, outside every lock.
  private func ownerWasDestroyed(_ record: UnsafeMutableRawPointer) {
    Unmanaged<OwnerRecord>.fromOpaque(record).release()
  }
#endif

/// The owner that stands for a class object in associated storage (`static` associated properties):
/// one per class, never deallocated. Getters and fills of such properties receive it as their target.
public final class TypeOwner: @unchecked Sendable {  // immutable
  /// The class whose class object this stands for.
  public let type: AnyClass

  private init(_ type: AnyClass) { self.type = type }

  private static let owners = LockedState<[ObjectIdentifier: TypeOwner]>([:])

  /// The owner standing for `type` (the same object on every call).
  public static func of(_ type: AnyClass) -> TypeOwner {
    owners.withLock { owners in
      if let owner = owners[ObjectIdentifier(type)] { return owner }
      let owner = TypeOwner(type)
      owners[ObjectIdentifier(type)] = owner
      return owner
    }
  }
}
