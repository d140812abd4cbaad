/// Planning a batch (commit lock held): which properties each rule selects, what each will have, what
/// matched nothing and what stays empty. Commits and dry runs share it.
extension Injection {
  /// The plan of `rules` against the catalog and the committed state; the empty properties for which
  /// `isListed` returns `true` are listed (none without it).
  static func makePlan(
    _ rules: InjectionRules, log: RuleLog, listingEmpty isListed: ((PropertyDescriptor) -> Bool)?,
    in scope: InjectionScope? = nil
  ) throws -> InjectionPlan {
    let order = rules.commitOrder
    let changes = rules.changesInCommitOrder
    let named = changes.flatMap { change -> [AnyClass] in
      switch change {
      case .inject(let selection, _), .injectEach(let selection, _), .reject(let selection), .retract(let selection):
        return selection.namedClasses
      case .rejectAll: return []
      }
    }
    // The batch's one pass, however many plugins' verbs it holds.
    let catalogIndex = PropertyCatalog.shared.indexedProperties(resolving: named)
    // Subclass views: those whose instances have slots, and those of the classes rules name (the
    // batch's and the committed ones), so that a rule reaches every view it decides for.
    var views = SlotRegistry.shared.allViews()
    for cls in named + log.namedClasses() + (scope?.namedClasses() ?? []) {
      views += catalogIndex.inheritedViews(from: cls)
    }
    // The views a check asked to have listed when empty (``InjectionRules/listInheritedProperties(of:)``).
    let listedViews =
      isListed == nil ? [] : rules.classesListingInheritedProperties.flatMap(catalogIndex.inheritedViews)
    views += listedViews
    let index = views.isEmpty ? catalogIndex : catalogIndex.adding(views: views)
    let properties = index.all
    /// What the batch plans for each property it touches (one table: a rule's change is one lookup).
    var planned: [PropertyDescriptor: PlannedProperty] = [:]
    var touched: [PropertyDescriptor] = []
    var unmatched: [InjectionPlan.UnmatchedSelection] = []
    /// Records a selection that matched nothing, with its near misses.
    func noteUnmatched(_ selection: PropertySelection) {
      // In a test's override (`withOverrides`), a rule by type alone that reaches no property while
      // properties are declared with a type its values fit, or as its optional (a getter of `T` does not
      // reach `T?` properties), was meant for them: overrides exist to change what properties read.
      // (Elsewhere — a child injector too — it is also a binding for `resolve`, and stays silent.)
      let fitting =
        rules.meantForProperties ? NearMisses.declaredTypesTheValuesFit(for: selection, in: index) : []
      unmatched.append(
        InjectionPlan.UnmatchedSelection(
          selection: selection.description + (nameMissingFromClasses(of: selection, in: index) ?? ""),
          nearMisses: NearMisses.find(for: selection, in: index) + fitting,
          isMistake: (selection.mustMatch && !namesAGenericClassField(selection, in: index)) || !fitting.isEmpty
            || predicatesAloneMeantNothing(selection)))
    }

    /// The injection committed before this batch: the slot's, or the rules' for a slot not made yet (a
    /// subclass view that follows a shallower class has that class's).
    func committed(_ property: PropertyDescriptor) -> AnyPropertyInjection? {
      if let scope { return scope.plannedInjection(for: property, log: log) }
      if let slot = SlotRegistry.shared.existingSlot(for: property) { return slot.currentInjection }
      let level = committedLevel(property)
      if level < property.viewDepth { return committed(property.view(atDepth: level)) }
      return log.injection(for: property)
    }
    /// The level of the committed rule deciding `property` (0 for a declared property).
    func committedLevel(_ property: PropertyDescriptor) -> Int {
      guard property.isSubclassView else { return 0 }
      if let scope, let level = scope.decidingLevel(for: property) { return level }
      return log.decidingLevel(for: property) ?? 0
    }
    func currentLevel(_ property: PropertyDescriptor) -> Int { planned[property]?.level ?? committedLevel(property) }
    /// What `property` has once the batch applies: what the batch planned for it, else — for a subclass view
    /// that follows a shallower class — what that class's property has (the batch may have planned it), else
    /// what was committed.
    func current(_ property: PropertyDescriptor) -> AnyPropertyInjection? {
      if let planned = planned[property] { return planned.injection }
      if property.isSubclassView {
        let level = committedLevel(property)
        if level < property.viewDepth { return current(property.view(atDepth: level)) }
      }
      return committed(property)
    }
    var countedIntents: [PropertyDescriptor: Set<String>] = [:]
    var intent: String?  // the intent of the change being planned
    func set(_ property: PropertyDescriptor, _ injection: AnyPropertyInjection?, level: Int = 0, counted: Bool) {
      // Rules sharing an intent count once per property; a subclass view counts only the rules that
      // name its class (one naming the declaring class and one naming the subclass do not compete).
      let counts =
        counted && intent != InjectionRules.restatingIntent && (!property.isSubclassView || level == property.viewDepth)
        && (intent.map { countedIntents[property, default: []].insert($0).inserted } ?? true)
      func update(_ entry: inout PlannedProperty) {
        entry.injection = injection
        entry.level = level
        if counts { entry.ruleCount += 1 }
      }
      let before = planned.count
      update(&planned[property, default: PlannedProperty()])
      if planned.count != before { touched.append(property) }
    }

    // A selection one of whose names or classes selects nothing is a mistake even when another of them
    // matched; listed first, so a commit throws it before any other (a plan lists it).
    var namedWrongly: Set<Int> = []
    for (position, change) in changes.enumerated() {
      switch change {
      case .inject(let selection, _), .injectEach(let selection, _), .reject(let selection):
        if let mistake = partMatchingNothing(of: selection, in: index) {
          unmatched.append(mistake)
          namedWrongly.insert(position)
        }
      case .rejectAll, .retract: break
      }
    }
    // Retractions come first (see `changesInCommitOrder`): each property they reach gets what the committed
    // rules decide without the retracted ones.
    let retracted = Set(
      changes.compactMap { change -> PropertySelection.StructuralKey? in
        guard case .retract(let selection) = change else { return nil }
        return selection.structuralKey
      })
    for (position, change) in changes.enumerated() {
      intent = rules.intents[order?[position] ?? position]
      switch change {
      case .inject(let selection, let injection):
        let matches = index.matches(selection)
        if matches.isEmpty && !namedWrongly.contains(position) { noteUnmatched(selection) }
        // One fitted injection per view the rule reaches: the instances it reaches share it. (A rule
        // that selects one property, the usual case, needs no table.)
        var fittedByView: [PropertyDescriptor: AnyPropertyInjection] = [:]
        for property in matches {
          let level = selection.level(for: property)
          let reached = property.view(atDepth: level)
          let fitted: AnyPropertyInjection
          if matches.count == 1 {
            fitted = try checked(injection, for: property, selection: selection)
          } else {
            fitted = try fittedByView[reached] ?? checked(injection, for: property, selection: selection)
            fittedByView[reached] = fitted
          }
          set(property, fitted, level: level, counted: true)
        }
      case .injectEach(let selection, let builder):
        let matches = index.matches(selection)
        if matches.isEmpty && !namedWrongly.contains(position) { noteUnmatched(selection) }
        // The builder runs once per view the rule reaches (the declared property for most rules).
        var builtByView: [PropertyDescriptor: AnyPropertyInjection?] = [:]
        // Every property the builder refuses, so that one error names them all, not one per attempt.
        var refusals: [(property: String, reason: String)] = []
        for property in matches {
          let level = selection.level(for: property)
          let reached = property.view(atDepth: level)
          let built: AnyPropertyInjection?
          if let known = builtByView[reached] {
            built = known
          } else {
            do {
              built = try builder(reached).map { try checked($0, for: property, selection: selection) }
            } catch InjectionError.rejected(let refused, let reason) {
              if !refusals.contains(where: { $0.property == refused }) { refusals.append((refused, reason)) }
              continue
            }
            builtByView[reached] = .some(built)
          }
          guard let built else { continue }
          set(property, built, level: level, counted: true)
        }
        if let first = refusals.first {
          let others = refusals.dropFirst().map { "  \($0.property): \($0.reason)" }
          throw InjectionError.rejected(
            property: first.property,
            reason: others.isEmpty
              ? first.reason : first.reason + "\nThe same rule also refused:\n" + others.joined(separator: "\n"))
        }
      case .retract(let selection):
        // What the committed rules decide without the retracted ones (no batch change precedes it).
        for property in index.matches(selection) {
          let decided: (injection: AnyPropertyInjection?, level: Int)
          if let scope {
            decided = scope.retractedDecision(for: property, excluding: retracted, log: log)
          } else {
            let found = log.decisionAndLevel(for: property, excluding: retracted)
            decided = (found?.decision ?? nil, found?.level ?? 0)
          }
          // A rule that was not there (or decided nothing here) leaves the property as it is — the same
          // injection, or the same rule's injection for `T` wrapped again for a `T?` property (found by
          // review H73: a plan listed such a property as changed).
          let now = current(property)
          let same =
            decided.injection === now
            || (decided.injection?.unwrappedSource.map { $0 === now?.unwrappedSource } ?? false)
          if same && decided.level == currentLevel(property) { continue }
          set(property, decided.injection, level: decided.level, counted: false)
        }
      case .reject(let selection):
        let matches = index.matches(selection)
        if matches.isEmpty && !namedWrongly.contains(position) { noteUnmatched(selection) }
        for property in matches {
          let level = selection.level(for: property)
          if selection.rejectionDecides(atLevel: level) {
            set(property, nil, level: level, counted: true)
          } else {
            // Naming a subclass removes its own injections: the shallower class's shows through.
            let parent = property.view(atDepth: level - 1)
            set(property, current(parent), level: currentLevel(parent), counted: false)
          }
        }
      case .rejectAll(let plugin):
        for property in index.properties(of: plugin) { set(property, nil, counted: false) }
      }
    }

    // A subclass view is an entry of its own when it has (or had) an injection of its own; otherwise it
    // only follows its declaring class (or a shallower view), and is installed without being listed.
    let listed = touched.filter { property in
      !property.isSubclassView || planned[property]?.level == property.viewDepth
        || committedLevel(property) == property.viewDepth
    }
    // Sorted by the plan when first read (see `InjectionPlan.entries`).
    let entries = listed.map { property in
      InjectionPlan.Entry(
        property: property, injection: planned[property]?.injection ?? nil,
        replacesInjection: committed(property) != nil, ruleCount: planned[property]?.ruleCount ?? 0)
    }
    // A property's state is needed only to list the empty ones (dry runs, validated commits); the
    // filter runs first, as finding the committed state of a property without a slot walks the log.
    // Views are listed when a check asked for them (a scope class's), or when a rule naming their class
    // left them empty on their own (`InjectionRules.turnOff(_:)`) while the property they follow may be
    // injected; any other view is empty exactly when that property is, which is listed already.
    let empty: [PropertyDescriptor] =
      isListed.map { isListed in
        let listedSet = Set(listedViews)
        let ownViews = index.views.filter { !listedSet.contains($0) && currentLevel($0) == $0.viewDepth }
        return PropertyDescriptor.sortedByDescription(
          (properties + listedViews + ownViews).filter { property in
            // A setter alone leaves reads plain: a read gets nothing from it (found by review H67).
            isListed(property) && current(property).map(\.leavesReadsPlain) ?? true
          })
      } ?? []
    var emptyGeneric: [GenericPropertyDeclaration] = []
    var perSpecialization: [GenericPropertyDeclaration] = []
    if isListed != nil {
      for declaration in PropertyCatalog.shared.genericDeclarations() {
        switch decide(declaration, changes: changes, log: log, scope: scope) {
        case .injected: break
        case .empty: emptyGeneric.append(declaration)
        case .perSpecialization: perSpecialization.append(declaration)
        }
      }
    }
    var plan = InjectionPlan(
      entries: entries, unmatchedSelections: unmatched, emptyProperties: empty,
      emptyGenericProperties: emptyGeneric, genericPropertiesCheckedPerSpecialization: perSpecialization,
      catalogPasses: log.refreshCount)
    plan.installs = touched.map { property in
      let ownBefore = committedLevel(property) == property.viewDepth
      let ownAfter = (planned[property]?.level ?? 0) == property.viewDepth
      return (property, planned[property]?.injection ?? nil, !property.isSubclassView || (ownBefore && ownAfter))
    }
    return plan
  }

  /// What a generic class's marked property gets from the batch and the committed rules, decided before
  /// any specialization exists.
  enum GenericDecision {
    case injected, empty, perSpecialization
  }

  /// The newest rule that selects `declaration` decides: a rule by type, name and plugin alone can be
  /// judged without a specialization; one that names classes or filters cannot.
  private static func decide(
    _ declaration: GenericPropertyDeclaration, changes: [InjectionRules.Change], log: RuleLog,
    scope: InjectionScope?
  ) -> GenericDecision {
    guard let valueType = declaration.valueType, let plugin = declaration.plugin else { return .perSpecialization }
    func decide(_ selection: PropertySelection, injectionType: Any.Type?, rejects: Bool) -> GenericDecision? {
      guard selection.plugin == plugin else { return nil }
      if let selected = selection.selectedValueType, !selection.isSelectedType(valueType, selected) { return nil }
      if let injectionType, !selection.isSelectedType(valueType, injectionType) { return nil }
      if !selection.namedProperties.isEmpty, !selection.namedProperties.contains(declaration.name) { return nil }
      if !selection.namedClasses.isEmpty, !declaration.mayBeSelected(byClassesNamed: selection.namedClasses) {
        return nil
      }
      if !selection.namedClasses.isEmpty || selection.isFiltered { return .perSpecialization }
      return rejects ? .empty : .injected
    }
    var retracted: Set<PropertySelection.StructuralKey> = []
    for change in changes.reversed() {
      let decision: GenericDecision?
      switch change {
      case .inject(let selection, let injection):
        decision = decide(selection, injectionType: injection.valueType, rejects: injection.leavesReadsPlain)
      case .injectEach(let selection, _): decision = decide(selection, injectionType: nil, rejects: false)
      case .reject(let selection): decision = decide(selection, injectionType: nil, rejects: true)
      case .retract(let selection):
        // Retractions apply first: they decide nothing, and the committed rule is passed over.
        retracted.insert(selection.structuralKey)
        decision = nil
      case .rejectAll(let rejected): decision = rejected == plugin ? .empty : nil
      }
      if let decision { return decision }
    }
    // Inside an override scope, its rules (and its enclosing scopes') come before the process's; a scope's
    // retraction of a rule it does not hold masks the process's (see `InjectionScope.record(_:log:)`).
    if let scope {
      if let decided = scope.newestDecision(excluding: retracted, { decide($0, injectionType: $1, rejects: $2) }) {
        return decided
      }
    }
    return log.newestDecision(excluding: retracted) { selection, injectionType, rejects in
      decide(selection, injectionType: injectionType, rejects: rejects)
    } ?? .empty
  }

  /// A selection that names several property names or several classes must select something through each
  /// of them: a name or a class that selects nothing is a typo or a wrong class, listed as a mistake (a
  /// commit throws it as ``InjectionError/selectionMatchesNothing(selection:nearMisses:)``, with the near
  /// misses of that part alone) even when the others matched. `nil` when every part selects something, or
  /// when the selection has one name and one class at most (matching nothing then is the whole
  /// selection's mistake), or may match later.
  private static func partMatchingNothing(of selection: PropertySelection, in index: PropertyIndex)
    -> InjectionPlan.UnmatchedSelection?
  {
    guard selection.mustMatch else { return nil }
    /// The mistake of `part`, with its near misses other than what the whole selection matches.
    func mistake(_ part: PropertySelection, _ note: String) -> InjectionPlan.UnmatchedSelection {
      InjectionPlan.UnmatchedSelection(
        selection: "\(selection) (\(note))",
        nearMisses: NearMisses.find(for: part, in: index, excluding: Set(index.matches(selection))), isMistake: true)
    }
    if selection.namedProperties.count > 1 {
      for name in selection.namedProperties.sorted() {
        let part = selection.narrowed(toName: name)
        guard index.matches(part).isEmpty, !namesAGenericClassField(part, in: index) else { continue }
        return mistake(part, "the name \(name) selects nothing")
      }
    }
    if selection.namedClasses.count > 1 {
      for cls in selection.namedClasses {
        let part = selection.narrowed(toClass: cls)
        guard index.matches(part).isEmpty else { continue }
        return mistake(part, "nothing selected in \(Injection.typeName(cls))")
      }
    }
    return nil
  }

  /// For a selection naming classes and a property name that none of them has (declared or inherited,
  /// whatever its type), what to add to its description: ` (no property named x in Module.Owner)`.
  private static func nameMissingFromClasses(of selection: PropertySelection, in index: PropertyIndex) -> String? {
    let classes = selection.namedClasses
    guard !classes.isEmpty else { return nil }
    for name in selection.namedProperties.sorted() {
      if !isKnown(name, in: classes, of: selection.plugin, in: index) {
        let shown = name.isEmpty ? "\"\"" : name
        return " (no property named \(shown) in \(classes.map { Injection.typeName($0) }.joined(separator: ", ")))"
      }
    }
    return nil
  }

  /// Whether one of `classes` has a property of `plugin` named `name` (declared in it or below it, or
  /// inherited), whatever its type.
  /// With `countingGenericDeclarations` false, the specializations of associated declarations nested in
  /// generic types do not count (another specialization has the name with another type).
  private static func isKnown(
    _ name: String, in classes: [AnyClass], of plugin: PluginID, in index: PropertyIndex,
    countingGenericDeclarations: Bool = true
  ) -> Bool {
    func counts(_ property: PropertyDescriptor) -> Bool {
      property.name == name && property.plugin == plugin
        && (countingGenericDeclarations || !isSpecializedGenericDeclaration(property))
    }
    // The named classes' own (usually short) lists answer first; only an inherited property needs the
    // list of every property with that name.
    return classes.contains { named in index.properties(declaredInOrBelow: named).contains(where: counts) }
      || index.properties(of: plugin, named: name).contains { property in
        counts(property)
          && classes.contains {
            isSubclass(property.declaringClass, of: $0) || isSubclass($0, of: property.declaringClass)
          }
      }
  }

  /// Whether a selection by property names alone names a marked field of a generic class, or one naming
  /// classes names an associated declaration nested in a generic type that those classes do not have:
  /// their specializations are cataloged when used (naming a class's specialization catalogs its own
  /// fields, not the declarations nested in some generic type), so matching nothing now is expected. (A
  /// name one of the classes has, of another type, is a mistake.)
  private static func namesAGenericClassField(_ selection: PropertySelection, in index: PropertyIndex) -> Bool {
    guard !selection.namedProperties.isEmpty else { return false }
    guard !selection.namedClasses.isEmpty else {
      let genericNames = PropertyCatalog.shared.genericMarkedFieldNames()
      return selection.namedProperties.contains { genericNames.contains($0) }
    }
    let declarationNames = PropertyCatalog.shared.genericAssociatedDeclarationNames()
    return selection.namedProperties.contains { name in
      declarationNames.contains(name)
        && !isKnown(
          name, in: selection.namedClasses, of: selection.plugin, in: index, countingGenericDeclarations: false)
    }
  }

  /// Whether `selection`, narrowed by predicates alone, matches nothing for good: no specialization of a
  /// generic class used later can bring a property of its plugin and type (a typo in a `filter`, or a
  /// filter over properties that do not exist).
  private static func predicatesAloneMeantNothing(_ selection: PropertySelection) -> Bool {
    guard selection.isNarrowedByPredicatesAlone else { return false }
    let selected = selection.selectedValueType
    return !PropertyCatalog.shared.specializationsMayBring(plugin: selection.plugin) { type in
      selected.map { selection.isSelectedType(type, $0) } ?? true
    }
  }

  /// Whether `property` is an associated property declared by a class nested in a generic type (one
  /// specialization of the declaration; others are cataloged when used).
  private static func isSpecializedGenericDeclaration(_ property: PropertyDescriptor) -> Bool {
    guard let declaration = PropertyCatalog.associatedDeclaration(of: property) else { return false }
    return ContextDescriptor(of: declaration)?.isGeneric == true
  }

  /// `injection` fitted to `property` (see ``fitted(_:to:selection:)``); otherwise the typed mismatch error.
  private static func checked(
    _ injection: AnyPropertyInjection, for property: PropertyDescriptor, selection: PropertySelection
  ) throws -> AnyPropertyInjection {
    guard let fitted = fitted(injection, to: property, selection: selection) else {
      if MetadataAccess.optionalWrappedType(property.valueType) != injection.valueType,
        Injection.isConvertible(injection.valueType, to: property.valueType) == true
      {
        // A subclass for its class, a conforming type for an existential: the values fit, the injection's
        // type does not (a getter or a factory of the wrong type cannot be converted after the fact).
        throw InjectionError.rejected(
          property: property.description,
          reason: "a value of \(Injection.sourceSpelling(of: injection.valueType)) fits it, but an injection gives "
            + "values of the property's own type: inject \(Injection.metatypeExpression(of: property.valueType)) "
            + "(with InjectPlugin's inject(valueOf:anyTypeIn:), valueOf: "
            + "\(Injection.metatypeExpression(of: property.valueType))); the value converts where it is passed")
      }
      throw InjectionError.typeMismatch(
        property: property.description, expected: property.valueTypeName,
        given: Injection.typeName(injection.valueType))
    }
    return fitted
  }

  /// `injection` if its value type is `property`'s; wrapped in an optional when the property is declared
  /// `T?`, the injection is for `T` and the selection includes optionals; otherwise `nil`.
  static func fitted(_ injection: AnyPropertyInjection, to property: PropertyDescriptor, selection: PropertySelection)
    -> AnyPropertyInjection?
  {
    if injection.valueType == property.valueType { return injection }
    guard selection.includesOptionals, MetadataAccess.optionalWrappedType(property.valueType) == injection.valueType
    else { return nil }
    return injection.wrappedInOptional()
  }
}

/// What a batch plans for one property so far: its injection (`nil`: rejected), the level of the rule
/// that decided it (see ``PropertySelection/level(for:)``) and how many of the batch's rules counted.
private struct PlannedProperty {
  var injection: AnyPropertyInjection?
  var level = 0
  var ruleCount = 0
}
