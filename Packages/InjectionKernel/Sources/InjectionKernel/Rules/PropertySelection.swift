internal import InjectionReadSections
import Synchronization

/// Which marked properties a rule applies to: the properties of one plugin, narrowed by value type,
/// declaring class (subclasses included), name and a predicate. Every narrowing must hold.
///
/// ```swift
/// let selection = PropertySelection(plugin: InjectPlugin.id)
///   .ofType(Settings.self)
///   .declared(in: ViewController.self)
///   .named("settings")
/// ```
public struct PropertySelection: Sendable, CustomStringConvertible {
  /// The plugin whose marked properties are selected.
  public let plugin: PluginID
  private(set) var valueType: Any.Type?
  private(set) var classes: [AnyClass] = []
  private(set) var names: Set<String> = []
  private(set) var predicates: [@Sendable (PropertyDescriptor) -> Bool] = []
  /// Whether a type `T` selects properties declared `T?` as well (see ``includingOptionals()``).
  private(set) var includesOptionals = false
  /// Whether matching nothing is expected (see ``mayMatchLater()``).
  private(set) var mayMatchNothing = false
  /// Whether a rejection of this selection turns off the inherited properties it reaches too (see
  /// ``InjectionRules/turnOff(_:)``), rather than letting the declaring class's injection show through.
  private(set) var turnsOffInherited = false
  /// Who the rule is recorded for (see ``recorded(forOwner:)``); `nil` for the app.
  private(set) var owner: ObjectIdentifier?
  /// The identities of `predicates`, two words each (``ClosureIdentity``): selections filtered by the very
  /// same closures select the same properties.
  private(set) var predicateIdentities: [UInt] = []

  /// Every marked property of `plugin`.
  public init(plugin: PluginID) { self.plugin = plugin }

  /// Narrows to properties whose declared type is exactly `type` (a class, a struct, an optional, or a
  /// protocol existential such as `(any Analytics).self`).
  public func ofType(_ type: Any.Type) -> PropertySelection {
    var copy = self
    copy.valueType = type
    return copy
  }

  /// Narrows to properties declared by `classes` or by their subclasses, and to the properties these
  /// classes inherit, as seen from them. Naming a generic class's specialization (`Box<Int>.self`)
  /// catalogs that specialization at once.
  ///
  /// Naming a subclass of the class that declares a property gives that subclass (and its own
  /// subclasses) an injection of their own, while the declaring class and its other subclasses keep
  /// theirs:
  ///
  /// ```swift
  /// try Injection.inject(Logger.self).value(ConsoleLogger())                       // every Service
  /// try Injection.inject(Logger.self).declared(in: AuditService.self).value(AuditLogger())
  /// try Injection.reject(Logger.self).declared(in: AuditService.self)             // back to the console
  /// ```
  ///
  /// Between rules the newest wins, whatever classes they name: a later rule naming the declaring class
  /// (or selecting by type alone) replaces a subclass's injection as well. A rejection naming a subclass
  /// of the declaring class does not leave the property empty there: it removes the subclass's (and its
  /// subclasses') own injections, so the declaring class's shows through again.
  public func declared(in classes: AnyClass...) -> PropertySelection {
    declared(in: classes)
  }

  /// Narrows to properties declared by `classes` or by their subclasses.
  public func declared(in classes: [AnyClass]) -> PropertySelection {
    var copy = self
    copy.classes += classes
    return copy
  }

  /// Narrows to properties with one of these names (as written, without the wrapper's `_`).
  public func named(_ names: String...) -> PropertySelection {
    var copy = self
    copy.names.formUnion(names)
    return copy
  }

  /// Narrows to properties for which `predicate` holds.
  public func filter(_ predicate: @escaping @Sendable (PropertyDescriptor) -> Bool) -> PropertySelection {
    var copy = self
    copy.predicates.append(predicate)
    copy.predicateIdentities += ClosureIdentity.words(of: predicate)
    return copy
  }

  /// Also selects, for a selection of type `T`, the properties declared `T?`. The kernel gives them the
  /// injection made for `T` wrapped in an optional (values, shared values and fills; a getter or a setter,
  /// which works on `T`'s storage, is refused for a `T?` property with
  /// ``InjectionError/typeMismatch(property:expected:given:)``).
  ///
  /// InjectPlugin's verbs use it for selections by type alone: `inject(Logger.self).value(logger)` also
  /// reaches `@Inject var logger: Logger?`, as DeluxeInjection's (always nullable) properties did.
  public func includingOptionals() -> PropertySelection {
    var copy = self
    copy.includesOptionals = true
    return copy
  }

  /// Says that the selection may match nothing when it is committed: it is meant for classes in an image
  /// opened later, or for a generic class's specializations used later (the rule is kept and reaches
  /// them when the kernel meets them). Without it, a selection that names a class or a property name and
  /// matches nothing makes the commit throw ``InjectionError/selectionMatchesNothing(selection:nearMisses:)``:
  /// such a selection is usually a typo, a wrong type (`Int` for an `Int?` property) or a class that
  /// inherits the property rather than declares it.
  ///
  /// Selections by type alone (or by a predicate) never throw for matching nothing: they already apply
  /// to whatever the kernel meets later.
  public func mayMatchLater() -> PropertySelection {
    var copy = self
    copy.mayMatchNothing = true
    return copy
  }

  /// The same selection, recorded on behalf of `owner` (a module, a plugin bundle): a rule replaces the
  /// older rules with the same structure and the same owner only. Rules of several owners that select
  /// the same properties then stay side by side in the order they were committed — the newest decides —
  /// and retracting one owner's rule (``InjectionRules/retract(_:)``) brings back the others' where they
  /// were. It selects the same properties, and ``selectsTheSameProperties(as:)`` ignores the owner.
  /// A filtered selection can be retracted too: as a selection filtered by the very same closures (copies
  /// of it), since predicates cannot be compared otherwise.
  public func recorded(forOwner owner: ObjectIdentifier) -> PropertySelection {
    var copy = self
    copy.owner = owner
    return copy
  }

  /// Whether `property` is selected.
  public func matches(_ property: PropertyDescriptor) -> Bool {
    guard property.plugin == plugin else { return false }
    if let valueType, !isSelectedType(property.valueType, valueType) { return false }
    if !classes.isEmpty, !classes.contains(where: { isSubclass(property.viewingClass, of: $0) }) { return false }
    if !names.isEmpty, !names.contains(property.name) { return false }
    return passesPredicates(property)
  }

  /// How deep below the declaring class the rule reaches for `property` (which it must match): the
  /// number of superclass steps between the declaring class and the shallowest named class that
  /// `property`'s viewing class inherits from; 0 when that class is the declaring class or one of its
  /// superclasses, or the selection names no class.
  func level(for property: PropertyDescriptor) -> Int {
    guard !classes.isEmpty, property.viewDepth > 0 else { return 0 }
    var level = property.viewDepth
    var current: AnyClass? = property.viewingClass
    var depth = property.viewDepth
    while let candidate = current, depth > 0 {
      if classes.contains(where: { $0 == candidate }) { level = depth }
      depth -= 1
      current = MetadataAccess.superclass(of: candidate)
    }
    // A named class at or above the declaring class reaches it at level 0.
    if classes.contains(where: { isSubclass(property.declaringClass, of: $0) }) { return 0 }
    return level
  }

  /// The classes named explicitly, so the kernel can catalog generic specializations before matching.
  var namedClasses: [AnyClass] { classes }

  /// The names the selection narrows to.
  var namedProperties: Set<String> { names }

  /// The same selection, whose rejection turns off the inherited properties it reaches (see
  /// ``InjectionRules/turnOff(_:)``).
  func turningOffInherited() -> PropertySelection {
    var copy = self
    copy.turnsOffInherited = true
    return copy
  }

  /// Whether a rejection of this selection that reaches `property` at `level` decides for it (leaves it
  /// without an injection) rather than letting the shallower rules show through.
  func rejectionDecides(atLevel level: Int) -> Bool { level == 0 || turnsOffInherited }

  /// The same selection narrowed to one of its names (to tell which of several matches nothing).
  func narrowed(toName name: String) -> PropertySelection {
    var copy = self
    copy.names = [name]
    return copy
  }

  /// The same selection narrowed to one of its classes.
  func narrowed(toClass cls: AnyClass) -> PropertySelection {
    var copy = self
    copy.classes = [cls]
    return copy
  }

  /// The selection's value type, if it narrows by one.
  var selectedValueType: Any.Type? { valueType }

  /// Whether the selection narrows by a predicate.
  var isFiltered: Bool { !predicates.isEmpty }

  /// Whether matching nothing is a mistake: the selection names classes or property names and was not
  /// told it ``mayMatchLater()``. (For a predicate alone, see ``isNarrowedByPredicatesAlone``.)
  var mustMatch: Bool { !mayMatchNothing && (!classes.isEmpty || !names.isEmpty) }

  /// Whether the selection narrows by predicates and by no class or name, and was not told it
  /// ``mayMatchLater()``: matching nothing is a mistake unless a generic class's property, which a
  /// specialization used later brings, may be what it means (whether it passes the predicates cannot be
  /// known before: they take a descriptor, which no property has until then).
  var isNarrowedByPredicatesAlone: Bool { !mayMatchNothing && !predicates.isEmpty && classes.isEmpty && names.isEmpty }

  /// Whether `property` passes the selection's predicates. While they run, the calling thread notes which
  /// selection they belong to: the kernel calls them while it commits (under its commit lock), and one
  /// that calls back into the kernel is named in the stop that follows (found by review H82).
  func passesPredicates(_ property: PropertyDescriptor) -> Bool {
    guard !predicates.isEmpty else { return true }
    return withUnsafePointer(to: self) { selection in
      Self.marking(selection: UInt(bitPattern: selection), code: 0) { predicates.allSatisfy { $0(property) } }
    }
  }

  /// Runs `body` with the calling thread's marks of running app code set to `selection` (a selection's
  /// address) and `code` (a `String`'s address, see ``Injection/runningAppCode(_:_:)``), one of them 0,
  /// and the outer marks put back after: the innermost mark is the only one set, so the innermost code is
  /// the one named (found by review H84: an outer filter was named). The addresses must stay valid while
  /// `body` runs.
  static func marking<Result>(selection: UInt, code: UInt, _ body: () throws -> Result) rethrows -> Result {
    let (outerSelection, outerCode) = (ik_running_selection_get(), ik_running_code_get())
    ik_running_selection_set(selection)
    ik_running_code_set(code)
    defer {
      ik_running_selection_set(outerSelection)
      ik_running_code_set(outerCode)
    }
    return try body()
  }

  /// The selection whose predicates the calling thread is running (see ``passesPredicates(_:)``), if any.
  static var running: PropertySelection? {
    let bits = ik_running_selection_get()
    guard bits != 0 else { return nil }
    return UnsafePointer<PropertySelection>(bitPattern: bits)?.pointee
  }

  /// What app code the calling thread runs for the kernel's commit, as far as the kernel knows: a
  /// selection's filter (`the filter of the rule (Inject: type …, filtered)`) or what a plugin named with
  /// ``Injection/runningAppCode(_:_:)``; `nil` when neither.
  static var runningAppCode: String? {
    if let selection = running { return "the filter of the rule (\(selection))" }
    let bits = ik_running_code_get()
    guard bits != 0 else { return nil }
    return UnsafePointer<String>(bitPattern: bits)?.pointee
  }

  /// Whether a property declared `propertyType` has the selected type: the same, or its optional when
  /// the selection includes optionals.
  func isSelectedType(_ propertyType: Any.Type, _ selected: Any.Type) -> Bool {
    propertyType == selected || (includesOptionals && MetadataAccess.optionalWrappedType(propertyType) == selected)
  }

  /// Whether `other` selects the same properties by the same criteria — plugin, value type, named
  /// classes and property names (in any order, repeats ignored), optionals — so that state a plugin keeps
  /// for the older selection is replaced by the newer's. Selections narrowed with ``filter(_:)`` select
  /// the same properties only when filtered by the very same closures (one closure expression that
  /// captures nothing, or the same closure value): other predicates cannot be compared.
  public func selectsTheSameProperties(as other: PropertySelection) -> Bool {
    structuralKey.hasTheSameStructure(as: other.structuralKey)
  }

  /// A key equal for selections that select the same properties by the same structural criteria and
  /// the very same predicates (see ``ClosureIdentity``). A newer rule with the same key replaces an older
  /// one, so a rule re-injected through the same filter does not pile up.
  var structuralKey: StructuralKey {
    StructuralKey(
      plugin: plugin, valueType: valueType.map(ObjectIdentifier.init),
      classes: classes.map(ObjectIdentifier.init), names: Array(names), includesOptionals: includesOptionals,
      owner: owner, predicateIdentities: predicateIdentities)
  }

  /// What a selection selects by: its criteria, and its predicates' identities.
  struct StructuralKey: Hashable {
    let plugin: PluginID
    let valueType: ObjectIdentifier?
    /// The named classes and properties, sorted and each once: sorted arrays compare and hash in one
    /// sequential pass, where a set hashes each element with a hasher of its own.
    let classes: [ObjectIdentifier]
    let names: [String]
    let includesOptionals: Bool
    /// Who the rule was recorded for (``PropertySelection/recorded(forOwner:)``); `nil` for the app.
    let owner: ObjectIdentifier?
    /// The identities of the selection's predicates (empty without any).
    let predicateIdentities: [UInt]
    /// The hash of the fields above, computed once: the rule log hashes a key on every lookup, insertion
    /// and growth of its table.
    private let hash: Int

    init(
      plugin: PluginID, valueType: ObjectIdentifier?, classes: [ObjectIdentifier], names: [String],
      includesOptionals: Bool, owner: ObjectIdentifier?, predicateIdentities: [UInt]
    ) {
      self.plugin = plugin
      self.valueType = valueType
      self.classes = Self.sortedUnique(classes)
      self.names = Self.sortedUnique(names)
      self.includesOptionals = includesOptionals
      self.owner = owner
      self.predicateIdentities = predicateIdentities
      var hasher = Hasher()
      hasher.combine(plugin)
      hasher.combine(valueType)
      hasher.combine(self.classes)
      hasher.combine(self.names)
      hasher.combine(includesOptionals)
      hasher.combine(owner)
      hasher.combine(predicateIdentities)
      hash = hasher.finalize()
    }

    /// Whether `other` selects by the same criteria, whoever recorded it.
    func hasTheSameStructure(as other: StructuralKey) -> Bool {
      plugin == other.plugin && valueType == other.valueType && includesOptionals == other.includesOptionals
        && classes == other.classes && names == other.names && predicateIdentities == other.predicateIdentities
    }

    private static func sortedUnique<Element: Comparable>(_ elements: [Element]) -> [Element] {
      guard elements.count > 1 else { return elements }
      var unique: [Element] = []
      for element in elements.sorted() where unique.last != element { unique.append(element) }
      return unique
    }

    static func == (lhs: StructuralKey, rhs: StructuralKey) -> Bool {
      lhs.hash == rhs.hash && lhs.plugin == rhs.plugin && lhs.valueType == rhs.valueType
        && lhs.includesOptionals == rhs.includesOptionals && lhs.classes == rhs.classes && lhs.names == rhs.names
        && lhs.owner == rhs.owner && lhs.predicateIdentities == rhs.predicateIdentities
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
  }

  /// `Inject: type Settings, in ViewController, named settings`.
  public var description: String {
    var parts: [String] = []
    if let valueType {
      parts.append("type \(Injection.typeName(valueType))" + (includesOptionals ? " (or its optional)" : ""))
    }
    if !classes.isEmpty { parts.append("in " + classes.map { Injection.typeName($0) }.joined(separator: ", ")) }
    // An empty name is shown as `""` (found by review H82: "named ." read as a typo of the message).
    if !names.isEmpty {
      parts.append("named " + names.sorted().map { $0.isEmpty ? "\"\"" : $0 }.joined(separator: ", "))
    }
    if !predicates.isEmpty { parts.append("filtered") }
    return "\(plugin): " + (parts.isEmpty ? "all" : parts.joined(separator: ", "))
  }
}

/// Whether `cls` is `ancestor` or inherits from it.
func isSubclass(_ cls: AnyClass, of ancestor: AnyClass) -> Bool {
  var current: AnyClass? = cls
  while let candidate = current {
    if candidate == ancestor { return true }
    current = MetadataAccess.superclass(of: candidate)
  }
  return false
}
