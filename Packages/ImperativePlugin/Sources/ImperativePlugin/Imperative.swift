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
  /// with ``InjectionRules/checkCompleteness(in:)`` or ``InjectionRules/checkCompleteness(inModules:)``)
  /// must have an injection; otherwise this throws ``InjectionError/missingInjections(_:)`` listing each
  /// one as `Module.Owner.property: Type (Plugin)`, sorted, and applies nothing.
  /// ``InjectionRules/skipChecks()`` turns the check off. If the block throws, nothing is applied.
  @discardableResult
  public static func imperative(_ block: (InjectionRules) throws -> Void) throws -> InjectionPlan {
    let rules = InjectionRules()
    try block(rules)
    let scope = rules[CompletenessScope.self]
    // Only the properties the check looks at are listed as empty: finding the state of the others
    // would grow with every marked property loaded in the process.
    return try commit(rules, listingEmptyWhere: scope.membership()) { plan in
      let missing = scope.missing(in: plan)
      if !missing.isEmpty { throw InjectionError.missingInjections(missing) }
    }
  }

  /// Runs the block and returns the plan — which property gets which injection, which selections
  /// matched nothing, which marked properties stay empty — without applying anything. Print it for a
  /// table. The completeness check is not applied; ``InjectionPlan/emptyProperties`` shows its input.
  public static func imperativeDryRun(_ block: (InjectionRules) throws -> Void) throws -> InjectionPlan {
    let rules = InjectionRules()
    try block(rules)
    return try plan(rules)
  }
}

extension InjectionRules {
  /// Turns the imperative block's completeness check off for this block.
  public func skipChecks() {
    self[CompletenessScope.self].isEnabled = false
  }

  /// Limits the completeness check to properties declared by `classes` or their subclasses.
  public func checkCompleteness(in classes: AnyClass...) {
    checkCompleteness(in: classes)
  }

  /// Limits the completeness check to properties declared by `classes` or their subclasses.
  public func checkCompleteness(in classes: [AnyClass]) {
    self[CompletenessScope.self].classes += classes
  }

  /// Limits the completeness check to properties of classes declared in these modules.
  public func checkCompleteness(inModules modules: String...) {
    self[CompletenessScope.self].modules += modules
  }
}

/// Which marked properties an imperative block must leave injected.
struct CompletenessScope: RuleOptionKey {
  static var defaultValue: CompletenessScope { CompletenessScope() }

  var isEnabled = true
  var classes: [AnyClass] = []
  var modules: [String] = []

  /// Whether the check looks at a property: declared in a scope class, a superclass of one (inherited
  /// by it) or a subclass of one, or in a scope module. Class identities are collected once.
  func membership() -> @Sendable (PropertyDescriptor) -> Bool {
    guard isEnabled else { return { _ in false } }
    if classes.isEmpty && modules.isEmpty { return { _ in true } }
    let scopeClasses = Set(classes.map(ObjectIdentifier.init))
    let inheritedFrom = Set(classes.flatMap(Self.lineage).map(ObjectIdentifier.init))
    let modulePrefixes = modules.map { $0 + "." }
    return { property in
      inheritedFrom.contains(ObjectIdentifier(property.declaringClass))
        || Self.lineage(of: property.declaringClass).contains { scopeClasses.contains(ObjectIdentifier($0)) }
        || modulePrefixes.contains { property.className.hasPrefix($0) }
    }
  }

  /// `cls` and its superclasses.
  private static func lineage(of cls: AnyClass) -> [AnyClass] {
    Array(sequence(first: cls, next: { _getSuperclass($0) }))
  }

  /// `Module.Owner.property: Type (Plugin)` for each property in scope left without an injection, sorted
  /// (the plan of a block lists only the empty properties in scope, see ``membership()``).
  func missing(in plan: InjectionPlan) -> [String] {
    guard isEnabled else { return [] }
    return plan.emptyProperties.map { "\($0) (\($0.plugin?.name ?? "unmarked"))" }.sorted()
  }
}
