@_spi(Reflection) import Swift
import Synchronization

/// The cached catalog of marked properties built by the kernel's one shared enumeration pass.
///
/// The pass walks the field metadata of every image not scanned before (the class field descriptors,
/// in address order), finds the marker types (every nominal type conforming to ``InjectionMarker``, from
/// the images' conformance records), and compares the outermost type of each field record of each class
/// against them by pointer — nothing is allocated and no metadata is instantiated for unmarked classes.
/// Classes with marked fields are then resolved to concrete ``PropertyDescriptor``s (generic classes once
/// per specialization: by the pass when a subclass fixes one, see `resolveSpecializingSubclasses`, else
/// when first used). A second pass reads only what is new.
final class PropertyCatalog: @unchecked Sendable {  // all mutable state is guarded by `lock`
  static let shared = PropertyCatalog()

  /// The marked fields of one class, from its field records.
  private struct MarkedClass {
    let descriptor: ClassDescriptor
    /// (own field index, record) of each marked field.
    let fields: [(index: Int, isVar: Bool)]
  }

  private let lock = KernelLock()
  // The stored state below is only touched holding `lock`, which already makes every access exclusive:
  // `@exclusivity(unchecked)` drops the runtime's dynamic check (a thread-local access-set insertion and
  // removal, about 80 instructions per access, on every hot path of passes and commits).
  @exclusivity(unchecked) private var discovery: ClassDiscovery = .loadedImages
  /// Images whose classes were scanned (discovery over loaded images).
  @exclusivity(unchecked) private var scannedImages: Set<UnsafeRawPointer> = []
  /// Images whose marker types were collected (in every discovery mode).
  @exclusivity(unchecked) private var markerImages: Set<UnsafeRawPointer> = []
  /// Classes scanned one by one from an explicit list (image scans need no per-class record).
  @exclusivity(unchecked) private var scannedClasses: Set<UnsafeRawPointer> = []
  /// Marker types conforming to this copy of `InjectionMarker`.
  @exclusivity(unchecked) private var markerDescriptors: [UnsafeRawPointer] = []
  /// Marker types conforming to another copy of `InjectionMarker` (an image that links its own kernel):
  /// their properties are counted but belong to that kernel, which injects them.
  @exclusivity(unchecked) private var foreignMarkerDescriptors: [UnsafeRawPointer] = []
  /// This copy's `InjectionMarker` protocol descriptor, found through `KernelProbe`'s conformance.
  @exclusivity(unchecked) private var markerProtocol: UnsafeRawPointer?
  /// Keyed by descriptor address rather than by `ContextDescriptor`: a dictionary keyed by a type of the
  /// kernel's own costs a scan of every conformance record of the process the first time its type is
  /// instantiated (the runtime checks the key's `Hashable` conformance), about 0.4 M instructions.
  @exclusivity(unchecked) private var marked: [UnsafeRawPointer: MarkedClass] = [:]
  @exclusivity(unchecked) private var resolved: [ObjectIdentifier: [PropertyDescriptor]] = [:]
  /// Marker facts per marker type descriptor (see `markerFacts(of:)`).
  @exclusivity(unchecked) private var markerFactsByDescriptor: [UnsafeRawPointer: MarkerFacts] = [:]
  /// The conformance descriptor of each marker type to this kernel's `InjectionMarker`, by the type's
  /// descriptor: the first specialization of each marker type is opened through it.
  @exclusivity(unchecked) private var markerConformances: [UnsafeRawPointer: UnsafeRawPointer] = [:]
  /// Field types of non-generic classes by the address of their mangled name. A module emits each
  /// mangled type name once, and a name read in a non-generic context always denotes the same type, so
  /// the 150 `@Inject var p: Int` fields of a module cost one demangling instead of 150.
  @exclusivity(unchecked) private var fieldTypesByMangledName: [UnsafeRawPointer: Any.Type] = [:]
  /// Every stored field per class, marked or not, computed only when a plugin asks.
  @exclusivity(unchecked) private var allFields: [ObjectIdentifier: [PropertyDescriptor]] = [:]
  @exclusivity(unchecked) private var resolvedOrder: [ObjectIdentifier] = []
  /// The index of every resolved property, valid while no new property is resolved (properties are
  /// only ever added, so an equal count means an equal set).
  @exclusivity(unchecked) private var cachedIndex: PropertyIndex?
  /// How many marked properties are resolved.
  @exclusivity(unchecked) private var resolvedCount = 0
  @exclusivity(unchecked) private var passLog: [CatalogPass] = []
  /// Non-generic classes found by the running pass, resolved at its end.
  @exclusivity(unchecked) private var pendingResolution: [ClassDescriptor] = []
  /// Classes whose superclass is a specialization of a generic class that they fix (`final class Feed:
  /// Base<Model>`, and `final class Page<Item>: Screen<PageState>`, whose superclass does not depend on its
  /// parameters), found by the running pass; at its end, those that inherit marked properties from a
  /// generic class have their superclass's lineage resolved (see `resolveSpecializingSubclasses`).
  @exclusivity(unchecked) private var pendingSpecializingSubclasses: [ClassDescriptor] = []
  /// The superclass names, by address, whose specialization's lineage is resolved: a module emits each
  /// mangled name once, so its 2,000 subclasses of `Base<Int>` share one name, and all but the first cost a
  /// set lookup (no demangling, no metadata). A name that does not depend on its context's generic
  /// parameters (see `noteGenericSuperclass`) always denotes the same type.
  @exclusivity(unchecked) private var resolvedSuperclassNames: Set<UnsafeRawPointer> = []
  /// Classes whose superclasses are all resolved too (by `resolveLineage(from:)`): a walk stops at one.
  /// `resolved` alone does not tell it: `declaredProperties(of:)` resolves a class but not its ancestors.
  @exclusivity(unchecked) private var resolvedLineages: Set<ObjectIdentifier> = []

  // Associated properties (see `AssociatedProperty`): declaration classes are found by their superclass
  // reference, compared by pointer against the descriptors of `AssociatedProperty` and of its generic
  // subclasses (AssociatePlugin's `Associated`, say), which are found by walking a generic superclass's
  // own superclass references once and remembered either way.
  /// `AssociatedProperty` and its generic subclasses.
  @exclusivity(unchecked) private var associatedBases: [UnsafeRawPointer] = [
    ContextDescriptor(of: PropertyCatalog.associatedPropertyType(marker: KernelProbe.self))!.pointer
  ]
  /// Generic classes known not to descend from `AssociatedProperty`.
  @exclusivity(unchecked) private var associatedNonBases: Set<UnsafeRawPointer> = []
  /// Non-generic declaration classes found by the running pass, resolved at its end.
  @exclusivity(unchecked) private var pendingDeclarations: [ClassDescriptor] = []
  /// The declaration classes the passes found (generic ones included), each noted once.
  @exclusivity(unchecked) private var declarationsFound: Set<UnsafeRawPointer> = []
  /// The default property names (from their class names) of associated declarations nested in generic
  /// types, cataloged per specialization when used: a selection naming one is not a typo before that.
  @exclusivity(unchecked) private var genericDeclarationNames: Set<String> = []
  /// Those declarations' classes (the generic bases among them left out).
  @exclusivity(unchecked) private var genericDeclarationClasses: [ClassDescriptor] = []
  /// The plugins of the markers of the associated declarations resolved so far, by marker type descriptor.
  @exclusivity(unchecked) private var associatedMarkerPlugins: [UnsafeRawPointer: PluginID] = [:]
  /// The associated properties resolved so far, by declaration class, by owner, and in order.
  @exclusivity(unchecked) private var associatedByDeclaration: [UnsafeRawPointer: PropertyDescriptor] = [:]
  @exclusivity(unchecked) private var associatedByOwner: [ObjectIdentifier: [PropertyDescriptor]] = [:]
  @exclusivity(unchecked) private var associatedOrder: [PropertyDescriptor] = []

  // MARK: Queries

  /// Runs a pass over whatever is new, resolves `classes` and their superclasses (generic
  /// specializations named by a selection), then returns every resolved marked property.
  func refresh(resolving classes: [AnyClass] = []) -> [PropertyDescriptor] {
    indexedProperties(resolving: classes).all
  }

  /// Every resolved marked property and their index, after a pass and resolving `classes` and their
  /// superclasses (generic specializations named by a selection). Rebuilt only when something new was
  /// resolved, so the commits of a stable process reuse them.
  func indexedProperties(resolving classes: [AnyClass]) -> PropertyIndex {
    RuleLog.shared.noteCatalogRefresh()
    return lock.withLock {
      runPass()
      for cls in classes { resolveLineage(from: cls) }
      if let cachedIndex, cachedIndex.all.count == resolvedCount { return cachedIndex }
      let index = PropertyIndex(allResolved())
      cachedIndex = index
      return index
    }
  }

  private func allResolved() -> [PropertyDescriptor] {
    resolvedOrder.flatMap { resolved[$0] ?? [] } + associatedOrder
  }

  /// The passes run so far, oldest first.
  var passes: [CatalogPass] { lock.withLock { passLog } }

  /// Replaces the discovery mode; the next pass scans the given classes (or the images).
  func setDiscovery(_ newDiscovery: ClassDiscovery) {
    lock.withLock { discovery = newDiscovery }
  }

  /// The marked properties `cls` itself declares (resolving it if needed), its associated properties
  /// last (their offsets are negative: they are not fields).
  func declaredProperties(of cls: AnyClass) -> [PropertyDescriptor] {
    lock.withLock {
      runPass()
      return resolve(cls) + (associatedByOwner[ObjectIdentifier(cls)] ?? [])
    }
  }

  /// The associated property `declaration` declares, cataloged now if the passes have not met it (a
  /// declaration nested in a generic type, or outside an explicit discovery list).
  func associatedProperty(declaredBy declaration: any AssociatedPropertyDeclaration.Type) -> PropertyDescriptor {
    lock.withLock {
      runPass()
      let property = resolveAssociated(declaration) { declaration.associatedDeclarationFacts }
      stopIfNamedTwice(property, declaredBy: declaration)
      return property
    }
  }

  /// Stops the first use of an associated declaration whose owner class has another property of the same
  /// name (another declaration's, or a marked stored property): selections, rules and reports name
  /// properties so, and could not tell the two apart. Not in the pass: a mistake stops the code that
  /// uses the declaration, not every commit of the process.
  private func stopIfNamedTwice(_ property: PropertyDescriptor, declaredBy declaration: AnyClass) {
    let owner: AnyClass = property.declaringClass
    let associated = associatedByOwner[ObjectIdentifier(owner)] ?? []
    // Specializations of one generic declaration (`Box<T>.Note`) are one property per type argument.
    let generic = ContextDescriptor(of: declaration)?.pointer
    let sameDeclaration = { (other: PropertyDescriptor) -> Bool in
      guard let generic, let otherClass = Self.associatedDeclaration(of: other) else { return false }
      return ContextDescriptor(of: otherClass)?.pointer == generic
    }
    guard
      let other = (associated + resolve(owner)).first(where: {
        $0.name == property.name && $0 != property && !sameDeclaration($0)
      })
    else { return }
    let otherDeclaration =
      Self.associatedDeclaration(of: other).map { "the associated declaration \(Injection.typeName($0))" }
      ?? "a marked stored property"
    Injection.stop(
      "\(property) is declared twice, by the associated declaration \(Injection.typeName(declaration)) and by "
        + "\(otherDeclaration): each property of a class needs a name of its own (an associated property is named "
        + "after its declaration class, first word lowercased, unless its class var propertyName says otherwise)")
  }

  private func resolveAssociated(_ declaration: AnyClass, facts: () -> AssociatedDeclarationFacts)
    -> PropertyDescriptor
  {
    let id = unsafeBitCast(declaration, to: UnsafeRawPointer.self)
    if let known = associatedByDeclaration[id] { return known }
    let facts = facts()
    guard let owner = facts.owner as? AnyClass else {
      Injection.stop(
        "\(Injection.typeName(declaration)) declares an associated property of \(Injection.typeName(facts.owner)), "
          + "which is not a class: an associated property's owner is a class (Associated<Player, Value>), "
          + "not a protocol or AnyObject")
    }
    guard !facts.name.isEmpty else {
      Injection.stop(
        "\(Injection.typeName(declaration)) declares an associated property with an empty name: its propertyName "
          + "must name the property (selections, rules and reports name it so)")
    }
    // The offset stands for the declaration (it is no field): the declaration class's negated address,
    // unique and never a field offset (read back by `associatedDeclaration(of:)`).
    let property = PropertyDescriptor(
      declaringClass: owner, className: Injection.typeName(owner), name: facts.name, valueType: facts.valueType,
      plugin: facts.plugin, fieldType: facts.marker, offset: -Int(bitPattern: id), isMutable: true)
    associatedByDeclaration[id] = property
    if let marker = ContextDescriptor(of: facts.marker) { associatedMarkerPlugins[marker.pointer] = facts.plugin }
    associatedByOwner[ObjectIdentifier(owner), default: []].append(property)
    associatedOrder.append(property)
    resolvedCount += 1
    return property
  }

  /// The declaration class of an associated property (its offset is the class's negated address, see
  /// `resolveAssociated`); `nil` for a field.
  static func associatedDeclaration(of property: PropertyDescriptor) -> AnyClass? {
    guard property.offset < 0, let address = UnsafeRawPointer(bitPattern: UInt(bitPattern: -property.offset)) else {
      return nil
    }
    return unsafeBitCast(address, to: AnyClass.self)
  }

  /// Whether a class whose superclass reference leads with `lead` declares an associated property
  /// (`isGeneric`: it is itself generic, so it is a base for declarations instead).
  private func isAssociatedDeclaration(lead: UnsafeRawPointer, bases: [UnsafeRawPointer]) -> Bool {
    if bases.contains(lead) { return true }
    return isAssociatedBase(ContextDescriptor(lead), depth: 0)
  }

  /// Whether `descriptor` is a generic class descending from `AssociatedProperty` (memoized both ways).
  private func isAssociatedBase(_ descriptor: ContextDescriptor, depth: Int) -> Bool {
    if associatedBases.contains(descriptor.pointer) { return true }
    guard depth < 16, descriptor.kind == .class, descriptor.isGeneric,
      !associatedNonBases.contains(descriptor.pointer), let cls = ClassDescriptor(descriptor)
    else { return false }
    if let superName = cls.superclassName, let lead = superName.leadingSymbolicDescriptor,
      superName.leadingReferenceIsOutermost, isAssociatedBase(lead, depth: depth + 1)
    {
      associatedBases.append(descriptor.pointer)
      return true
    }
    associatedNonBases.insert(descriptor.pointer)
    return false
  }

  /// Notes what a class's superclass reference tells (a pass's per-class check: one relative pointer and a
  /// pointer comparison for most classes): that the class declares an associated property, or fixes the
  /// parameters of a generic superclass. `owner` finds the class's descriptor.
  @inline(__always)
  private func noteSuperclass(_ superclass: MangledName?, bases: [UnsafeRawPointer], owner: () -> ClassDescriptor?) {
    guard let superName = superclass, let lead = superName.leadingSymbolicDescriptor else { return }
    guard bases.contains(lead.pointer) || (lead.isGeneric && lead.kind == .class) else { return }
    noteGenericSuperclass(superName, lead: lead, bases: bases, owner: owner)
  }

  /// `noteSuperclass` for a class whose superclass is generic or an associated base (out of line: the pass's
  /// per-class check stays small enough to be inlined into its loop).
  @inline(never)
  private func noteGenericSuperclass(
    _ superName: MangledName, lead: ContextDescriptor, bases: [UnsafeRawPointer], owner: () -> ClassDescriptor?
  ) {
    guard let descriptor = owner() else { return }
    // A generic class fixes its superclass's specialization when the superclass name does not mention its
    // parameters (`Page<Item>: Screen<PageState>`); one that does (`Leaf<U>: Mid<U>`) fixes none of its own.
    if lead.isGeneric, !descriptor.isGeneric || GenericDependence.isIndependent(superName) {
      pendingSpecializingSubclasses.append(descriptor)
    }
    guard superName.leadingReferenceIsOutermost, isAssociatedDeclaration(lead: lead.pointer, bases: bases) else {
      return
    }
    // A generic class is either a base of its own (checked when its subclasses are met) or a
    // declaration nested in a generic type (cataloged per specialization on first access).
    guard declarationsFound.insert(descriptor.pointer).inserted else { return }
    if !descriptor.isGeneric {
      pendingDeclarations.append(descriptor)
    } else {
      noteGenericDeclarationName(of: descriptor)
    }
  }

  /// Resolves the lineage of the superclass of each noted specializing subclass that inherits marked
  /// properties from a generic class, so that the specialization it fixes (`Base<Model>`) is cataloged like
  /// a non-generic class: rules reach its properties when they are committed, and completeness checks see
  /// them before any instance exists (otherwise a specialization is cataloged on first use, and a check
  /// could not know that a rule naming another specialization leaves this one empty). The generic
  /// ancestors are found through the superclass references of their descriptors; the superclass is read
  /// from its mangled name in the subclass's context, so no metadata is made for the subclass (and for a
  /// generic one none could be). The subclass itself needs no resolving here: a non-generic one with marked
  /// fields is resolved by the pass like any other, a generic one per specialization.
  private func resolveSpecializingSubclasses() {
    let noted = pendingSpecializingSubclasses
    pendingSpecializingSubclasses.removeAll()
    for descriptor in noted {
      guard let superName = descriptor.superclassName,
        !resolvedSuperclassNames.contains(UnsafeRawPointer(superName.start)),
        inheritsGenericMarkedFields(descriptor),
        let superclass = _getTypeByMangledNameInContext(
          superName.start, UInt(superName.byteCount), genericContext: descriptor.pointer, genericArguments: nil)
          as? AnyClass
      else { continue }
      resolveLineage(from: superclass)
      resolvedSuperclassNames.insert(UnsafeRawPointer(superName.start))
    }
  }

  /// Resolves `cls` and its superclasses, up to the first whose lineage is resolved already.
  private func resolveLineage(from cls: AnyClass) {
    var current: AnyClass? = cls
    while let cls = current, MetadataAccess.isSafeSwiftClass(cls) {
      // Inserted before its ancestors are resolved: nothing reads the set before this walk has resolved them.
      guard resolvedLineages.insert(ObjectIdentifier(cls)).inserted else { return }
      _ = resolve(cls)
      current = MetadataAccess.superclass(of: cls)
    }
  }

  /// Whether a generic class with marked fields is among the ancestors of `descriptor`, following
  /// superclass references (at most 64 steps: a lineage is never that deep).
  private func inheritsGenericMarkedFields(_ descriptor: ClassDescriptor) -> Bool {
    var ancestor = descriptor.superclassName?.leadingSymbolicDescriptor
    for _ in 0..<64 {
      guard let context = ancestor, let cls = ClassDescriptor(context) else { return false }
      if cls.isGeneric, marked[cls.pointer] != nil { return true }
      ancestor = cls.superclassName?.leadingSymbolicDescriptor
    }
    return false
  }

  /// Notes the default property name of an associated declaration nested in a generic type (out of line:
  /// the pass's per-class check stays small enough to be inlined into its loop).
  @inline(never)
  private func noteGenericDeclarationName(of descriptor: ClassDescriptor) {
    // A declaration overriding `propertyName` has another name, known once a specialization is used.
    // Nested in a generic type (or an extension of one): a generic base of declarations (`Associated<Owner,
    // Value>`) is declared at its module's level, and is no declaration of its own.
    if descriptor.context.parent?.isGeneric == true { genericDeclarationClasses.append(descriptor) }
    guard let name = descriptor.name else { return }
    genericDeclarationNames.insert(AssociatedNaming.propertyName(forDeclaration: String(cString: name)))
  }

  /// Whether a property that a generic type's specialization brings when used — a marked field of a
  /// generic class, an associated declaration nested in a generic type — may belong to `plugin` with a
  /// value type `accepts` takes. One whose plugin or value type cannot be known before a specialization
  /// counts, so `false` means no specialization can bring such a property.
  func specializationsMayBring(plugin: PluginID, valueType accepts: (Any.Type) -> Bool) -> Bool {
    let field = genericDeclarations().contains { declaration in
      (declaration.plugin ?? plugin) == plugin && (declaration.valueType.map(accepts) ?? true)
    }
    return field
      || lock.withLock {
        genericDeclarationClasses.contains { declaration in
          let plugins = associatedPlugins(of: declaration)
          return plugins.isEmpty || plugins.contains(plugin)
        }
      }
  }

  /// The plugins an associated declaration nested in a generic type may belong to, as far as known without
  /// a specialization: those of the markers (marker types whose plugin a marked field or an associated
  /// declaration taught the catalog) that its superclass's name mentions —
  /// `AssociatedProperty<Box<T>, Associate<String>>` — and its superclass's superclass's, and so on
  /// (`Associated<Box<T>, String>`). More than one when the owner's name mentions a marker too
  /// (`AssociatedProperty<Cell<Lazy<Int>>, Inject<Rules>>`); none when no marker is known. Lock held.
  private func associatedPlugins(of declaration: ClassDescriptor) -> Set<PluginID> {
    var plugins: Set<PluginID> = []
    var current: ClassDescriptor? = declaration
    for _ in 0..<16 {  // a declaration's lineage up to `AnyAssociatedProperty` is a few classes deep
      guard let cls = current, let superName = cls.superclassName else { break }
      for descriptor in superName.symbolicDescriptors {
        if let plugin = markerFactsByDescriptor[descriptor.pointer]?.plugin
          ?? associatedMarkerPlugins[descriptor.pointer]
        {
          plugins.insert(plugin)
        }
      }
      current = superName.leadingSymbolicDescriptor.flatMap(ClassDescriptor.init)
    }
    return plugins
  }

  /// The marked properties of generic classes as declared, without specializing them: value types that
  /// do not depend on the generic parameters are instantiated from the field records.
  func genericDeclarations() -> [GenericPropertyDeclaration] {
    lock.withLock {
      runPass()
      var declarations: [GenericPropertyDeclaration] = []
      /// Declarations whose marker's plugin was not known yet, with their marker type's descriptor: an
      /// independent field read later (of this class or another) may make it known.
      var pluginsToFind: [(index: Int, marker: UnsafeRawPointer)] = []
      for entry in marked.values where entry.descriptor.isGeneric {
        guard let records = entry.descriptor.fieldDescriptor?.records else { continue }
        let className = entry.descriptor.context.qualifiedName
        for field in entry.fields where field.index < records.count {
          let record = records[field.index]
          guard let raw = record.name, let mangled = record.mangledTypeName else { continue }
          let name = String(cString: raw)
          var plugin: PluginID?
          var valueType: Any.Type?
          if GenericDependence.isIndependent(mangled),
            let type = _getTypeByMangledNameInContext(
              mangled.start, UInt(mangled.byteCount), genericContext: entry.descriptor.pointer, genericArguments: nil),
            let facts = markerFacts(of: type)
          {
            (plugin, valueType) = (facts.plugin, facts.valueType)
          } else if let marker = mangled.leadingSymbolicDescriptor {
            plugin = markerFactsByDescriptor[marker.pointer]?.plugin
            if plugin == nil { pluginsToFind.append((declarations.count, marker.pointer)) }
          }
          declarations.append(
            GenericPropertyDeclaration(
              className: className, name: name.hasPrefix("_") ? String(name.dropFirst()) : name, plugin: plugin,
              valueType: valueType, classDescriptor: entry.descriptor.context))
        }
      }
      for (index, marker) in pluginsToFind {
        guard let plugin = markerFactsByDescriptor[marker]?.plugin else { continue }
        let found = declarations[index]
        declarations[index] = GenericPropertyDeclaration(
          className: found.className, name: found.name, plugin: plugin, valueType: found.valueType,
          classDescriptor: found.classDescriptor)
      }
      return declarations.sorted { $0.description < $1.description }
    }
  }

  /// The default names of associated declarations nested in generic types (see
  /// `genericDeclarationNames`).
  func genericAssociatedDeclarationNames() -> Set<String> {
    lock.withLock {
      runPass()
      return genericDeclarationNames
    }
  }

  /// The names (without the wrapper's `_`) of the marked fields of generic classes, whatever their plugin,
  /// read from the field records with no specialization, and the default names of associated declarations
  /// nested in generic types.
  func genericMarkedFieldNames() -> Set<String> {
    lock.withLock {
      runPass()
      var names = genericDeclarationNames
      for entry in marked.values where entry.descriptor.isGeneric {
        guard let records = entry.descriptor.fieldDescriptor?.records else { continue }
        for field in entry.fields where field.index < records.count {
          guard let raw = records[field.index].name else { continue }
          let name = String(cString: raw)
          names.insert(name.hasPrefix("_") ? String(name.dropFirst()) : name)
        }
      }
      return names
    }
  }

  /// The names of generic classes with marked fields (cataloged per specialization when used).
  func genericClassNames() -> [String] {
    lock.withLock {
      runPass()
      return
        marked.values.filter { $0.descriptor.isGeneric }.map { $0.descriptor.context.qualifiedName }.sorted()
    }
  }

  // MARK: The pass (lock held)

  private func runPass() {
    let start = ContinuousClock.now
    var images = 0
    var classes = 0
    var fields = 0
    var found = 0
    var foreign = 0
    switch discovery {
    case .loadedImages:
      var newImages: [MetadataImage] = []
      MetadataImages.forEachImage { image in
        if !scannedImages.contains(image.key) { newImages.append(image) }
      }
      guard !newImages.isEmpty else { return }
      for image in newImages where !markerImages.contains(image.key) { collectMarkers(in: image) }
      let keys = ScanKeys(catalog: self)
      for image in newImages {
        scannedImages.insert(image.key)
        images += 1
        // The classes' field descriptors, in address order: a sequential read of one section, where going
        // through the type records would also read each class's context descriptor.
        var owners: [UnsafeRawPointer: ClassDescriptor]?
        FieldDescriptors.forEach(in: image.fieldDescriptors) { descriptor in
          guard descriptor.isClass else { return }
          classes += 1
          let counts = scan(descriptor, superclass: descriptor.superclassName, keys: keys) {
            Self.owner(of: descriptor, in: image, cache: &owners)
          }
          fields += counts.fields
          found += counts.marked
          foreign += counts.foreign
        }
      }
    case .classes(let list):
      MetadataImages.forEachImage { image in
        if !markerImages.contains(image.key) { collectMarkers(in: image) }
      }
      var newClasses: [ClassDescriptor] = []
      for cls in list {
        var current: AnyClass? = cls
        while let candidate = current, MetadataAccess.isSafeSwiftClass(candidate) {
          if let context = ContextDescriptor(of: candidate), let descriptor = ClassDescriptor(context),
            !scannedClasses.contains(context.pointer)
          {
            newClasses.append(descriptor)
          }
          current = MetadataAccess.superclass(of: candidate)
        }
      }
      guard !newClasses.isEmpty else { return }
      for descriptor in newClasses where scannedClasses.insert(descriptor.pointer).inserted {
        classes += 1
        let counts = scan(descriptor)
        fields += counts.fields
        found += counts.marked
        foreign += counts.foreign
      }
    }
    // Non-generic classes are resolved at once; generic ones per specialization, when used.
    let scanned = ContinuousClock.now
    for entry in pendingResolution {
      if let cls = MetadataAccess.classMetadata(of: entry.context) { _ = resolve(cls) }
    }
    pendingResolution.removeAll()
    resolveSpecializingSubclasses()
    for declaration in pendingDeclarations {
      if let cls = MetadataAccess.classMetadata(of: declaration.context),
        let declaring = cls as? AnyAssociatedProperty.Type  // a class cast: no conformance lookup
      {
        // A declaration whose owner is no class (`Associated<AnyObject, …>`), or whose name is empty, is left
        // out: its own first use stops the program, saying why (`resolveAssociated`), not every pass.
        let facts = declaring.catalogFacts
        if facts.owner is AnyClass, !facts.name.isEmpty { _ = resolveAssociated(declaring) { facts } }
      }
    }
    pendingDeclarations.removeAll()
    let finished = ContinuousClock.now
    passLog.append(
      CatalogPass(
        images: images, classes: classes, fields: fields, markerTypes: markerDescriptors.count,
        markedProperties: found, markedByOtherKernelCopies: foreign,
        scanNanoseconds: nanoseconds(from: start, to: scanned),
        nanoseconds: nanoseconds(from: start, to: finished)))
  }

  private func nanoseconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> UInt64 {
    let elapsed = (end - start).components
    return UInt64(elapsed.seconds) * 1_000_000_000 + UInt64(elapsed.attoseconds / 1_000_000_000)
  }

  /// Adds the marker types declared in `image`: nominal types conforming to `InjectionMarker`.
  private func collectMarkers(in image: MetadataImage) {
    markerImages.insert(image.key)
    let own = ownMarkerProtocol()
    // Protocol descriptors met that are not `InjectionMarker`, direct-mapped by address: an image's
    // conformances name a few hundred protocols many times over, and comparing a name costs several
    // times this check.
    var notMarkers = [UInt](repeating: 0, count: 512)
    let isMarker = { (proto: ContextDescriptor) -> Bool in
      let address = UInt(bitPattern: proto.pointer)
      let entry = Int(truncatingIfNeeded: (address >> 4) ^ (address >> 13)) & 511
      if notMarkers[entry] == address { return false }
      if self.isMarkerProtocol(proto) { return true }
      notMarkers[entry] = address
      return false
    }
    ConformanceRecords.forEachConformance(in: image, where: isMarker) { proto, type, conformance in
      if proto.pointer == own {
        if !markerDescriptors.contains(type.pointer) { markerDescriptors.append(type.pointer) }
        markerConformances[type.pointer] = conformance
      } else if !foreignMarkerDescriptors.contains(type.pointer) {
        foreignMarkerDescriptors.append(type.pointer)
      }
    }
  }

  /// Any copy of `InjectionMarker` (byte comparison of names; the own copy by pointer first).
  private func isMarkerProtocol(_ descriptor: ContextDescriptor) -> Bool {
    descriptor.pointer == markerProtocol
      || descriptor.isProtocol(named: "InjectionMarker", inModule: "InjectionKernel")
  }

  /// A specialization of `AssociatedProperty`, for its descriptor. Never specialized: the caller passes
  /// the marker's witness table, so the runtime instantiates the metadata without checking the marker's
  /// conformance (a specialized caller would instantiate it from its mangled name, and the first check
  /// of a conformance scans every conformance record of every loaded image).
  @_semantics("optimize.sil.specialize.generic.never")
  private static func associatedPropertyType<Marker: InjectionMarker>(marker: Marker.Type) -> Any.Type {
    AssociatedProperty<KernelProbeOwner, Marker>.self
  }

  /// This copy's protocol descriptor: the protocol of `KernelProbe`'s conformance, which lives in the
  /// same image as this code.
  private func ownMarkerProtocol() -> UnsafeRawPointer? {
    if let markerProtocol { return markerProtocol }
    markerProtocol = ConformanceRecords.protocolDescriptor(of: KernelProbe.self)
    return markerProtocol
  }

  /// Reads the field records of one class; returns how many it compared and how many were marked.
  private func scan(_ descriptor: ClassDescriptor) -> (fields: Int, marked: Int, foreign: Int) {
    scan(descriptor.fieldDescriptor, superclass: descriptor.superclassName, keys: ScanKeys(catalog: self)) {
      descriptor
    }
  }

  /// The class whose fields `fields` describes: the class its type name refers to directly (as every
  /// class's descriptor does today), else the class among the image's type records that points at it
  /// (that map is built once per image and pass, and only if needed).
  private static func owner(
    of fields: FieldDescriptor, in image: MetadataImage, cache: inout [UnsafeRawPointer: ClassDescriptor]?
  ) -> ClassDescriptor? {
    if let lead = fields.mangledTypeName?.leadingSymbolicDescriptor, let descriptor = ClassDescriptor(lead),
      descriptor.fieldDescriptor?.pointer == fields.pointer
    {
      return descriptor
    }
    if cache == nil {
      var map: [UnsafeRawPointer: ClassDescriptor] = [:]
      TypeRecords.forEachClass(in: image.typeRecords) { descriptor in
        if let own = descriptor.fieldDescriptor { map[own.pointer] = descriptor }
      }
      cache = map
    }
    return cache?[fields.pointer]
  }

  /// What a pass compares field types against, read from the catalog once per pass: the hot loop then
  /// touches no class property (each access to one is a dynamic exclusivity check, about 80
  /// instructions — more than the rest of an unmarked class's scan).
  private struct ScanKeys {
    let markers: [UnsafeRawPointer]
    let foreignMarkers: [UnsafeRawPointer]
    /// `associatedBases` when the pass began; a base found during the pass is still recognized, through
    /// `isAssociatedBase`, which reads the catalog's own list.
    let associatedBases: [UnsafeRawPointer]

    init(catalog: PropertyCatalog) {
      markers = catalog.markerDescriptors
      foreignMarkers = catalog.foreignMarkerDescriptors
      associatedBases = catalog.associatedBases
    }
  }

  /// `scan` with the pass's keys, given the class's field descriptor and superclass name: for most
  /// classes a few loads and pointer comparisons per field, and no allocation (an array is made, and
  /// `owner` asked for the class's descriptor, only for a class with marked fields) — 100,000 fields
  /// take about 0.4 ms.
  @inline(__always)
  private func scan(
    _ fieldDescriptor: FieldDescriptor?, superclass: MangledName?, keys: ScanKeys, owner: () -> ClassDescriptor?
  ) -> (fields: Int, marked: Int, foreign: Int) {
    noteSuperclass(superclass, bases: keys.associatedBases, owner: owner)
    guard let records = fieldDescriptor?.records else { return (0, 0, 0) }
    var fields: [(index: Int, isVar: Bool)]?
    var foreign = 0
    for index in records.indices {
      let record = records[index]
      // Compare the leading type reference by pointer first; confirm its shape only for a marker.
      guard let name = record.mangledTypeName, let lead = name.leadingSymbolicDescriptor else { continue }
      if keys.markers.contains(lead.pointer) {
        if name.leadingReferenceIsOutermost {
          if fields == nil { fields = [] }
          fields?.append((index, record.isVar))
        }
      } else if keys.foreignMarkers.contains(lead.pointer), name.leadingReferenceIsOutermost {
        foreign += 1
      }
    }
    guard let fields, let descriptor = owner() else { return (records.count, 0, foreign) }
    marked[descriptor.pointer] = MarkedClass(descriptor: descriptor, fields: fields)
    if !descriptor.isGeneric { pendingResolution.append(descriptor) }
    return (records.count, fields.count, foreign)
  }

  /// Every stored field `cls` declares itself, marked or not, with `var`/`let` from its field records;
  /// computed on request (the shared pass never lists unmarked fields) and cached per class.
  func storedProperties(of cls: AnyClass) -> [PropertyDescriptor] {
    lock.withLock {
      runPass()
      let id = ObjectIdentifier(cls)
      if let known = allFields[id] { return known }
      guard MetadataAccess.isSafeSwiftClass(cls), let context = ContextDescriptor(of: cls),
        let descriptor = ClassDescriptor(context), let records = descriptor.fieldDescriptor?.records
      else {
        allFields[id] = []
        return []
      }
      let marked = Dictionary(uniqueKeysWithValues: resolve(cls).map { ($0.offset, $0) })
      let own = ownFields(of: cls, count: descriptor.numberOfFields)
      var properties: [PropertyDescriptor] = []
      for (index, field) in own.enumerated() where index < records.count {
        if let property = marked[field.offset] {
          properties.append(property)
          continue
        }
        if isUnrepresentable(field.type, records[index], of: descriptor) { continue }
        properties.append(
          PropertyDescriptor(
            declaringClass: cls, className: Injection.typeName(cls), name: field.name, valueType: field.type,
            plugin: nil, fieldType: field.type, offset: field.offset, isMutable: records[index].isVar))
      }
      allFields[id] = properties
      return properties
    }
  }

  /// What the catalog learned about one marker generic type (keyed by its descriptor).
  private struct MarkerFacts {
    let plugin: PluginID
    /// `Value` is the marker's first generic argument (checked once against `valueType`).
    let valueIsFirstGenericArgument: Bool
  }

  /// The plugin and value type of a marker field's type. The first specialization of each marker type
  /// is opened as an `InjectionMarker` through its conformance record (see ``markerType(_:descriptor:)``);
  /// later specializations read `Value` from the metadata.
  private func markerFacts(of type: Any.Type) -> (plugin: PluginID, valueType: Any.Type)? {
    guard let descriptor = ContextDescriptor(of: type) else {
      return (type as? any InjectionMarker.Type).map { ($0.plugin, $0.valueType) }
    }
    if let facts = markerFactsByDescriptor[descriptor.pointer], facts.valueIsFirstGenericArgument,
      let value = MetadataAccess.firstGenericArgument(ofValueType: type)
    {
      return (facts.plugin, value)
    }
    guard let marker = markerType(type, descriptor: descriptor) else { return nil }
    let first = MetadataAccess.firstGenericArgument(ofValueType: type)
    markerFactsByDescriptor[descriptor.pointer] = MarkerFacts(
      plugin: marker.plugin, valueIsFirstGenericArgument: first.map { $0 == marker.valueType } ?? false)
    return (marker.plugin, marker.valueType)
  }

  /// `type` as a marker type when it is one: opened with the witness table of its conformance record
  /// when the pass has seen it (a cast would scan every conformance record of every image), else cast.
  private func markerType(_ type: Any.Type, descriptor: ContextDescriptor) -> (any InjectionMarker.Type)? {
    if let conformance = markerConformances[descriptor.pointer],
      let witnessTable = ConformanceRecords.witnessTable(of: conformance, for: type)
    {
      // Layout relied on: an existential metatype of one protocol is the type's metadata followed by the
      // witness table of its conformance (`ExistentialMetatypeContainer`, swift/ABI/Metadata.h).
      return unsafeBitCast((type, witnessTable), to: (any InjectionMarker.Type).self)
    }
    return type as? any InjectionMarker.Type
  }

  /// The type a field record of a non-generic class names, demangled once per mangled name.
  private func fieldType(_ record: FieldRecord, in descriptor: ClassDescriptor) -> Any.Type? {
    guard let name = record.mangledTypeName.map({ UnsafeRawPointer($0.start) }) else { return nil }
    if let known = fieldTypesByMangledName[name] { return known }
    let type = MetadataAccess.fieldType(record, in: descriptor)
    if let type { fieldTypesByMangledName[name] = type }
    return type
  }

  /// Whether `cls`'s field offsets and field types can be read without `_forEachField`.
  private func isDirectlyReadable(_ cls: AnyClass, _ descriptor: ClassDescriptor) -> Bool {
    !descriptor.isGeneric && !descriptor.hasResilientSuperclass && MetadataAccess.isSafeSwiftClass(cls)
  }

  /// The stored fields `cls` declares itself: `_forEachField` lists inherited fields first, so they are
  /// the last `count` ones.
  private func ownFields(of cls: AnyClass, count: Int) -> [(name: String, offset: Int, type: Any.Type)] {
    var all: [(name: String, offset: Int, type: Any.Type)] = []
    _ = _forEachField(of: cls, options: _EachFieldOptions(rawValue: 1)) { name, offset, type, _ in
      all.append((String(cString: name), offset, type))
      return true
    }
    return Array(all.suffix(count))
  }

  /// Whether reflection reported a field as `()` although its declaration names another type: a field of
  /// a noncopyable type, which no `Any.Type` stands for (the runtime's lookups answer `()` for it too)
  /// and no value can be read from or written into. In a non-generic class, `()` is always spelled `yt`
  /// (type aliases are spelled out); in a generic class, a `T` field with `T == Void` is a real `()`, so
  /// a generic class's fields are not judged.
  private func isUnrepresentable(_ reported: Any.Type, _ record: FieldRecord, of descriptor: ClassDescriptor) -> Bool {
    guard reported == Void.self, !descriptor.isGeneric, let name = record.mangledTypeName else { return false }
    return !name.isEmptyTuple
  }

  /// The property's name from its stored field's name: without the leading `_` of a wrapper's backing
  /// field (`_settings` → `settings`), read past it rather than trimmed from a copy.
  private static func propertyName(fieldName: UnsafePointer<CChar>) -> String {
    String(cString: fieldName.pointee == CChar(UInt8(ascii: "_")) ? fieldName + 1 : fieldName)
  }

  /// The marked properties `cls` declares, resolving the class on first use.
  private func resolve(_ cls: AnyClass) -> [PropertyDescriptor] {
    let id = ObjectIdentifier(cls)
    if let known = resolved[id] { return known }
    guard MetadataAccess.isSafeSwiftClass(cls), let context = ContextDescriptor(of: cls) else {
      resolved[id] = []
      return []
    }
    if marked[context.pointer] == nil, let descriptor = ClassDescriptor(context) {
      _ = scan(descriptor)  // a class from an image or a list the pass has not seen (cheap; once per class)
    }
    guard let entry = marked[context.pointer] else {
      resolved[id] = []
      return []
    }
    let className = Injection.typeName(cls)
    var properties: [PropertyDescriptor] = []
    // Non-generic classes: offsets from the metadata's field offset vector and only the marked fields'
    // types instantiated. Generic specializations (and resilient layouts): `_forEachField`.
    let records = entry.descriptor.fieldDescriptor?.records
    let own =
      isDirectlyReadable(cls, entry.descriptor) ? nil : ownFields(of: cls, count: entry.descriptor.numberOfFields)
    for field in entry.fields {
      let name: String
      let offset: Int
      let type: Any.Type
      if let own {
        guard field.index < own.count else { continue }
        let (fieldName, fieldOffset, fieldType) = own[field.index]
        (name, offset, type) = (
          fieldName.hasPrefix("_") ? String(fieldName.dropFirst()) : fieldName, fieldOffset, fieldType
        )
      } else {
        guard let record = records?[field.index], let recordName = record.name,
          let fieldOffset = MetadataAccess.fieldOffset(of: cls, descriptor: entry.descriptor, index: field.index),
          let fieldType = fieldType(record, in: entry.descriptor)
        else { continue }
        (name, offset, type) = (Self.propertyName(fieldName: recordName), fieldOffset, fieldType)
      }
      guard let marker = markerFacts(of: type) else { continue }
      properties.append(
        PropertyDescriptor(
          declaringClass: cls, className: className, name: name,
          valueType: marker.valueType, plugin: marker.plugin, fieldType: type, offset: offset,
          isMutable: field.isVar))
    }
    resolved[id] = properties
    resolvedOrder.append(id)
    resolvedCount += properties.count
    return properties
  }
}
