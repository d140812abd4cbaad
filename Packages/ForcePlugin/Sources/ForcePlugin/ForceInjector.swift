import InjectionKernel

/// DeluxeInjection's `DIForceInject` in Swift: decision closures over every unmarked stored `var` of
/// every class, and fills that write the decided values into instances.
///
/// Swift cannot swap the accessors of a plain stored property, so force rules do not change a class:
/// they are applied to instances by `fill(_:policy:)` — typically right after `init`, or
/// inside it (`Injection.fill(self)`), before the object is shared with other threads (a fill is not
/// synchronized with the object's readers). `Injection.forceInject`, `Injection.fill` and the imperative
/// verbs use the process-wide ``shared`` injector; tests and libraries can keep injectors of their own.
///
/// ```swift
/// let injector = ForceInjector()
/// try injector.forceInject(in: Checkout.self) { property in
///   property.valueType == PaymentGateway.self ? .value(gateway) : .skip
/// }
/// injector.fill(checkout)
/// ```
///
/// Thread-safe: rules and fills may be used from any thread.
public final class ForceInjector: Sendable {
  /// The process-wide injector behind `Injection.forceInject`, `Injection.fill` and `lets.forceInject`.
  public static let shared = ForceInjector()

  /// One decision closure and the answers it gave, asked at most once per property.
  final class DecisionRule: Sendable {
    let scope: [ObjectIdentifier]
    /// The rule's key, if it was given one: a newer rule with the same key replaces it.
    let key: String?
    let decide: @Sendable (ForceProperty) -> ForceDecision
    private let answers = LockedState<[ForceProperty: ForceDecision]>([:])
    /// The threads running the closure for each property now (see ``answer(for:)``).
    private let deciding = LockedState<[ForceProperty: Set<UInt>]>([:])

    init(scope: [AnyClass], key: String?, decide: @escaping @Sendable (ForceProperty) -> ForceDecision) {
      self.scope = scope.map(ObjectIdentifier.init)
      self.key = key
      self.decide = decide
    }

    /// Whether the rule fills instances of `filled`: a scope class or a subclass of one (every class when
    /// the scope is empty). It covers every field of such an instance, declared or inherited — and no
    /// field of a superclass's or a sibling class's instances.
    func covers(instancesOf filled: AnyClass) -> Bool {
      guard !scope.isEmpty else { return true }
      var current: AnyClass? = filled
      while let candidate = current {
        if scope.contains(ObjectIdentifier(candidate)) { return true }
        current = _getSuperclass(candidate)
      }
      return false
    }

    /// The closure's answer for `property`, asked once and remembered. The closure runs outside the lock
    /// (it may use the injector); two threads meeting a property first at once may both ask, and the
    /// first answer stored is the one every fill uses. The closure asking for the same property on its own
    /// thread (it fills an instance of the class it decides for) is a cycle that would recurse until the
    /// stack overflows: it stops naming the property instead (found by review H85: a crash with no message).
    func answer(for property: ForceProperty) -> ForceDecision {
      if let known = answers.withLock({ $0[property] }) { return known }
      let thread = currentThreadNumber()
      let reentered = deciding.withLock { !$0[property, default: []].insert(thread).inserted }
      if reentered {
        Injection.stop(
          "\(property.description) was asked of its force rule again while the rule's decision closure was deciding "
            + "it, on the same thread: the closure filled (or planned a fill of) an instance of the class it decides "
            + "for, which asks it again — a cycle. Decide from the ForceProperty alone, and fill instances after "
            + "forceInject returns.")
      }
      defer {
        deciding.withLock { deciding in
          deciding[property]?.remove(thread)
          if deciding[property]?.isEmpty == true { deciding[property] = nil }
        }
      }
      let fresh = decide(property)
      return answers.withLock { answers in
        if let known = answers[property] { return known }
        answers[property] = fresh
        return fresh
      }
    }
  }

  /// A rule of the ordered list: newer entries win.
  enum Entry: Sendable {
    case inject(DecisionRule)
    case reject(@Sendable (ForceProperty) -> Bool)
  }

  /// The rules, oldest first: a layered ``ScopedState``, so rules added inside an override scope
  /// (`Injection.withOverrides`, InjectionTesting's traits, a child injector) apply to fills in that scope
  /// only, on top of the rules beneath it — those added beneath later included.
  private let entries = ScopedState(
    LayeredList<Entry>(replacing: { older, newer in
      // A keyed rule replaces the rules of its key.
      guard case .inject(let rule) = newer, let key = rule.key, case .inject(let replaced) = older else { return false }
      return replaced.key == key
    }),
    layering: LayeredList<Entry>.layering)
  /// Per filled class, the non-skip decisions for its fields under the process's rules of one version.
  private let plans = LockedState<[ObjectIdentifier: (version: Int, fields: [(FillableField, ForceDecision)])]>([:])

  /// An injector with no rules.
  public init() {
    Injection.takePartInSnapshots(self)
  }

  // MARK: Rules

  /// Adds a decision closure, asked once per unmarked stored `var` (declaring class, name, value type) of
  /// each class a fill meets, and answering a value, a provider, or ``ForceDecision/skip``.
  ///
  /// With `classes`, the closure covers only instances of those classes and their subclasses — every field
  /// they declare or inherit, and no field of a superclass's or a sibling's instances — and it is asked at
  /// once for every field those classes declare or inherit: a
  /// ``ForceDecision/value(_:)`` that does not fit its property throws
  /// ``ForceError/typeMismatch(property:expected:given:)`` here, and the rule is not added. Without
  /// classes it covers every class and is asked when a fill first meets each one (a mismatch then makes
  /// that fill throw). Properties carrying any plugin's marker, `let` fields and fields the compiler
  /// synthesizes are never offered.
  ///
  /// When several rules decide a property, the newest one that does not skip wins; a newer
  /// ``forceReject(where:)`` hides older decisions. Older rules are kept (they decide what newer ones
  /// skip), with the values they captured — unless they have the same `key`:
  ///
  /// - `key`: a rule added with a key replaces the rule added earlier with the same key (which is
  ///   removed, and the values it captured are released) and becomes the newest rule. Give the rules of
  ///   a configuration that is applied again and again (settings changed, a session replaced) a key, so
  ///   that reconfiguring keeps one rule. Without a key, rules accumulate; ``forceRejectAll()`` removes
  ///   them all.
  ///
  /// On ``shared`` it applies at once, so inside an imperative block, a module's `configure` or an
  /// override's rules it throws `InjectionError.commitWhileRecording`, as `Injection.forceInject` does
  /// (use the batch's `lets.forceInject`). An injector of your own is not affected by batches.
  public func forceInject(
    in classes: AnyClass..., key: String? = nil, decide: @escaping @Sendable (ForceProperty) -> ForceDecision
  ) throws {
    try forceInject(in: classes, key: key, decide: decide)
  }

  /// ``forceInject(in:key:decide:)-(AnyClass...,_,_)`` with the classes as an array.
  public func forceInject(
    in classes: [AnyClass], key: String? = nil, decide: @escaping @Sendable (ForceProperty) -> ForceDecision
  ) throws {
    if self === Self.shared {
      try InjectionRules.checkNotRecording()
      try InjectionRules.checkScopeNotEnded()
    }
    let rule = try Self.checkedRule(in: classes, key: key, decide: decide)
    install(.inject(rule))
  }

  /// Hides every decision older than this call for the properties `predicate` selects; later
  /// `forceInject` rules still apply to them.
  public func forceReject(where predicate: @escaping @Sendable (ForceProperty) -> Bool) {
    install(.reject(predicate))
  }

  /// Removes every rule: fills write nothing until the next `forceInject`.
  public func forceRejectAll() {
    // Released after the commit running on the thread, if any (from `lets.forceRejectAll()`), else here,
    // outside the locks: what a rule captured may use the kernel in its deinit.
    let removed = entries.update { $0.removeAll() }
    Injection.releaseAfterTheCommit((removed, takePlans()))
  }

  /// Empties the cache of plans and returns what it held (decisions hold the rules' values), for the
  /// caller to release outside the lock.
  private func takePlans() -> [ObjectIdentifier: (version: Int, fields: [(FillableField, ForceDecision)])] {
    plans.withLock { plans in
      defer { plans.removeAll() }
      return plans
    }
  }

  /// The decision the rules give `property` now in instances of its declaring class
  /// (``ForceDecision/skip`` when none decides it).
  public func decision(for property: ForceProperty) -> ForceDecision {
    decision(for: property, in: property.declaringClass)
  }

  /// The decision the rules give `property` now in instances of `filled` (the declaring class or a
  /// subclass of it): rules scoped to classes decide only for their instances.
  public func decision(for property: ForceProperty, in filled: AnyClass) -> ForceDecision {
    guard property.isMutable, !property.isMarked else { return .skip }
    return Self.decision(for: property, in: filled, entries: entries.value.elements)
  }

  /// Builds a rule and, for a scoped one, asks it about the scope classes' fields now.
  static func checkedRule(
    in classes: [AnyClass], key: String?, decide: @escaping @Sendable (ForceProperty) -> ForceDecision
  ) throws -> DecisionRule {
    let rule = DecisionRule(scope: classes, key: key, decide: decide)
    for cls in classes {
      for field in ClassLayouts.shared.fields(of: cls) where isOffered(field.property) {
        switch rule.answer(for: field.property) {
        case .value(let value): try check(value, fits: field)
        case .provider: try checkProvider(for: field)
        case .skip: continue
        }
      }
    }
    return rule
  }

  /// Appends `entry` as the newest rule, in place of an older rule with the same key. What it replaces
  /// is released after the commit running on the thread, if any, else here, outside the locks.
  func install(_ entry: Entry) {
    let replaced = entries.update { $0.add(entry) }
    Injection.releaseAfterTheCommit((replaced, takePlans()))
  }

  private static func isOffered(_ property: ForceProperty) -> Bool { property.isMutable && !property.isMarked }

  private static func decision(for property: ForceProperty, in filled: AnyClass, entries: [Entry]) -> ForceDecision {
    for entry in entries.reversed() {
      switch entry {
      case .reject(let predicate):
        if predicate(property) { return .skip }
      case .inject(let rule):
        guard rule.covers(instancesOf: filled) else { continue }
        let answer = rule.answer(for: property)
        if !answer.isSkip { return answer }
      }
    }
    return .skip
  }

  // MARK: Filling

  /// Writes the decided values into `object`'s stored `var`s, its superclasses' included, and returns
  /// what it wrote. Values from providers are made anew for this object. An object adopting
  /// ``FillObserver`` is told afterwards if anything was written.
  ///
  /// - Throws: ``ForceError/typeMismatch(property:expected:given:)`` when a decided value does not fit its
  ///   property, ``ForceError/unsupportedOwnership(property:ownership:reason:)`` for a decision on an
  ///   `unowned(unsafe)` field (or a provider's value for a `weak` or an `unowned` one, which nothing would
  ///   own),
  ///   ``ForceError/unsupportedType(property:reason:)`` for one on a field of a function type or a
  ///   concrete metatype.
  ///   A fill that throws has written nothing.
  @discardableResult
  public func fill<Object: AnyObject>(_ object: Object, policy: FillPolicy = .overwrite) throws -> FillReport {
    let cls: AnyClass = type(of: object as AnyObject)
    let plan = self.plan(for: cls)
    var report = FillReport(className: Injection.typeName(cls))
    var writes: [(any FieldAccess, Any, ForceProperty)] = []
    for (field, decision) in plan {
      let property = field.property
      guard let access = field.access else { throw field.refusalError }
      if policy == .onlyIntoEmpty && !access.isEmpty(in: object) {
        report.recordSkipped(property.name, property, .notEmpty)
        continue
      }
      let value: Any
      switch decision {
      case .value(let decided): value = decided
      case .provider(let make):
        try Self.checkProvider(for: field)
        value = make()
      case .skip: continue
      }
      try Self.check(value, fits: field)
      writes.append((access, value, property))
    }
    for (access, value, property) in writes {
      access.store(value, in: object)
      report.recordInjected(property)
    }
    if report.didInject, let observer = object as AnyObject as? any FillObserver {
      observer.didInjectDependencies(report)
    }
    return report
  }

  /// Fills any value: class instances as ``fill(_:policy:)``; a struct, an enum or any other
  /// value throws ``ForceError/notAClass(type:)``.
  @discardableResult
  public func fill(_ value: Any, policy: FillPolicy = .overwrite) throws -> FillReport {
    try fill(try Self.instance(value), policy: policy)
  }

  /// `value` as an object, or the typed error for a value type.
  static func instance(_ value: Any) throws -> AnyObject {
    let type = type(of: value)
    guard type is AnyClass else { throw ForceError.notAClass(type: Injection.typeName(type)) }
    return value as AnyObject
  }

  /// A provider's new value would have no owner in a `weak` or an `unowned` field (and a field without
  /// an access takes no value at all).
  static func checkProvider(for field: FillableField) throws {
    guard field.access != nil else { throw field.refusalError }
    let property = field.property
    if property.ownership == .unowned || property.ownership == .weak {
      throw ForceError.unsupportedOwnership(
        property: property.description, ownership: property.ownership,
        reason: "a provider's new value would have no owner; inject a value kept alive elsewhere")
    }
  }

  static func check(_ value: Any, fits field: FillableField) throws {
    guard let access = field.access else { throw field.refusalError }
    guard access.accepts(value) else {
      throw ForceError.typeMismatch(
        property: field.property.description, expected: field.property.valueTypeName,
        given: Injection.typeName(type(of: value)))
    }
  }

  /// The fields of `cls` some rule decides, with their decisions; cached per class until the process's
  /// rules change (never cached inside a scope that changed them).
  private func plan(for cls: AnyClass) -> [(FillableField, ForceDecision)] {
    if entries.isOverriddenForCurrentTask { return plan(for: cls, entries: entries.value.elements) }
    let id = ObjectIdentifier(cls)
    let version = entries.processVersion
    if let cached = plans.withLock({ $0[id] }), cached.version == version { return cached.fields }
    let fields = plan(for: cls, entries: entries.value.elements)
    // Plans of an older version (every class's, once the rules changed) hold values the rules no longer
    // give: they are dropped here, released outside the lock.
    let stale = plans.withLock {
      plans -> [ObjectIdentifier: (version: Int, fields: [(FillableField, ForceDecision)])] in
      guard entries.processVersion == version else { return [:] }
      let stale = plans.filter { $0.value.version != version }
      if !stale.isEmpty { plans = plans.filter { $0.value.version == version } }
      plans[id] = (version, fields)
      return stale
    }
    _ = stale
    return fields
  }

  private func plan(for cls: AnyClass, entries: [Entry]) -> [(FillableField, ForceDecision)] {
    ClassLayouts.shared.fields(of: cls).compactMap { field -> (FillableField, ForceDecision)? in
      guard Self.isOffered(field.property) else { return nil }
      let decision = Self.decision(for: field.property, in: cls, entries: entries)
      return decision.isSkip ? nil : (field, decision)
    }
  }
}

extension ForceInjector: SnapshotParticipant {
  /// The rules are a `ScopedState`, which snapshots put back themselves; the plans cached from them hold
  /// the rules' values, so a restore forgets them (released after the restore), and fills plan again.
  public func captureForSnapshot() -> @Sendable () -> Void {
    { [weak self] in
      guard let self else { return }
      // The injector too: dropped meanwhile by its owner, its rules' deinits would run under the lock.
      Injection.releaseAfterTheCommit((takePlans(), self))
    }
  }
}
