import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The calling thread's identity as an integer.
private func currentThreadID() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}

/// The committed rules, kept so that properties the kernel meets later — a generic class's new
/// specialization, a class from an image opened after the commit — receive the same injections.
///
/// Its lock is the commit lock: commits and slot creation are ordered by it, so a slot is either
/// created before a commit (and the commit installs into it) or after (and reads the new rules).
final class RuleLog: @unchecked Sendable {  // `rules` and the counters are guarded by `lock`
  static let shared = RuleLog()

  fileprivate struct Rule {
    let key: PropertySelection.StructuralKey?
    let selection: PropertySelection
    let action: Action
  }

  fileprivate enum Action {
    case inject(AnyPropertyInjection)
    case build(InjectionBuilder)
    case reject
  }

  private let lock = KernelLock()
  /// The thread holding the commit lock (`pthread_self()` bits), 0 when free.
  private let owner = Atomic<UInt>(0)
  // The stored state below is only touched holding `lock`, which already makes every access exclusive:
  // `@exclusivity(unchecked)` drops the runtime's dynamic check (a thread-local access-set insertion and
  // removal, about 80 instructions per access, on every hot path of passes and commits).
  /// Catalog refreshes requested by the commit-lock holder since it took the lock.
  @exclusivity(unchecked) private var refreshesUnderLock = 0
  /// Committed rules, oldest first; `nil` marks a rule replaced by a newer one with the same key.
  @exclusivity(unchecked) private var rules: [Rule?] = []
  /// Where the live rule with each structural key sits in `rules`.
  @exclusivity(unchecked) private var positionByKey: [PropertySelection.StructuralKey: Int] = [:]
  @exclusivity(unchecked) private var replacedCount = 0
  /// Whether this log is a scope's overlay: its decisions fall through to the process's where it has
  /// none, so rejecting every property of a plugin must be recorded as a rule of its own.
  private let isOverlay: Bool

  /// A log; `overlay` for a scope's rules.
  init(overlay: Bool = false) { isOverlay = overlay }

  /// Values that must outlive the commit lock (see ``keepUntilUnlocked(_:)``).
  @exclusivity(unchecked) private var kept: [Any] = []
  /// Rules replaced or retracted under the commit lock, kept likewise (typed: no box per rule).
  @exclusivity(unchecked) private var keptRules: [Rule] = []

  /// Runs `body` holding the commit lock. What the holder kept with ``keepUntilUnlocked(_:)`` is released
  /// after the lock is released.
  ///
  /// The lock is not re-entrant: the thread holding it asking again — a builder, an `onCommit` action or
  /// a deinit run during a commit that plans, commits or makes a slot — would wait for itself forever, so
  /// that stops the program with the reason instead.
  func withCommitLock<Result>(_ body: (RuleLog) throws -> Result) rethrows -> Result {
    if isHeldByCurrentThread {
      if let code = PropertySelection.runningAppCode {
        Injection.stop(
          "\(code.prefix(1).uppercased() + code.dropFirst()) called the library back while the kernel was "
            + "committing: it runs under the kernel's commit lock (when a commit plans, and when the kernel meets a "
            + "property later: a generic specialization, a class loaded later), so a call that needs that lock — "
            + "Injection.resolve, Injection.isInjected, report(), a commit, or a first read of a marked property — "
            + "would wait for itself forever. Decide from the PropertyDescriptor it is given (name, className, "
            + "declaringClass, valueType) and do any other work before the commit.")
      }
      Injection.stop(
        "The kernel's commit lock was asked for by the thread that holds it: code that runs during a commit "
          + "(a builder given to InjectionRules.add(to:builder:), an onCommit action, or a deinit they cause) "
          + "called a kernel function that plans or commits (Injection.isInjected, injection(for:), report(), "
          + "plan(_:), a commit) or read a property for the first time. It would wait for itself forever. Do "
          + "that work in an afterCommit action, or outside the commit; a plugin's onCommit action that "
          + "replaces a value whose deinit does it uses ScopedState.replace(with:) or hands the old value to "
          + "Injection.releaseAfterTheCommit(_:).")
    }
    // Declared before taking the lock, so released after it: a kept value's deinit may use the kernel.
    var released: [Any] = []
    var releasedRules: [Rule] = []
    defer {
      released.removeAll()
      releasedRules.removeAll()
    }
    return try lock.withLock {
      owner.store(currentThreadID(), ordering: .relaxed)
      refreshesUnderLock = 0
      defer {
        owner.store(0, ordering: .relaxed)
        swap(&released, &kept)
        swap(&releasedRules, &keptRules)
      }
      return try body(self)
    }
  }

  /// Whether the calling thread holds the commit lock.
  var isHeldByCurrentThread: Bool { owner.load(ordering: .relaxed) == currentThreadID() }

  /// Keeps `value` until the commit lock is released when the calling thread holds it: what a commit
  /// replaces (a rule, a plugin's state) is released then, outside the lock, since a deinit may read
  /// properties or commit. Otherwise `value` is released by the caller as usual.
  func keepUntilUnlocked(_ value: Any) {
    guard isHeldByCurrentThread else { return }
    kept.append(value)
  }

  /// ``keepUntilUnlocked(_:)`` for a rule this log (or a scope's) no longer holds.
  private func keepUntilUnlocked(_ rule: consuming Rule?) {
    let shared = RuleLog.shared
    guard let rule, shared.isHeldByCurrentThread else { return }
    shared.keptRules.append(rule)
  }

  /// Counts a catalog refresh if the calling thread is planning a commit (see ``refreshCount``).
  func noteCatalogRefresh() {
    if owner.load(ordering: .relaxed) == currentThreadID() { refreshesUnderLock += 1 }
  }

  /// How many catalog refreshes the current commit has requested so far (commit lock held).
  var refreshCount: Int { refreshesUnderLock }

  /// The injection the committed rules give `property` (commit lock held): the last matching rule wins.
  func injection(for property: PropertyDescriptor) -> AnyPropertyInjection? {
    decision(for: property) ?? nil
  }

  /// What the newest rule that applies to `property` decides: `nil` when no rule applies, `.some(nil)`
  /// when it rejects (commit lock held, or the owning scope's lock for an overlay).
  func decision(
    for property: PropertyDescriptor, excluding excluded: Set<PropertySelection.StructuralKey> = []
  ) -> AnyPropertyInjection?? {
    decisionAndLevel(for: property, excluding: excluded)?.decision
  }

  /// The decision for `property` and the level of the rule that made it (see
  /// ``PropertySelection/level(for:)``): the property as seen from the class that many steps below the
  /// declaring class has the same decision, so a subclass's view shares its injection.
  ///
  /// Newest first, the first rule that applies decides, except that a rejection reaching the property
  /// at a level above 0 (it names a subclass of the declaring class) decides nothing itself: it hides
  /// the older rules at its level or deeper, so that the shallower ones show through. Rules whose key is
  /// in `excluded` are passed over (what a retraction would leave).
  func decisionAndLevel(
    for property: PropertyDescriptor, excluding excluded: Set<PropertySelection.StructuralKey> = []
  ) -> (decision: AnyPropertyInjection??, level: Int)? {
    var ceiling = Int.max
    for case let rule? in rules.reversed() where rule.selection.matches(property) {
      if !excluded.isEmpty, let key = rule.key, excluded.contains(key) { continue }
      let level = rule.selection.level(for: property)
      guard level < ceiling else { continue }
      let injection: AnyPropertyInjection?
      switch rule.action {
      case .reject:
        guard rule.selection.rejectionDecides(atLevel: level) else {
          ceiling = level
          continue
        }
        return (.some(nil), level)
      case .inject(let given): injection = given
      // A builder that fails or skips for a property met later leaves it uninjected by this rule (a
      // failure is kept for the read that then finds nothing to say); it builds for the view the rule
      // reaches, whose instances all share the injection.
      case .build(let builder):
        do {
          injection = try builder(property.view(atDepth: level))
          if !isOverlay { BuilderFailures.forget(property) }
        } catch {
          // The process's rules only: a scope's would be named to reads outside it, after it ended.
          if !isOverlay { BuilderFailures.note(error, of: rule.selection, for: property) }
          injection = nil
        }
      }
      // A rule whose value type does not fit this property (a name or predicate selection meeting a
      // generic specialization) does not apply to it.
      if let injection, let fitted = Injection.fitted(injection, to: property, selection: rule.selection) {
        return (.some(fitted), level)
      }
    }
    return nil
  }

  /// The value types of the live injections whose selection of `plugin`'s properties is a type alone,
  /// newest first (commit lock held).
  func injectedTypesSelectedAlone(by plugin: PluginID) -> [Any.Type] {
    rules.reversed().compactMap { rule -> Any.Type? in
      guard let rule, rule.selection.plugin == plugin, case .inject(let injection) = rule.action,
        let key = rule.key, key.classes.isEmpty, key.names.isEmpty, key.predicateIdentities.isEmpty,
        key.valueType != nil
      else { return nil }
      return injection.valueType
    }
  }

  /// Whether a live rule has `key` (commit lock held, or the owning scope's lock for an overlay).
  func holdsRule(withKey key: PropertySelection.StructuralKey) -> Bool { positionByKey[key] != nil }

  /// The classes the committed rules name (each once), whose views of inherited properties rules reach.
  func namedClasses() -> [AnyClass] {
    var seen: Set<ObjectIdentifier> = []
    return rules.flatMap { $0?.selection.namedClasses ?? [] }.filter { seen.insert(ObjectIdentifier($0)).inserted }
  }

  /// The level of the rule that decides `property` (see ``decisionAndLevel(for:)``), found without
  /// running builders: a builder's rule is taken to apply (it decides unless it skips the property).
  /// `nil` when no rule decides.
  func decidingLevel(for property: PropertyDescriptor) -> Int? {
    var ceiling = Int.max
    for case let rule? in rules.reversed() where rule.selection.matches(property) {
      let level = rule.selection.level(for: property)
      guard level < ceiling else { continue }
      switch rule.action {
      case .reject:
        guard rule.selection.rejectionDecides(atLevel: level) else {
          ceiling = level
          continue
        }
        return level
      case .inject(let given):
        if Injection.fitted(given, to: property, selection: rule.selection) != nil { return level }
      case .build: return level
      }
    }
    return nil
  }

  /// The first non-nil answer of `decide` over the committed rules, newest first (commit lock held):
  /// `decide` gets each rule's selection, its injection's value type (`nil` for builders and
  /// rejections) and whether it rejects.
  func newestDecision<Decision>(
    excluding excluded: Set<PropertySelection.StructuralKey> = [],
    _ decide: (PropertySelection, Any.Type?, Bool) -> Decision?
  ) -> Decision? {
    for case let rule? in rules.reversed() {
      if !excluded.isEmpty, let key = rule.key, excluded.contains(key) { continue }
      let decision: Decision?
      switch rule.action {
      case .reject: decision = decide(rule.selection, nil, true)
      case .inject(let injection): decision = decide(rule.selection, injection.valueType, false)
      case .build: decision = decide(rule.selection, nil, false)
      }
      if let decision { return decision }
    }
    return nil
  }

  /// Records a committed change (commit lock held). A rule replaces older ones with the same structural
  /// selection, and `rejectAll` forgets every rule of its plugin, so repeated re-injection does not grow
  /// the log or keep replaced values alive.
  func record(_ change: InjectionRules.Change) {
    switch change {
    case .inject(let selection, let injection):
      append(Rule(key: selection.structuralKey, selection: selection, action: .inject(injection)))
    case .injectEach(let selection, let builder):
      append(Rule(key: selection.structuralKey, selection: selection, action: .build(builder)))
    case .reject(let selection):
      append(Rule(key: selection.structuralKey, selection: selection, action: .reject))
    case .retract(let selection):
      if let position = positionByKey.removeValue(forKey: selection.structuralKey) {
        keepUntilUnlocked(rules[position].take())
        replacedCount += 1
      }
    case .rejectAll(let plugin):
      for rule in rules where rule?.selection.plugin == plugin { keepUntilUnlocked(rule) }
      rules = rules.filter { $0 != nil && $0?.selection.plugin != plugin }
      reindex()
      if isOverlay { rules.append(Rule(key: nil, selection: PropertySelection(plugin: plugin), action: .reject)) }
    }
  }

  private func append(_ rule: Rule) {
    if let key = rule.key {
      if let old = positionByKey[key] {
        keepUntilUnlocked(rules[old].take())
        replacedCount += 1
      }
      positionByKey[key] = rules.count
    }
    rules.append(rule)
    if replacedCount > 64, replacedCount > rules.count / 2 {
      rules = rules.filter { $0 != nil }
      reindex()
    }
  }

  /// The committed rules at one moment (immutable; rules hold immutable injections and `@Sendable`
  /// builders).
  struct Saved: @unchecked Sendable {
    fileprivate let rules: [Rule]
  }

  /// The committed rules, to put back with ``restore(_:)`` (commit lock held).
  func saved() -> Saved { Saved(rules: rules.compactMap { $0 }) }

  /// Forgets every rule (an ended scope's overlay) and returns them, to release outside the caller's
  /// locks.
  func removeAll() -> Saved {
    defer {
      rules = []
      reindex()
    }
    return saved()
  }

  /// Puts back rules returned by ``saved()`` (commit lock held).
  func restore(_ saved: Saved) {
    for rule in rules { keepUntilUnlocked(rule) }
    rules = saved.rules
    reindex()
  }

  /// Adds the rules of `saved` after these, as newer ones (a scope's view of the rules enclosing it).
  func append(_ saved: Saved) {
    for rule in saved.rules { append(rule) }
  }

  private func reindex() {
    replacedCount = 0
    positionByKey.removeAll(keepingCapacity: true)
    for (position, rule) in rules.enumerated() {
      if let key = rule?.key { positionByKey[key] = position }
    }
  }
}
