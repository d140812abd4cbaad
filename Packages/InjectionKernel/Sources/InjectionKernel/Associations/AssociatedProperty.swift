internal import InjectionOwnerLifetime
internal import InjectionReadSections

/// Declares one property stored per owner object, for properties declared in extensions (Swift has no
/// stored properties there) and `static` properties: the declaration is a class that is never
/// instantiated, nested where the property is declared, and the property's accessors go through it.
///
/// ```swift
/// extension Player {
///   final class Nickname: AssociatedProperty<Player, Associate<String?>> {}
///   var nickname: String? {
///     get { Nickname[self] }
///     set { Nickname[self] = newValue }
///   }
/// }
/// ```
///
/// The kernel's shared pass finds every subclass of `AssociatedProperty` (directly, or through a generic
/// subclass such as AssociatePlugin's `Associated`) in the class records of the loaded images, so the
/// property is cataloged like a stored marked property before any access: it belongs to the plugin of
/// `Marker`, is declared by `Owner`, has `Marker.Value` as value type and the declaration's
/// ``propertyName`` as name. Selections, rules, override scopes and reports reach it. Each owner object
/// has its own storage (an injection applies to every owner, as for a stored property), released when the
/// owner dies; see `OwnerTable` for how, and why that is safe on platforms without associated objects.
///
/// Declare the class directly under `AssociatedProperty` or one of its generic subclasses: a
/// non-generic intermediate class would make its subclasses invisible to the pass.
open class AssociatedProperty<Owner: AnyObject, Marker: InjectionMarker>: AnyAssociatedProperty,
  AssociatedPropertyDeclaration
{
  /// Declarations are types, never instances.
  @available(*, unavailable, message: "an associated property's declaration is a type; use Declaration[owner]")
  public override init() { fatalError() }

  override class var catalogFacts: AssociatedDeclarationFacts { associatedDeclarationFacts }

  /// The property's name: the declaration class's name with its first word lowercased
  /// (`Nickname` → `nickname`, `URLCache` → `urlCache`). Override it when the property is named otherwise.
  open class var propertyName: String { AssociatedNaming.propertyName(forDeclaration: Injection.typeName(self)) }

  /// Whether owners hold the stored value weakly (a read finds `nil` once the value is gone). `false`:
  /// strongly. Only for class-typed (or optional class-typed) values.
  open class var holdsWeakly: Bool { false }

  /// What is stored when `newValue` is written (a copy, for a copying policy); the value itself by
  /// default.
  open class func storedForm(of newValue: Marker.Value) -> Marker.Value { newValue }

  /// The cataloged property this class declares.
  public static var property: PropertyDescriptor { associationKey.slot.property }

  /// Facts for the catalog (see ``AssociatedPropertyDeclaration``).
  public static var associatedDeclarationFacts: AssociatedDeclarationFacts {
    AssociatedDeclarationFacts(
      owner: Owner.self, marker: Marker.self, valueType: Marker.Value.self, plugin: Marker.plugin,
      name: propertyName, holdsWeakly: holdsWeakly)
  }
}

/// The non-generic root class of ``AssociatedProperty``, through which the catalog reads a declaration
/// class's facts with a class cast: a cast to ``AssociatedPropertyDeclaration`` would scan every
/// conformance record of every loaded image once per declaration class. Declare associated properties
/// under `AssociatedProperty`, not under this class.
open class AnyAssociatedProperty {
  init() {}

  /// The declaration's facts (see ``AssociatedPropertyDeclaration/associatedDeclarationFacts``).
  class var catalogFacts: AssociatedDeclarationFacts {
    fatalError("\(Injection.typeName(self)) is not an AssociatedProperty")
  }
}

/// An associated property's declaration class: ``AssociatedProperty`` adopts it, and its extension
/// gives every declaration its accessors, `Declaration[owner]` and `Declaration[Owner.self]` (Swift looks
/// static subscripts up this way on a subclass; a generic base class's own would not be found).
public protocol AssociatedPropertyDeclaration: AnyObject {
  /// The class whose instances (or class object) hold the values.
  associatedtype Owner: AnyObject
  /// The marker naming the plugin and the value type.
  associatedtype Marker: InjectionMarker

  /// The declaration's owner, marker, value type, plugin, name and reference policy.
  static var associatedDeclarationFacts: AssociatedDeclarationFacts { get }

  /// Whether owners hold the stored value weakly.
  static var holdsWeakly: Bool { get }

  /// What is stored when `newValue` is written.
  static func storedForm(of newValue: Marker.Value) -> Marker.Value
}

extension AssociatedPropertyDeclaration {
  /// The property of `owner`: its stored value, or what the property's injection gives.
  public static subscript(_ owner: Owner) -> Marker.Value {
    get { AssociatedAccess.read(owner, isTypeOwner: false, key: associationKey) }
    set { AssociatedAccess.write(storedForm(of: newValue), owner, isTypeOwner: false, key: associationKey) }
  }

  /// The `static` property of the class object `type` (each class, subclasses included, has its own).
  public static subscript(_ type: Owner.Type) -> Marker.Value {
    get { AssociatedAccess.read(TypeOwner.of(type), isTypeOwner: true, key: associationKey) }
    set {
      AssociatedAccess.write(storedForm(of: newValue), TypeOwner.of(type), isTypeOwner: true, key: associationKey)
    }
  }

  static var associationKey: AssociationKey<Marker.Value> {
    AssociationKeys.key(for: self, valueType: Marker.Value.self)
  }
}

/// The facts of one associated property's declaration.
public struct AssociatedDeclarationFacts: @unchecked Sendable {  // metatypes and immutable values
  /// The owner type (the class whose instances, or whose class object, hold values).
  public let owner: Any.Type
  /// The marker type, which names the plugin.
  public let marker: any InjectionMarker.Type
  /// The property's value type.
  public let valueType: Any.Type
  /// The plugin that owns the property.
  public let plugin: PluginID
  /// The property's name.
  public let name: String
  /// Whether values are held weakly.
  public let holdsWeakly: Bool
}

/// The cataloged identity of one associated property, found once per declaration class. Immutable but
/// for `viewSlots`, which is locked; slots are immortal.
final class AssociationKey<Value>: @unchecked Sendable {
  let id: UInt
  /// The slot of the property as its owner class declares it.
  let slot: InjectionSlot
  let holdsWeakly: Bool
  /// The declared owner class (`Owner`).
  private let ownerClass: ObjectIdentifier
  /// The slots of subclasses' views of the property, by subclass, made on a subclass's first access.
  private let viewSlots = LockedState<[ObjectIdentifier: InjectionSlot]>([:])

  init(id: UInt, slot: InjectionSlot, holdsWeakly: Bool) {
    self.id = id
    self.slot = slot
    self.holdsWeakly = holdsWeakly
    ownerClass = ObjectIdentifier(slot.property.declaringClass)
  }

  /// The slot whose injection an owner of class `cls` reads: the declared property's for the owner class
  /// itself, else `cls`'s view of it — as for an inherited stored property, a rule naming a subclass gives
  /// that subclass's owners an injection of their own.
  func slot(forOwnerOf cls: AnyClass) -> InjectionSlot {
    let id = ObjectIdentifier(cls)
    if id == ownerClass { return slot }
    if let known = viewSlots.withLock({ $0[id] }) { return known }
    // A class that does not descend from the owner class (an owner object of a bridged class, say)
    // reads the declared property.
    guard let view = slot.property.viewed(from: cls), view.isSubclassView else { return slot }
    let made = SlotRegistry.shared.slot(for: view)  // outside `viewSlots`' lock: it takes the commit lock
    return viewSlots.withLock { slots in
      if let known = slots[id] { return known }
      slots[id] = made
      return made
    }
  }

  /// A new, empty storage for one owner.
  func makeStorage() -> AnyObject { AssociatedCell.make() }
}

/// The keys of the declarations used so far, by declaration class (never removed: one per declaration).
enum AssociationKeys {
  private static let stripes: [LockedState<[UInt: AnyObject]>] = (0..<16).map { _ in LockedState([:]) }

  static func key<Value>(for declaration: any AssociatedPropertyDeclaration.Type, valueType: Value.Type)
    -> AssociationKey<Value>
  {
    let id = UInt(bitPattern: unsafeBitCast(declaration, to: UnsafeRawPointer.self))
    let stripe = stripes[Int(truncatingIfNeeded: id >> 4) & 15]
    if let known = stripe.withLock({ $0[id] }) { return unsafeDowncast(known, to: AssociationKey<Value>.self) }
    let property = PropertyCatalog.shared.associatedProperty(declaredBy: declaration)
    let slot = SlotRegistry.shared.slot(for: property)
    let made = AssociationKey<Value>(
      id: id, slot: slot, holdsWeakly: declaration.associatedDeclarationFacts.holdsWeakly)
    return stripe.withLock { keys in
      if let known = keys[id] { return unsafeDowncast(known, to: AssociationKey<Value>.self) }
      keys[id] = made
      return made
    }
  }
}

/// Reads and writes of associated properties: the owner's storage for the property, then the same
/// paths as a stored marked property (the slot's published answer, getters, fills, override scopes).
enum AssociatedAccess {
  static func read<Value>(_ owner: AnyObject, isTypeOwner: Bool, key: AssociationKey<Value>) -> Value {
    withStorage(of: owner, isTypeOwner: isTypeOwner, key: key) { storage in
      if !key.holdsWeakly {
        ReadSection.enter()
        let served = storage.servedAnswer()
        ReadSection.exit()
        if let served { return served }
      }
      return storage.answer(for: owner)
    }
  }

  static func write<Value>(_ newValue: Value, _ owner: AnyObject, isTypeOwner: Bool, key: AssociationKey<Value>) {
    withStorage(of: owner, isTypeOwner: isTypeOwner, key: key) { $0.write(newValue, of: owner) }
  }

  /// Runs `body` with the owner's storage for the property, keeping its cell alive meanwhile.
  private static func withStorage<Value, Result>(
    of owner: AnyObject, isTypeOwner: Bool, key: AssociationKey<Value>,
    _ body: (MarkedPropertyStorage<Value>) -> Result
  ) -> Result {
    let cell = unsafeDowncast(
      OwnerTable.shared.storage(of: owner, isTypeOwner: isTypeOwner, key: key.id, make: key.makeStorage),
      to: AssociatedCell.self)
    // The class whose view applies: the owner's own, or for a `static` property the class it stands for.
    let ownerClass: AnyClass = isTypeOwner ? unsafeDowncast(owner, to: TypeOwner.self).type : type(of: owner)
    let slot = key.slot(forOwnerOf: ownerClass)
    return withExtendedLifetime(cell) {
      body(MarkedPropertyStorage(held: cell.held, slot: slot, holdsWeakly: key.holdsWeakly))
    }
  }
}

/// One owner's storage for one associated property: a held-value word (`HeldWord.h`) in an object of
/// its own, which the owner's record keeps until the owner dies.
final class AssociatedCell: ManagedBuffer<Void, UInt> {  // the word is read and replaced atomically
  /// An empty cell.
  static func make() -> AssociatedCell {
    let cell = unsafeDowncast(create(minimumCapacity: 1) { _ in }, to: AssociatedCell.self)
    cell.withUnsafeMutablePointerToElements { $0.initialize(to: 0) }
    return cell
  }

  /// The held word (in the object's tail: its address never changes).
  var held: UnsafeMutableRawPointer { UnsafeMutableRawPointer(withUnsafeMutablePointerToElements { $0 }) }

  deinit {
    // No read can run: readers hold the owner's record, which held this cell.
    let bits = ik_held_exchange(held, 0)
    if bits != 0 { Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped).release() }
  }
}

/// Property names from declaration class names.
enum AssociatedNaming {
  /// `Module.Owner.Nickname` → `nickname`; `URLCache` → `urlCache`; `ID` → `id`.
  static func propertyName(forDeclaration qualified: String) -> String {
    let name = qualified.split(separator: ".").last.map(String.init) ?? qualified
    // Concrete `String`/`Substring` operations only: building a `String` from a generic sequence of
    // characters asks the runtime for a conformance, whose first lookup scans every conformance record
    // of every loaded image.
    let count = name.count
    let upper = name.prefix(while: \.isUppercase).count
    // A leading acronym keeps its last capital when a lowercase word follows it (`URLCache`).
    let lowered = min(upper > 1 && upper < count ? upper - 1 : max(upper, 1), count)
    let cut = name.index(name.startIndex, offsetBy: lowered)
    return name[..<cut].lowercased() + String(name[cut...])
  }
}

/// What associated storage holds now, for tests and benchmarks (memory follows live owners).
public struct AssociatedStorageStatistics: Sendable, Equatable {
  /// Owners with associated values in the tables (class objects included). Always 0 on Apple
  /// platforms, where the values hang off their owners as Objective-C associated objects.
  public let liveOwners: Int
  /// How many owners the tables' storage has room for now.
  public let ownerCapacity: Int
  /// How many classes carry the deallocation hook (0 on Apple platforms).
  public let hookedClasses: Int
}

extension Injection {
  /// What associated storage holds now (see ``AssociatedProperty``).
  public static var associatedStorageStatistics: AssociatedStorageStatistics {
    AssociatedStorageStatistics(
      liveOwners: OwnerTable.shared.liveOwnerCount, ownerCapacity: OwnerTable.shared.ownerCapacity,
      hookedClasses: ik_owner_lifetime_hooked_count())
  }
}
