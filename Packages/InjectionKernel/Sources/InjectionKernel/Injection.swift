internal import InjectionReadSections
import Synchronization

/// The kernel's entry points: commit batches of rules, query the catalog, and inspect what is injected.
///
/// Plugins add their own verbs to this namespace and to ``InjectionRules`` in extensions
/// (`Injection.inject(Settings.self)…`, `Injection.injectLazy()`).
public enum Injection {
  /// How many runs of a ``withConsistentReads(_:)`` body in a row may each meet a commit before it stops.
  static let consistentReadsRunLimit = 10_000

  /// Odd while a commit installs its injections; see ``withConsistentReads(_:)``.
  static let configurationVersion = Atomic<UInt>(0)

  // MARK: Committing

  /// Applies a batch atomically and returns what it did. A type mismatch anywhere throws
  /// ``InjectionError/typeMismatch(property:expected:given:)`` and applies nothing; so does a selection
  /// that names a class or a property name and matches nothing
  /// (``InjectionError/selectionMatchesNothing(selection:nearMisses:)``, with the near misses), unless it
  /// says it ``PropertySelection/mayMatchLater()``.
  @discardableResult
  public static func commit(_ rules: InjectionRules) throws -> InjectionPlan {
    try commit(rules, listingEmpty: nil, validate: { _ in })
  }

  /// Applies a batch atomically after `validate` accepted its plan (throwing from `validate` applies
  /// nothing). Entry points such as the imperative block use this for their own checks.
  ///
  /// The plan's ``InjectionPlan/emptyProperties`` lists the properties for which `listingEmptyWhere`
  /// returns `true` (every property by default); a check that looks at a few classes saves the work of
  /// finding the state of all the others, which grows with every marked property the process has loaded.
  @discardableResult
  public static func commit(
    _ rules: InjectionRules, listingEmptyWhere isListed: @escaping (PropertyDescriptor) -> Bool = { _ in true },
    validate: (InjectionPlan) throws -> Void
  ) throws -> InjectionPlan {
    try commit(rules, listingEmpty: isListed, validate: validate)
  }

  private static func commit(
    _ rules: InjectionRules, listingEmpty isListed: ((PropertyDescriptor) -> Bool)?,
    validate: (InjectionPlan) throws -> Void
  ) throws -> InjectionPlan {
    try InjectionRules.checkNotRecording()
    // Code the kernel runs while it commits (a filter, a builder, an onCommit action) committing in turn
    // would wait for the lock its own thread holds: a typed error at that call rather than the lock's stop.
    if RuleLog.shared.isHeldByCurrentThread {
      throw InjectionError.commitDuringCommit(
        running: PropertySelection.runningAppCode ?? "a filter, a builder, an onCommit action, or a deinit they cause")
    }
    // The batch's own checks (`InjectionRules.validate(listingEmpty:_:)`) run after the entry point's;
    // the plan lists the empty properties any of them needs.
    let checks = rules.validations
    var listing = isListed
    for check in checks {
      guard let needed = check.listingEmpty() else { continue }
      listing = listing.map { listed in { listed($0) || needed($0) } } ?? needed
    }
    let plan = try applying(rules, listingEmpty: listing) { plan in
      try validate(plan)
      for check in checks { try check.check(plan) }
    }
    rules.markEnded()  // applied: what is recorded on it from now on applies nowhere (a failed batch may be fixed)
    var firstError: (any Error)?
    for action in rules.afterCommitActions {
      do { try action() } catch { firstError = firstError ?? error }
    }
    if let firstError { throw BatchAppliedError(underlying: firstError, plan: plan) }
    return plan
  }

  private static func applying(
    _ rules: InjectionRules, listingEmpty isListed: ((PropertyDescriptor) -> Bool)?,
    validate: (InjectionPlan) throws -> Void
  ) throws -> InjectionPlan {
    if InjectionScope.anyActive || InjectionScope.entered != nil, let scope = InjectionScope.forChanges {
      // A task that outlived its scope: what it commits would apply nowhere (found by review H71). What a
      // scope's end runs in it (a module's `unload()` turning off its rules) is told so, and goes on.
      try InjectionRules.checkScopeNotEnded()
      return try commit(rules, in: scope, listingEmpty: isListed, validate: validate)
    }
    let (plan, retired, forgotten) = try RuleLog.shared.withCommitLock { log in
      let rules = rules.withChangesRecordedAtCommit()
      let plan = try makePlan(rules, log: log, listingEmpty: isListed)
      if let mistake = plan.unmatchedSelections.first(where: \.isMistake) { throw mistake.error }
      try validate(plan)
      let slots = plan.installs.map {
        SlotRegistry.shared.slotHoldingCommitLock(for: $0.property, log: log)
      }
      configurationVersion.add(1, ordering: .acquiringAndReleasing)
      let retired = zip(slots, plan.installs).map { slot, install in
        slot.install(install.injection, countingReplacement: install.countsReplacement)
      }
      for change in rules.changesInCommitOrder { log.record(change) }
      BuilderFailures.forgetAll()
      for action in rules.commitActions { action() }
      // After the plugins' actions too: the state they change (a registry a getter reads) is part of the
      // configuration `withConsistentReads` promises one of (found by review H68).
      configurationVersion.add(1, ordering: .acquiringAndReleasing)
      return (plan, retired, DetachedProperties.forgetDecisions())
    }
    // Outside the commit lock: releasing a replaced value runs its deinit, which may read properties.
    ReadSection.retire(retired)
    _ = forgotten
    return plan
  }

  /// Commits `rules` into an override scope: only tasks inside it see them, until it ends.
  private static func commit(
    _ rules: InjectionRules, in scope: InjectionScope, listingEmpty isListed: ((PropertyDescriptor) -> Bool)?,
    validate: (InjectionPlan) throws -> Void
  ) throws -> InjectionPlan {
    let (plan, retired) = try RuleLog.shared.withCommitLock { log in
      let rules = rules.withChangesRecordedAtCommit()
      let plan = try makePlan(rules, log: log, listingEmpty: isListed, in: scope)
      if let mistake = plan.unmatchedSelections.first(where: \.isMistake) { throw mistake.error }
      try validate(plan)
      // Odd while the scope's configuration changes, as for the process's (found by review H69: reads in
      // `withConsistentReads` inside a scope mixed two of its commits).
      configurationVersion.add(1, ordering: .acquiringAndReleasing)
      let retired = scope.record(rules.changesInCommitOrder, log: log)
      // The task is inside the scope, so plugins' actions change the scope's copies of their state.
      for action in rules.commitActions { action() }
      configurationVersion.add(1, ordering: .acquiringAndReleasing)
      return (plan, retired)
    }
    ReadSection.retire(retired)
    return plan
  }

  /// Computes what committing `rules` would do, without applying it (a dry run). Selections that match
  /// nothing are listed in ``InjectionPlan/unmatchedSelections`` rather than thrown.
  public static func plan(_ rules: InjectionRules) throws -> InjectionPlan {
    try plan(rules, listingEmptyWhere: { _ in true })
  }

  /// A dry run whose ``InjectionPlan/emptyProperties`` lists only the properties for which `isListed`
  /// returns `true` (the scope of a check).
  public static func plan(_ rules: InjectionRules, listingEmptyWhere isListed: @escaping (PropertyDescriptor) -> Bool)
    throws -> InjectionPlan
  {
    let scope = InjectionScope.anyActive ? InjectionScope.current : nil
    return try RuleLog.shared.withCommitLock { log in
      try makePlan(rules.withChangesRecordedAtCommit(), log: log, listingEmpty: isListed, in: scope)
    }
  }

  /// Releases `value` once the commit running on the calling thread has released its lock, rather than
  /// now. For an ``InjectionRules/onCommit(_:)`` action that replaces or removes part of a plugin's state
  /// holding what users gave (values, factories, entries capturing them): a deinit it causes may read
  /// properties or commit, which under the commit lock would wait for itself. The value is still released
  /// before the commit returns, on its thread. Outside a commit's action it keeps nothing: the caller
  /// releases `value` as usual. A ``SnapshotParticipant``'s restore closure, which runs under the commit
  /// lock as well, uses it for what it replaces.
  ///
  /// ```swift
  /// rules.onCommit {
  ///   let replaced = MyPlugin.registry.update { $0.updateValue(entry, forKey: key) }
  ///   Injection.releaseAfterTheCommit(replaced as Any)
  /// }
  /// ```
  public static func releaseAfterTheCommit(_ value: Any) {
    RuleLog.shared.keepUntilUnlocked(value)
  }

  /// Runs `body`, app code that a plugin's builder calls while the kernel commits (a key closure given to
  /// the plugin's verb), under `description` (`the key closure given to injectDefaults(key:)`): a call
  /// back into the kernel from there that would wait for the commit names it in its stop, or in the
  /// ``InjectionError/commitDuringCommit(running:)`` it throws.
  public static func runningAppCode<Result>(_ description: String, _ body: () throws -> Result) rethrows -> Result {
    try withUnsafePointer(to: description) { pointer in
      try PropertySelection.marking(selection: 0, code: UInt(bitPattern: pointer), body)
    }
  }

  /// Runs `body` until it ran without a commit installing injections at the same time, so that the
  /// values it reads from several properties all come from one configuration. `body` may run more than
  /// once and must not commit: a commit inside it (or in a getter it runs) throws
  /// ``InjectionError/commitInsideConsistentReads`` — it would change the configuration the body waits to
  /// see stable, and the body would run again for ever.
  ///
  /// A body during each of whose runs a commit lands, 10,000 times in a row, stops the program saying so:
  /// it most likely commits, or waits for a commit, through another thread.
  public static func withConsistentReads<Result>(_ body: () throws -> Result) rethrows -> Result {
    let depth = ik_consistent_reads_get()
    ik_consistent_reads_set(depth + 1)
    defer { ik_consistent_reads_set(depth) }
    // On the committing thread (an onCommit action, a builder): its own commit is the one in progress, and
    // waiting for it to end would wait forever (found by review H69); its reads see its configuration.
    if RuleLog.shared.isHeldByCurrentThread { return try body() }
    var runs = 0
    while true {
      let before = configurationVersion.load(ordering: .acquiring)
      if before & 1 == 1 { continue }
      let result = try body()
      atomicMemoryFence(ordering: .acquiring)  // the body's reads happen before the second check
      if configurationVersion.load(ordering: .relaxed) == before { return result }
      runs += 1
      // A body that commits through another thread (or an InjectionContext) and waits for it changes the
      // configuration in every run: it would run for ever (found by review H84).
      if runs == Self.consistentReadsRunLimit {
        stop(
          "Injection.withConsistentReads { … } ran its body \(runs) times and a commit landed during every run: "
            + "the body most likely commits, or waits for a commit, through another thread (its own commits "
            + "throw commitInsideConsistentReads). Commit before or after it.")
      }
    }
  }

  // MARK: The catalog

  /// Chooses where the kernel looks for classes (every loaded image by default).
  public static func setDiscovery(_ discovery: ClassDiscovery) {
    PropertyCatalog.shared.setDiscovery(discovery)
  }

  /// Runs the shared pass over whatever is new and returns every marked property cataloged so far.
  public static func markedProperties() -> [PropertyDescriptor] {
    PropertyCatalog.shared.refresh()
  }

  /// The marked properties of one plugin's markers, from the shared pass.
  public static func properties(of plugin: any InjectionPlugin.Type) -> [PropertyDescriptor] {
    properties(of: plugin.id)
  }

  /// The marked properties owned by the plugin `id`.
  public static func properties(of id: PluginID) -> [PropertyDescriptor] {
    markedProperties().filter { $0.plugin == id }
  }

  /// The marked properties `cls` declares itself; a generic specialization is cataloged on request.
  public static func declaredProperties(of cls: AnyClass) -> [PropertyDescriptor] {
    PropertyCatalog.shared.declaredProperties(of: cls)
  }

  /// Every stored field `cls` declares itself — marked or not — for plugins that work on unmarked
  /// properties (force injection). Marked fields come back as in the catalog; unmarked ones have no
  /// marker and their field type as value type. Fields of a noncopyable type are not listed: Swift's
  /// reflection cannot represent their type, and no value can be read from or written into them.
  /// Computed on request, never by the shared pass.
  public static func storedProperties(of cls: AnyClass) -> [PropertyDescriptor] {
    PropertyCatalog.shared.storedProperties(of: cls)
  }

  /// The generic classes that declare marked properties, as `Module.Name`. Their properties are
  /// cataloged per specialization (`Box<Int>`), when an instance is first read or a selection names it.
  public static var genericClassesWithMarkedProperties: [String] { PropertyCatalog.shared.genericClassNames() }

  /// Every pass the kernel has run, oldest first (a pass that found nothing new is not recorded).
  public static var catalogPasses: [CatalogPass] { PropertyCatalog.shared.passes }

  // MARK: Introspection

  /// The injection `property` has now, if any, as the calling task sees it (inside an override scope,
  /// the scope's).
  public static func injection(for property: PropertyDescriptor) -> AnyPropertyInjection? {
    if InjectionScope.anyActive, let scope = InjectionScope.current {
      return RuleLog.shared.withCommitLock { scope.plannedInjection(for: property, log: $0) }
    }
    if let slot = SlotRegistry.shared.existingSlot(for: property) { return slot.currentInjection }
    return RuleLog.shared.withCommitLock { $0.injection(for: property) }
  }

  /// Whether `property` has an injection now.
  public static func isInjected(_ property: PropertyDescriptor) -> Bool { injection(for: property) != nil }

  /// Whether the property `name` declared by `cls` (or inherited by it) has an injection now, for
  /// instances of `cls` (a subclass may have an injection of its own); `false` when there is no such
  /// marked property (``property(named:of:)`` tells the two apart).
  public static func isInjected(_ cls: AnyClass, _ name: String) -> Bool {
    (try? property(named: name, of: cls)).flatMap { $0.viewed(from: cls) }.map(isInjected) ?? false
  }

  /// The marked property `name` that `cls` declares or inherits.
  ///
  /// - Throws: ``InjectionError/unknownProperty(className:name:)`` when there is none.
  public static func property(named name: String, of cls: AnyClass) throws -> PropertyDescriptor {
    var current: AnyClass? = cls
    while let candidate = current {
      if let property = declaredProperties(of: candidate).first(where: { $0.name == name }) { return property }
      current = MetadataAccess.superclass(of: candidate)
    }
    throw InjectionError.unknownProperty(className: Injection.typeName(cls), name: name)
  }

  /// Every cataloged property that has an injection now, and every subclass view with an injection of
  /// its own (see ``PropertyDescriptor/viewed(from:)``), sorted by description.
  public static func injectedProperties() -> [PropertyDescriptor] {
    PropertyDescriptor.sortedByDescription((markedProperties() + subclassViewsWithOwnInjections()).filter(isInjected))
  }

  /// The subclass views that rules decide for on their own, as the calling task sees them: a rule naming
  /// a subclass of the declaring class gives them an injection of their own, or none at all
  /// (``InjectionRules/turnOff(_:)``: check ``isInjected(_:)-(PropertyDescriptor)``).
  public static func subclassViewsWithOwnInjections() -> [PropertyDescriptor] {
    let scope = InjectionScope.anyActive ? InjectionScope.current : nil
    return RuleLog.shared.withCommitLock { log -> [PropertyDescriptor] in
      let named = log.namedClasses() + (scope?.namedClasses() ?? [])
      guard !named.isEmpty else { return [] }
      let index = PropertyCatalog.shared.indexedProperties(resolving: [])
      var seen: Set<PropertyDescriptor> = []
      let candidates = (SlotRegistry.shared.allViews() + named.flatMap(index.inheritedViews(from:))).filter {
        seen.insert($0).inserted
      }
      return candidates.filter { view in
        let level = scope?.decidingLevel(for: view) ?? log.decidingLevel(for: view) ?? 0
        guard level == view.viewDepth else { return false }
        // A builder's rule is taken to decide without running the builder again. One that skipped the
        // view left its slot with the injection of the class it follows — the same object: not its own.
        guard scope == nil, view.viewDepth > 0, let own = SlotRegistry.shared.existingSlot(for: view)?.currentInjection
        else { return true }
        let followed = SlotRegistry.shared.slotHoldingCommitLock(for: view.view(atDepth: view.viewDepth - 1), log: log)
        return own !== followed.currentInjection
      }
    }
  }

  /// The classes with at least one injected property: the classes declaring them, and the subclasses
  /// with an injection of their own.
  public static func injectedClasses() -> [AnyClass] {
    var seen: Set<ObjectIdentifier> = []
    return injectedProperties().compactMap { property in
      seen.insert(ObjectIdentifier(property.viewingClass)).inserted ? property.viewingClass : nil
    }
  }

  /// One line per injected property (`Module.Owner.property: Type <- summary (Plugin)`, then the
  /// injection's ``AnyPropertyInjection/reportNote`` if it has something to say), or `nothing injected`;
  /// for logs and test failures.
  public static func report() -> String {
    let lines = injectedProperties().compactMap { property -> String? in
      guard let injection = injection(for: property) else { return nil }
      let replaced = SlotRegistry.shared.existingSlot(for: property)?.replacementCount ?? 0
      let note = replaced > 0 ? ", re-injected \(replaced)x" : ""
      let pluginNote = injection.reportNote?().map { " — \($0)" } ?? ""
      return "\(property) <- \(injection.summary) (\(property.plugin?.name ?? "-")\(note))\(pluginNote)"
    }
    return lines.isEmpty ? "nothing injected" : lines.joined(separator: "\n")
  }
}
