public import InjectionKernel

extension Injection {
  /// DeluxeInjection's `[DeluxeInjection imperative:^(DIImperative *lets){ … }]`: one block, every
  /// installed plugin's verbs, one catalog pass, one atomic commit.
  ///
  /// ```swift
  /// try Injection.imperative { lets in
  ///   try lets.inject(Settings.self).value(settings)
  ///   lets.injectLazy()
  /// }
  /// ```
  ///
  /// After the block, every marked property in scope (all of them unless the block narrows the scope
  /// with `InjectionRules/checkCompleteness(in:)` or ``InjectionRules/checkCompleteness(inModules:)``)
  /// that would stop a read must have an injection; otherwise this throws
  /// `InjectionError/missingInjections(_:)` listing each one as `Module.Owner.property: Type (Plugin)`,
  /// sorted, and applies nothing. Optional properties read `nil` and are not missing (a dry run lists them
  /// as information). Marked properties of generic classes whose type does not depend on the generic
  /// parameters are checked before any specialization exists. ``InjectionRules/skipChecks()`` turns the
  /// check off. If the block throws, or one of its selections names a class or a property name and
  /// matches nothing (`InjectionError/selectionMatchesNothing(selection:nearMisses:)`), nothing is applied;
  /// the same error, for a scope that names a module or a class without marked properties (a check of
  /// nothing would pass whatever the block forgot).
  @discardableResult
  public static func imperative(_ block: (InjectionRules) throws -> Void) throws -> InjectionPlan {
    let rules = InjectionRules()
    try rules.recording(block)
    // A scope that names nothing is a mistake found before the commit (before the block's selections).
    let scope = rules[CompletenessScope.self]
    if let mistake = scope.partsMatchingNothing().first { throw mistake }
    rules[CompletenessScope.self].isScopeChecked = true
    rules.checkCompletenessAtCommit()
    return try commit(rules)
  }

  /// Runs the block and the same check as ``imperative(_:)`` without applying anything, and returns the
  /// findings instead of throwing: which property gets which injection, which selections matched nothing
  /// (with their near misses), which properties in the block's scope would be missing, and which are empty
  /// but optional. Print it for a table.
  public static func imperativeDryRun(_ block: (InjectionRules) throws -> Void) throws -> ImperativeDryRun {
    let rules = InjectionRules()
    try rules.recording(block)
    let scope = rules[CompletenessScope.self]
    let plan = try plan(rules, listingEmptyWhere: scope.membership())
    rules.markEnded()  // the block's lets, kept, would record rules that apply nowhere
    return ImperativeDryRun(
      plan: plan, findings: CompletenessFindings(plan: plan, scope: scope),
      scopeMatchingNothing: scope.partsMatchingNothing())
  }
}

/// What an imperative block would do and what its check would find, without anything applied.
public struct ImperativeDryRun: CustomStringConvertible, Sendable {
  /// The plan: entries, unmatched selections, and the empty properties of the block's scope.
  public let plan: InjectionPlan
  /// The properties in scope that would stay without an injection and stop a read, as
  /// `Module.Owner.property: Type (Plugin)`: what `Injection/imperative(_:)` would throw for.
  public let missing: [String]
  /// Optional properties in scope left empty: reads return `nil`, so they are not missing (information).
  public let emptyOptionals: [String]
  /// Marked properties of generic classes in scope that are checked per specialization, once one is used.
  public let checkedPerSpecialization: [String]
  /// The parts of the block's completeness scope that name no marked property — a mistyped module, a
  /// class with no marked property of its own, inherited or in a subclass — each as the
  /// `InjectionError/selectionMatchesNothing(selection:nearMisses:)` that `Injection/imperative(_:)`
  /// throws for the first: a check of nothing would pass whatever the block forgot.
  public let scopeMatchingNothing: [InjectionError]

  init(plan: InjectionPlan, findings: CompletenessFindings, scopeMatchingNothing: [InjectionError]) {
    self.plan = plan
    missing = findings.missing
    emptyOptionals = findings.emptyOptionals
    checkedPerSpecialization = findings.checkedPerSpecialization
    self.scopeMatchingNothing = scopeMatchingNothing
  }

  /// What committing the block would throw, if anything: a completeness scope that matches nothing,
  /// else a selection that matches nothing, else the missing injections. Work run after a commit (an
  /// eager singleton's factory) is not run by a dry run, so its `BatchAppliedError` cannot be foreseen.
  public var error: InjectionError? {
    if let mistake = scopeMatchingNothing.first { return mistake }
    if let mistake = plan.unmatchedSelections.first(where: \.isMistake) { return mistake.error }
    return missing.isEmpty ? nil : .missingInjections(missing)
  }

  /// One line per property and injection, then the selections that matched nothing, then the findings.
  public var description: String {
    var lines = plan.entries.isEmpty ? ["no property changes"] : []
    for entry in plan.entries {
      let action = entry.injection.map { "inject \($0.summary)" } ?? "reject"
      var notes: [String] = []
      if entry.replacesInjection { notes.append("replaces an injection") }
      if entry.ruleCount > 1 { notes.append("selected by \(entry.ruleCount) rules, last wins") }
      lines.append(
        "\(entry.property)  <-  \(action)" + (notes.isEmpty ? "" : "  (" + notes.joined(separator: "; ") + ")"))
    }
    for mistake in scopeMatchingNothing { lines.append("scope matches nothing: \(mistake)") }
    for unmatched in plan.unmatchedSelections { lines.append("matched nothing: \(unmatched)") }
    for property in missing { lines.append("missing: \(property)") }
    for property in emptyOptionals { lines.append("empty, reads nil (information): \(property)") }
    for property in checkedPerSpecialization { lines.append("checked per specialization: \(property)") }
    return lines.joined(separator: "\n")
  }
}

extension InjectionRules {
  /// Turns this batch's completeness check off: the one every imperative block runs, and one asked for
  /// with `checkCompleteness`. A completeness scope that names a module or a class without marked
  /// properties still throws `InjectionError/selectionMatchesNothing(selection:nearMisses:)`: it is a typo
  /// whatever the check.
  public func skipChecks() {
    self[CompletenessScope.self].isEnabled = false
  }

  /// Limits the completeness check to properties declared by `classes` or their subclasses, and those
  /// `classes` inherit — judged as the classes' instances read them: a rule naming the class
  /// (`declared(in: Sub.self)`) covers an inherited property, which a missing one names as
  /// `Module.Sub.property: Type (inherited from Module.Base)`; the superclass's own instances are not in
  /// scope. A class with none of these makes the commit throw
  /// `InjectionError/selectionMatchesNothing(selection:nearMisses:)`.
  ///
  /// An imperative block always checks (every marked property, unless the block narrows it so). Any
  /// other batch that calls it is checked too, wherever it commits — `Injection.commit`, an override
  /// scope's or a test trait's rules, a child injector's, a module's `configure` — and its commit throws
  /// `InjectionError/missingInjections(_:)` and applies nothing when a property in scope would stop a
  /// read.
  public func checkCompleteness(in classes: AnyClass...) {
    checkCompleteness(in: classes)
  }

  /// ``checkCompleteness(in:)-(AnyClass...)`` with the classes as an array.
  public func checkCompleteness(in classes: [AnyClass]) {
    self[CompletenessScope.self].classes += classes
    // Cataloged now (generic specializations are cataloged on request), so that the plan lists them.
    CompletenessScope(classes: classes).catalogScopeClasses()
    // A class's inherited properties are checked as its instances read them: through its own view.
    listInheritedProperties(of: classes)
    checkCompletenessAtCommit()
  }

  /// Limits the completeness check to properties of classes declared in these modules. A module without
  /// marked properties (a typo, say) makes the commit throw
  /// `InjectionError/selectionMatchesNothing(selection:nearMisses:)`, with the modules of similar names.
  ///
  /// The properties checked are those the modules' classes declare: a class of the module that inherits
  /// marked properties from a class of another module is not looked at (the catalog knows classes by
  /// their marked fields). Name such a class with ``checkCompleteness(in:)-(AnyClass...)`` too.
  /// Like ``checkCompleteness(in:)-(AnyClass...)``, it makes any batch checked.
  public func checkCompleteness(inModules modules: String...) {
    self[CompletenessScope.self].modules += modules
    checkCompletenessAtCommit()
  }

  /// Adds the completeness check to the checks the batch's commit runs (once), over the scope the batch
  /// has when it commits.
  func checkCompletenessAtCommit() {
    guard !self[CompletenessScope.self].isCheckAdded else { return }
    self[CompletenessScope.self].isCheckAdded = true
    // `unowned`: the batch holds the check, which runs only while the batch is being committed.
    let listing: () -> ((PropertyDescriptor) -> Bool)? = { [unowned self] in
      // Only the properties the check looks at are listed as empty: finding the state of the others
      // would grow with every marked property loaded in the process.
      let scope = self[CompletenessScope.self]
      guard scope.isEnabled else { return nil }
      return scope.membership()
    }
    let check: (InjectionPlan) throws -> Void = { [unowned self] plan in
      let scope = self[CompletenessScope.self]
      if !scope.isScopeChecked, let mistake = scope.partsMatchingNothing().first { throw mistake }
      guard scope.isEnabled else { return }
      let missing = CompletenessFindings(plan: plan, scope: scope).missing
      if !missing.isEmpty { throw InjectionError.missingInjections(missing) }
    }
    validate(listingEmpty: listing, check)
  }
}

/// Which marked properties an imperative block must leave injected.
struct CompletenessScope: RuleOptionKey {
  static var defaultValue: CompletenessScope { CompletenessScope() }

  var isEnabled = true
  var classes: [AnyClass] = []
  var modules: [String] = []
  /// Whether the batch's commit runs the check (``InjectionRules/checkCompletenessAtCommit()``).
  var isCheckAdded = false
  /// Whether ``partsMatchingNothing()`` was checked before the commit (an imperative block checks it first).
  var isScopeChecked = false

  /// Catalogs the scope classes and their superclasses (generic specializations are cataloged on
  /// request), so that their properties are checked.
  func catalogScopeClasses() {
    for cls in classes {
      for ancestor in Self.lineage(of: cls) { _ = Injection.declaredProperties(of: ancestor) }
    }
  }

  /// Whether the check looks at a generic class's declaration before any specialization: when the
  /// scope is every property, names the class's module, or names a superclass of every specialization
  /// (a scope class covers its subclasses; a generic scope class's own specializations are checked as
  /// the scope names them, cataloged).
  func includes(_ declaration: GenericPropertyDeclaration) -> Bool {
    guard isEnabled else { return false }
    if classes.isEmpty && modules.isEmpty { return true }
    return modules.contains { declaration.className.hasPrefix($0 + ".") }
      || classes.contains { declaration.declaringClassInherits(from: $0) }
  }

  /// Whether the check looks at a property: declared in a scope class or a subclass of one, or in a scope
  /// module; a property a scope class inherits is looked at through the class's own view (what its
  /// instances read: a rule naming the class injects the view alone), which the plan lists for the scope
  /// classes (``InjectionRules/listInheritedProperties(of:)``). Class identities are collected once.
  ///
  /// Every scope also looks at the views of its classes (of its modules' classes, of every class) that a
  /// rule naming their class decides for on its own — one turning a plugin off for a subclass
  /// (`InjectionRules/turnOff(_:)`) leaves the view empty while the declaring class's property is
  /// injected; ``CompletenessFindings`` drops a view whose declared property is listed already.
  func membership() -> @Sendable (PropertyDescriptor) -> Bool {
    guard isEnabled else { return { _ in false } }
    if classes.isEmpty && modules.isEmpty { return { _ in true } }
    let scopeClasses = Set(classes.map(ObjectIdentifier.init))
    let modulePrefixes = modules.map { $0 + "." }
    let declaredInScope = declaredInScope()
    return { property in
      guard property.isSubclassView else { return declaredInScope(property) }
      // A view of a scope class, or of one of its subclasses (a class in scope covers its subclasses).
      if !scopeClasses.isEmpty,
        Self.lineage(of: property.viewingClass).contains(where: { scopeClasses.contains(ObjectIdentifier($0)) })
      {
        return true
      }
      guard !modulePrefixes.isEmpty else { return false }
      let viewingClass = Injection.typeName(property.viewingClass)
      return modulePrefixes.contains { viewingClass.hasPrefix($0) }
    }
  }

  /// Whether a scope class or module reaches a declared property at all: declared in a scope class, a
  /// superclass of one (inherited by it) or a subclass of one, or in a scope module (see
  /// ``partsMatchingNothing()``).
  private func reaches() -> @Sendable (PropertyDescriptor) -> Bool {
    let inheritedFrom = Set(classes.flatMap(Self.lineage).map(ObjectIdentifier.init))
    let declaredInScope = declaredInScope()
    return { property in
      inheritedFrom.contains(ObjectIdentifier(property.declaringClass)) || declaredInScope(property)
    }
  }

  /// Whether a declared property is declared in a scope class or a subclass of one, or in a scope module.
  private func declaredInScope() -> @Sendable (PropertyDescriptor) -> Bool {
    let scopeClasses = Set(classes.map(ObjectIdentifier.init))
    let modulePrefixes = modules.map { $0 + "." }
    return { property in
      // (A scope of modules alone walks no class's lineage: the check runs for every indexed property.)
      (!scopeClasses.isEmpty
        && Self.lineage(of: property.declaringClass).contains { scopeClasses.contains(ObjectIdentifier($0)) })
        || modulePrefixes.contains { property.className.hasPrefix($0) }
    }
  }

  /// The scope's classes and modules that name no marked property (``reaches()`` for each alone; for a
  /// module, its generic classes count too), as the errors to throw. Near misses of
  /// a module are the modules with marked properties whose names are close.
  func partsMatchingNothing() -> [InjectionError] {
    // Also with `skipChecks()`: a scope that names nothing is a typo whatever the check (found by review
    // H85: a setup's `skipChecks()` hid a test's misspelt module).
    guard !classes.isEmpty || !modules.isEmpty else { return [] }
    let properties = Injection.markedProperties()
    let genericClasses = Injection.genericClassesWithMarkedProperties
    var mistakes: [InjectionError] = []
    for cls in classes where !properties.contains(where: CompletenessScope(classes: [cls]).reaches()) {
      mistakes.append(
        .selectionMatchesNothing(
          selection: "the completeness scope's class \(Injection.typeName(cls)) (it declares, inherits and "
            + "passes on no marked property)", nearMisses: []))
    }
    for module in modules
    where !properties.contains(where: CompletenessScope(modules: [module]).reaches())
      && !genericClasses.contains(where: { $0.hasPrefix(module + ".") })
    {
      let modulesWithMarked = Set(
        (properties.map(\.className) + genericClasses).map { String($0.prefix { $0 != "." }) })
      mistakes.append(
        .selectionMatchesNothing(
          selection: "the completeness scope's module \"\(module)\" (a module scope sees the marked properties its "
            + "classes declare; name a class that only inherits them with checkCompleteness(in:))",
          nearMisses: modulesWithMarked.filter { Injection.isNearMiss(module, of: $0) }.sorted()
            .map { "module \"\($0)\" has marked properties: select checkCompleteness(inModules: \"\($0)\")" }))
    }
    return mistakes
  }

  /// `cls` and its superclasses.
  private static func lineage(of cls: AnyClass) -> [AnyClass] {
    Array(sequence(first: cls, next: { _getSuperclass($0) }))
  }

}

/// What the completeness check finds in a plan whose empty properties are those of its scope.
struct CompletenessFindings {
  /// `Module.Owner.property: Type (Plugin)` for each property in scope that would stop a read, sorted.
  let missing: [String]
  /// The optional properties in scope left empty (they read `nil`), sorted.
  let emptyOptionals: [String]
  /// Generic classes' properties in scope checked per specialization, sorted.
  let checkedPerSpecialization: [String]

  init(plan: InjectionPlan, scope: CompletenessScope) {
    guard scope.isEnabled else {
      (missing, emptyOptionals, checkedPerSpecialization) = ([], [], [])
      return
    }
    func line(_ text: String, _ plugin: PluginID?) -> String { "\(text) (\(plugin?.name ?? "unmarked"))" }
    let generic = plan.emptyGenericProperties.filter(scope.includes)
    // The plan may list more (another check's scope): only the scope's own count. A view whose declared
    // property is listed too says the same thing again.
    let inScope = plan.emptyProperties.filter(scope.membership())
    let emptyDeclared = Set(inScope.filter { !$0.isSubclassView })
    let empty = inScope.filter { !$0.isSubclassView || !emptyDeclared.contains($0.declared) }
    // A property whose marker always gives it a value of its own (`@Defaults`) never stops a read.
    let stopping = empty.filter { !$0.isOptional && $0.markerType?.propertiesAlwaysHoldAValue != true }
    missing =
      (stopping.map { line($0.description, $0.plugin) }
      + generic.filter { !$0.isOptional }.map { line($0.description, $0.plugin) }).sorted()
    emptyOptionals =
      (empty.filter(\.isOptional).map { line($0.description, $0.plugin) }
      + generic.filter(\.isOptional).map { line($0.description, $0.plugin) }).sorted()
    checkedPerSpecialization = plan.genericPropertiesCheckedPerSpecialization.filter(scope.includes)
      .map { line($0.description, $0.plugin) }.sorted()
  }
}
