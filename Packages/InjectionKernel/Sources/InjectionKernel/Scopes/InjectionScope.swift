internal import InjectionOwnerLifetime
internal import InjectionReadSections
import Synchronization

/// One override scope (``Injection/withOverrides(_:_:)-(_,()->Result)``): injection rules and plugin
/// state that apply only to the task that entered it and its child tasks, on top of its parent scope's
/// and the process's.
///
/// Reads find the innermost live scope of their task through a task-local value, and only when some
/// scope is active anywhere in the process (``anyActive``), so the process pays nothing while none is.
/// Slots whose injection a scope changes stop publishing answers while it lasts (see
/// ``InjectionSlot/beginOverride()``): every read of them takes the slow path, which asks the reading
/// task's scope. Slots no scope touches keep their lock-free fast path.
@usableFromInline
final class InjectionScope: @unchecked Sendable {  // mutable state is guarded by `lock`; `isLive` is atomic
  /// The calling task's innermost scope, as entered; ``current`` skips scopes that have ended.
  @TaskLocal static var entered: InjectionScope?

  /// How many scopes are active in the process.
  private static let activeCount = Atomic<Int>(0)

  /// Whether any scope is active in the process: reads skip the task-local lookup while none is.
  @usableFromInline static var anyActive: Bool { activeCount.load(ordering: .acquiring) != 0 }

  /// The calling task's innermost scope that is still active (an unstructured task created inside a
  /// scope can outlive it; it then sees the enclosing scopes, or the process).
  @usableFromInline static var current: InjectionScope? { entered?.liveSelfOrParent }

  /// The scope that the calling task's commits and ``ScopedState`` changes go to: the innermost scope it
  /// entered, even when that one has ended (a task that outlived it) — its changes then have no effect:
  /// they must not leak into an enclosing scope or the process, which other tasks share.
  static var forChanges: InjectionScope? { entered }

  /// Whether the calling thread runs what a scope's end tells plugins (``end()``): its commits go to the
  /// ended scope, where they apply nowhere, without the error a task that outlived its scope gets. Per
  /// thread: a task that code starts does not inherit it (found by review H73).
  static var isTellingEnd: Bool { ik_telling_scope_end_get() != 0 }

  /// This scope if it is still active, else its nearest active parent. Scopes whose `end()` ran no
  /// longer apply anywhere, even to a live scope begun inside them (by a task that outlived them).
  @usableFromInline var liveSelfOrParent: InjectionScope? {
    var scope: InjectionScope? = self
    while let candidate = scope, !candidate.isLive.load(ordering: .acquiring) { scope = candidate.parent }
    return scope
  }

  /// Whether `end()` has not run yet.
  var isActive: Bool { isLive.load(ordering: .acquiring) }

  /// The nearest active scope above this one.
  var liveParent: InjectionScope? { parent?.liveSelfOrParent }

  let parent: InjectionScope?
  private let isLive = Atomic<Bool>(true)
  /// Guards `states`, `layeredCopies`, `updateLocks`, `decisions`, `decisionsVersion`, `overriddenSlots`,
  /// `filled`, `shared` and `sharedStamps`; never held while plugin code runs.
  private let lock = KernelLock()
  /// Guards `rules`, whose evaluation runs plugins' builders (which may read ``ScopedState``s).
  private let rulesLock = KernelLock()
  /// Serialize changes of the scope's copy of each state (an `update` closure runs under its state's
  /// lock, so it may update another state, as it may outside scopes), by ``ScopedState`` identity.
  private var updateLocks: [ObjectIdentifier: KernelLock] = [:]
  /// The scope's own copies of plugin states, by ``ScopedState`` identity.
  private var states: [ObjectIdentifier: Any] = [:]
  /// For the copies of layered states: the state's revision each copy is up to date at (see
  /// ``ScopedState/revisions``), and how many times the scope changed it (a copy rebuilt on a newer value
  /// beneath is kept only if the scope did not change it meanwhile).
  private var layeredCopies: [ObjectIdentifier: (upToDateAt: Int, changes: Int)] = [:]
  /// Notes a read of what a scope decides (an injection, a state copy held by a scope or its parents, a
  /// value a scope keeps) for the measurement it is part of (``measuringDependencies(_:)``): a fill whose
  /// factory made one keeps its value in the scope (see ``keepFilledValue(_:of:slot:)``).
  @usableFromInline static func noteDependencyRead() {
    DependencyReads.current?.count.add(1, ordering: .relaxed)
  }

  /// Runs `make` (a fill's factory, a shared value's maker) and tells whether it read what a scope decides:
  /// itself, or the tasks it starts and waits for, which inherit its measurement as they inherit its
  /// scope — not other tasks of the scope reading meanwhile (found by review H66: a sibling `async let`
  /// reading an override made the app's singleton, built at the same time, the test's own, and the app
  /// built it again; and by review H69: counting per thread missed a factory's reads in a task it waited
  /// for, and a test's override reached the app). What depends on a measured value depends on the scope
  /// too: an enclosing measurement counts it.
  @usableFromInline static func measuringDependencies<Value>(_ make: () throws -> Value) rethrows -> (Value, Bool) {
    let reads = DependencyReads()
    let value = try DependencyReads.$current.withValue(reads) { try make() }
    let dependsOnScope = reads.count.load(ordering: .acquiring) > 0
    if dependsOnScope { noteDependencyRead() }
    return (value, dependsOnScope)
  }
  /// The rules committed inside the scope (an overlay: a property no rule of it selects falls through).
  let rules = RuleLog(overlay: true)
  /// Retractions of rules the scope does not hold (see ``record(_:log:)``), and the enclosing rules
  /// without them that the properties they reach are decided by (`rulesLock`).
  private var masks: [PropertySelection] = []
  private var maskedView: RuleLog?
  /// What the scope's rules decide for each slot (`.some(nil)`: rejected), by slot identity.
  private var decisions: [ObjectIdentifier: AnyPropertyInjection??] = [:]
  /// Counts commits into the scope, so that a decision computed across one is not cached.
  private var decisionsVersion = 0
  /// The slots whose fast path this scope switched off.
  private var overriddenSlots: [InjectionSlot] = []
  /// Values that fills created inside the scope from its overrides, per instance: released when the
  /// instance is deallocated or the scope ends, whichever comes first.
  private var filled: [ObjectIdentifier: InstanceFills] = [:]
  /// Shared values (a ``SharedValue``'s, a container's singleton) created inside the scope from its
  /// overrides, by the identity of the object standing for the value; it is held weakly, so a value is
  /// never found for another object at the same address.
  private var shared: [ObjectIdentifier: KeptSharedValue] = [:]
  /// Numbers the shared values kept, so that a value judged stale outside the lock is told from one kept
  /// since (see ``keepSharedValue(_:for:replacing:)``).
  private var sharedStamps: UInt64 = 0
  /// A shared value the scope keeps, with the object standing for it.
  private struct KeptSharedValue {
    weak var owner: AnyObject?
    let value: Any?
    /// Its number among the values this scope kept.
    let stamp: UInt64
  }

  /// What the scope keeps for one instance.
  private struct InstanceFills {
    /// The instance, to tell it from a later object at the same address.
    weak var owner: AnyObject?
    /// By slot identity; a `nil` value once a write inside the scope emptied the property since (a
    /// "once" fill does not run again).
    var values: [ObjectIdentifier: Any?]
    /// Removes this entry once the instance is deallocated; withdrawn when the scope ends first. Made
    /// before the entry, so that the entry is recognized as the instance's own from the start, also from
    /// the instance's deinit (see ``isEntry(_:for:)``).
    let ownerDeath: DeallocationObservation
  }

  private init(parent: InjectionScope?) {
    self.parent = parent
  }

  // MARK: Entering and leaving

  /// A new scope inside the calling task's current one, active until ``end()``.
  static func begin() -> InjectionScope {
    let scope = InjectionScope(parent: current)
    RuleLog.shared.withCommitLock { _ in
      ActiveScopes.list.withLock { $0[ObjectIdentifier(scope)] = scope }
      activeCount.add(1, ordering: .acquiringAndReleasing)
    }
    return scope
  }

  /// Ends the scope: its overrides stop applying everywhere and the values it kept are released.
  /// Everything an ended scope held is dropped here, although the scope object itself can live on: a task
  /// created inside it keeps it as its task-local value for as long as it runs.
  func end() {
    let released: [Any] = RuleLog.shared.withCommitLock { _ in
      isLive.store(false, ordering: .releasing)
      ActiveScopes.list.withLock { list in list[ObjectIdentifier(self)] = nil }
      let slots = lock.withLock { overriddenSlots }
      for slot in slots { slot.endOverride() }
      Self.activeCount.subtract(1, ordering: .acquiringAndReleasing)
      let rules = rulesLock.withLock {
        defer {
          masks = []
          maskedView = nil
        }
        return (self.rules.removeAll(), maskedView)
      }
      return lock.withLock {
        // The owners this scope kept values for: fast reads may serve their process values again.
        // (Their strong references are released after the locks, with the rest: an owner that lost its
        // last other reference meanwhile dies there, and its deallocation may need this lock.)
        let owners = shared.values.compactMap(\.owner)
        for owner in owners { (owner as? any ScopeKeptValueOwner)?.scopeStoppedKeeping() }
        defer {
          filled = [:]
          shared = [:]
          states = [:]
          layeredCopies = [:]
          decisions = [:]
          decisionsVersion += 1  // a decision being computed now is not cached
          overriddenSlots = []
        }
        return [filled, shared, states, decisions, rules, owners]
      }
    }
    // The instances' deallocation actions are withdrawn: a long-lived instance keeps none of ended scopes.
    if let fills = released[0] as? [ObjectIdentifier: InstanceFills] {
      for entry in fills.values { entry.ownerDeath.cancel() }
    }
    // Outside every kernel lock: states that asked are told (a plugin may run user code), then the
    // scope's values are released (a value's deinit may read properties). Told inside the ended scope:
    // what that code commits (a module's `unload()` turning off its rules) applies nowhere, as the
    // scope's own rules no longer do, rather than to the enclosing scope or the process.
    if let copies = released[2] as? [ObjectIdentifier: Any] {
      Self.$entered.withValue(self) {
        let telling = ik_telling_scope_end_get()
        ik_telling_scope_end_set(1)
        defer { ik_telling_scope_end_set(telling) }
        ScopedStateRegistry.scopeEnded(ObjectIdentifier(self), copies: copies)
      }
    }
    _ = released
  }

  // MARK: Plugin state

  /// The copy of `state` that this scope or its nearest parent holds, if any; counts the read.
  func stateValue<Value>(of state: ScopedState<Value>) -> Value? {
    if let layering = state.layering { return layeredValue(of: state, layering) }
    let id = ObjectIdentifier(state)
    var scope: InjectionScope? = self
    while let candidate = scope {
      // Unwrap the dictionary's optional before casting: `nil as Any?` casts to any optional `Value`.
      if let copy = candidate.lock.withLock({ candidate.states[id] }), let value = copy as? Value {
        Self.noteDependencyRead()
        return value
      }
      scope = candidate.liveParent
    }
    return nil
  }

  /// The value of a layered state as this scope sees it, if this scope or a parent changed it: the
  /// innermost copy, rebuilt (outermost first) where a change beneath made it stale, as its layering
  /// reads it. A copy whose reading finds something it held weakly gone is built again, with every copy
  /// beneath it: whatever let go of it (a change beneath, an enclosing scope's end) left it stale.
  private func layeredValue<Value>(of state: ScopedState<Value>, _ layering: ScopeLayering<Value>) -> Value? {
    var rebuildingAll = false
    while true {
      guard let copy = layeredCopyValue(of: state, layering, rebuildingAll: rebuildingAll) else { return nil }
      guard let reading = layering.reading else { return copy }
      if let read = reading(copy) { return read }
      rebuildingAll = true
    }
  }

  /// `layeredValue`'s copy, before its layering reads it; with `rebuildingAll`, every copy is built again.
  private func layeredCopyValue<Value>(
    of state: ScopedState<Value>, _ layering: ScopeLayering<Value>, rebuildingAll: Bool
  ) -> Value? {
    let id = ObjectIdentifier(state)
    // Read before the values beneath: a change made after it leaves what is built here stale, never
    // marked up to date.
    let revision = state.revisions.load(ordering: .acquiring)
    var holders: [InjectionScope] = []
    var scope: InjectionScope? = self
    while let candidate = scope {
      let (copy, upToDateAt) = candidate.lock.withLock {
        (candidate.states[id], candidate.layeredCopies[id]?.upToDateAt)
      }
      if let copy {
        // The innermost copy, up to date: nothing beneath changed since it was built.
        if holders.isEmpty, !rebuildingAll, upToDateAt == revision, let value = copy as? Value {
          Self.noteDependencyRead()
          return value
        }
        holders.append(candidate)
      }
      scope = candidate.liveParent
    }
    guard !holders.isEmpty else { return nil }
    Self.noteDependencyRead()
    var beneath: Value?
    for holder in holders.reversed() {
      beneath = holder.layeredCopy(
        of: state, layering, at: revision, rebuilding: rebuildingAll, beneath: { beneath ?? state.processValue })
    }
    return beneath
  }

  /// This scope's copy of a layered state, up to date at `revision`: rebuilt on the value `beneath`
  /// returns when a change made since its last build left it stale, or when `rebuilding`.
  private func layeredCopy<Value>(
    of state: ScopedState<Value>, _ layering: ScopeLayering<Value>, at revision: Int, rebuilding: Bool = false,
    beneath: () -> Value
  ) -> Value? {
    let id = ObjectIdentifier(state)
    let (stored, build) = lock.withLock { (states[id] as? Value, layeredCopies[id]) }
    guard let stored, let build else { return nil }
    if build.upToDateAt == revision, !rebuilding { return stored }
    // Outside the scope's lock: the plugin's replay may read other states.
    let rebuilt = layering.rebase(stored, beneath())
    // What a copy replaces is returned out of the lock and released after it: its deinit may run code
    // that reads or fills properties, which takes this lock (so does an instance's deallocation that it
    // causes, when the scope keeps values for the instance).
    let replaced = lock.withLock { () -> Any? in
      // Kept unless the scope changed its copy meanwhile (that change is newer than this rebuild).
      guard layeredCopies[id]?.changes == build.changes, states[id] != nil else { return nil }
      layeredCopies[id] = (revision, build.changes)
      return states.updateValue(rebuilt, forKey: id)
    }
    withExtendedLifetime(replaced) {}
    return rebuilt
  }

  /// Changes this scope's copy of `state`, made first from `seen` (what the task saw before).
  func updateState<Value, Result>(
    of state: ScopedState<Value>, startingFrom seen: () -> Value, _ body: (inout Value) throws -> Result
  ) rethrows -> Result {
    let id = ObjectIdentifier(state)
    let updateLock = lock.withLock {
      if let existing = updateLocks[id] { return existing }
      let created = KernelLock()
      updateLocks[id] = created
      return created
    }
    guard let layering = state.layering else {
      return try updateLock.withLock {
        var copy = lock.withLock { states[id].flatMap { $0 as? Value } } ?? state.scopeCopy.map { $0(seen()) } ?? seen()
        let result = try body(&copy)
        let replaced = lock.withLock { states.updateValue(copy, forKey: id) }  // released after the lock
        withExtendedLifetime(replaced) {}
        return result
      }
    }
    return try updateLock.withLock {
      let revision = state.revisions.load(ordering: .acquiring)
      let (stored, build) = lock.withLock { (states[id].flatMap { $0 as? Value }, layeredCopies[id]) }
      var copy: Value
      if let stored, let build, build.upToDateAt == revision {
        copy = stored
      } else {
        let beneath = liveParent?.stateValue(of: state) ?? state.processValue
        copy = stored.map { layering.rebase($0, beneath) } ?? layering.begin(beneath)
      }
      let result = try body(&copy)
      let changes = (build?.changes ?? 0) + 1
      // Stored before the revision moves: a reader that sees the new revision sees this copy too (one that
      // read the revision before may build on it, stamped with that older revision: stale, rebuilt later).
      let replaced = lock.withLock { () -> Any? in  // released after the lock
        layeredCopies[id] = (-1, changes)
        return states.updateValue(copy, forKey: id)
      }
      withExtendedLifetime(replaced) {}
      let after = state.revisions.add(1, ordering: .acquiringAndReleasing).newValue
      lock.withLock {
        // Up to date only if no other change came between the revision read above and this one.
        if after == revision + 1, layeredCopies[id]?.changes == changes { layeredCopies[id] = (after, changes) }
      }
      return result
    }
  }

  // MARK: Rules

  /// The injection a task inside this scope sees for `slot`: the newest decision of this scope or its
  /// parents, otherwise the process's. The second value tells whether a scope decided it.
  @usableFromInline
  func injection(for slot: InjectionSlot) -> (injection: AnyPropertyInjection?, fromScope: Bool) {
    var scope: InjectionScope? = self
    while let candidate = scope {
      if case .some(let decided) = candidate.decision(for: slot) { return (decided, true) }
      scope = candidate.liveParent
    }
    return (slot.currentInjection, false)
  }

  /// This scope's own decision for `slot`: `nil` when none of its rules selects it.
  private func decision(for slot: InjectionSlot) -> AnyPropertyInjection?? {
    let id = ObjectIdentifier(slot)
    let (cached, version) = lock.withLock { (decisions[id], decisionsVersion) }
    if let cached { return cached }
    let decided = ruleDecision(for: slot.property)
    // A commit since `version` was read may have made `decided` stale: cache it only if none did.
    let replaced = lock.withLock {  // released after the lock, as everything the scope replaces
      decisionsVersion == version ? decisions.updateValue(decided, forKey: id) : nil
    }
    withExtendedLifetime(replaced) {}
    return decided
  }

  /// The injection this scope and its parents give `property`, or the process's when none selects it
  /// (commit lock held; for planning a commit inside the scope).
  func plannedInjection(for property: PropertyDescriptor, log: RuleLog) -> AnyPropertyInjection? {
    plannedDecision(for: property, log: log).injection
  }

  /// ``plannedInjection(for:log:)``, and whether a scope's rule decided it.
  func plannedDecision(for property: PropertyDescriptor, log: RuleLog)
    -> (injection: AnyPropertyInjection?, fromScope: Bool)
  {
    var scope: InjectionScope? = liveSelfOrParent
    while let candidate = scope {
      if case .some(let decided) = candidate.ruleDecision(for: property) { return (decided, true) }
      scope = candidate.liveParent
    }
    if let slot = SlotRegistry.shared.existingSlot(for: property) { return (slot.currentInjection, false) }
    return (log.injection(for: property), false)
  }

  // MARK: Shared values made from overrides

  /// The shared value this scope or an enclosing one keeps for `owner`, if any (counted as a read that
  /// depends on the scope: it was made from its overrides).
  func sharedValue(for owner: AnyObject) -> Any? {
    let id = ObjectIdentifier(owner)
    var scope: InjectionScope? = self
    while let candidate = scope {
      let kept = candidate.lock.withLock { () -> Any? in
        guard let entry = candidate.shared[id], entry.owner === owner else { return nil }
        return entry.value
      }
      if let kept {
        Self.noteDependencyRead()
        return kept
      }
      scope = candidate.liveParent
    }
    return nil
  }

  /// Keeps `value` for `owner` in this scope, unless a value `isStale` accepts is kept already (then
  /// returns that one); an ended scope keeps nothing.
  ///
  /// `isStale` is plugin code: it runs outside the scope's lock, on a copy of the kept value, since what
  /// it does may release an instance this scope keeps values for, and releasing those takes the lock. A
  /// value it finds stale is replaced only if it is still the one kept (same stamp); if another task
  /// kept a value meanwhile, that one is judged in turn.
  func keepSharedValue(_ value: Any, for owner: AnyObject, replacing isStale: (Any) -> Bool) -> Any {
    let id = ObjectIdentifier(owner)
    var stale: UInt64?  // the stamp of the kept value `isStale` last refused
    while true {
      var released: KeptSharedValue?  // an earlier object's or a stale value, released after the lock
      let step = lock.withLock { () -> (kept: Any, stamp: UInt64?) in
        // `entry.owner` is `owner` (which the caller holds) or `nil`: loading it releases nothing here.
        if let entry = shared[id], entry.owner === owner, let kept = entry.value, entry.stamp != stale {
          return (kept, entry.stamp)
        }
        guard isLive.load(ordering: .acquiring) else { return (value, nil) }
        sharedStamps += 1
        released = shared.updateValue(KeptSharedValue(owner: owner, value: value, stamp: sharedStamps), forKey: id)
        // Counted under the lock (an atomic add, no other lock), as `end()` counts the stop under it.
        if released?.owner !== owner { (owner as? any ScopeKeptValueOwner)?.scopeStartedKeeping() }
        return (value, nil)
      }
      _ = released
      guard let judged = step.stamp else { return step.kept }
      if !isStale(step.kept) { return step.kept }
      stale = judged
    }
  }

  /// The first non-nil answer of `decide` over the rules of this scope and its enclosing ones, newest
  /// first (commit lock held; for planning generic classes' properties inside the scope). This scope's
  /// rules with a key in `excluded` are passed over (what its retractions would leave).
  func newestDecision<Decision>(
    excluding excluded: Set<PropertySelection.StructuralKey> = [],
    _ decide: (PropertySelection, Any.Type?, Bool) -> Decision?
  ) -> Decision? {
    var scope: InjectionScope? = liveSelfOrParent
    while let candidate = scope {
      let ignored = candidate === self ? excluded : []
      if let decided = candidate.rulesLock.withLock({ candidate.rules.newestDecision(excluding: ignored, decide) }) {
        return decided
      }
      scope = candidate.liveParent
    }
    return nil
  }

  /// What this scope, its enclosing ones and the process decide for `property` once this scope's rules
  /// with a key in `excluded` are taken back, and the level of the deciding rule (commit lock held; for
  /// planning a retraction inside the scope).
  func retractedDecision(
    for property: PropertyDescriptor, excluding excluded: Set<PropertySelection.StructuralKey>, log: RuleLog
  ) -> (injection: AnyPropertyInjection?, level: Int) {
    // Every layer: a scope takes back a rule an enclosing scope or the process holds for itself alone (see
    // `record(_:log:)`), as the retractions it and its enclosing scopes made before did.
    var excluded = excluded
    var masked: InjectionScope? = liveSelfOrParent
    while let candidate = masked {
      for mask in candidate.rulesLock.withLock({ candidate.masks }) {
        excluded.insert(mask.structuralKey)
      }
      masked = candidate.liveParent
    }
    var scope: InjectionScope? = liveSelfOrParent
    while let candidate = scope {
      let decided = Self.$entered.withValue(candidate) {
        candidate.rulesLock.withLock { candidate.rules.decisionAndLevel(for: property, excluding: excluded) }
      }
      if let decided { return (decided.decision ?? nil, decided.level) }
      scope = candidate.liveParent
    }
    let decided = log.decisionAndLevel(for: property, excluding: excluded)
    return (decided?.decision ?? nil, decided?.level ?? 0)
  }

  /// The live scopes enclosing this one, outermost first.
  private func enclosingLiveScopes() -> [InjectionScope] {
    var scopes: [InjectionScope] = []
    var scope = liveParent
    while let candidate = scope {
      scopes.insert(candidate, at: 0)
      scope = candidate.liveParent
    }
    return scopes
  }

  /// Rebuilds the rules the masks are evaluated over (commit lock held): the copy taken at the scope's
  /// first mask — the process's rules, then each enclosing scope's (their rules decide before the
  /// process's) — without any rule a mask of this scope or an enclosing one retracts. Later masks take
  /// more rules out of that copy; nothing refreshes it.
  private func rebuildMaskedView(log: RuleLog, enclosing: [InjectionScope]) {
    let view = RuleLog()
    var allMasks = rulesLock.withLock { masks }
    if let earlier = rulesLock.withLock({ maskedView }) {
      view.restore(earlier.saved())
    } else {
      view.restore(log.saved())
      for scope in enclosing {
        let (saved, masks) = scope.rulesLock.withLock { (scope.rules.saved(), scope.masks) }
        view.append(saved)
        allMasks += masks
      }
    }
    for mask in allMasks { view.record(.retract(mask)) }
    rulesLock.withLock { maskedView = view }
  }

  /// The classes the rules of this scope and its enclosing ones name (commit lock held).
  func namedClasses() -> [AnyClass] {
    var named: [AnyClass] = []
    var scope: InjectionScope? = liveSelfOrParent
    while let candidate = scope {
      named += candidate.rulesLock.withLock { candidate.rules.namedClasses() }
      scope = candidate.liveParent
    }
    return named
  }

  /// The level of the rule of this scope or an enclosing one that decides `property` (see
  /// ``PropertySelection/level(for:)``), `nil` when none does (commit lock held).
  func decidingLevel(for property: PropertyDescriptor) -> Int? {
    var scope: InjectionScope? = liveSelfOrParent
    while let candidate = scope {
      if let level = candidate.rulesLock.withLock({ candidate.rules.decidingLevel(for: property) }) { return level }
      scope = candidate.liveParent
    }
    return nil
  }

  /// What this scope's own rules decide for `property`, evaluated as a task inside this scope would:
  /// plugins' builders may consult their ``ScopedState``s, and the thread asking (one creating a slot,
  /// or a task of a nested scope) may see other copies of them, or none.
  private func ruleDecision(for property: PropertyDescriptor) -> AnyPropertyInjection?? {
    if Self.entered === self { return rulesLock.withLock { ownDecision(for: property) } }
    return Self.$entered.withValue(self) { rulesLock.withLock { ownDecision(for: property) } }
  }

  /// This scope's rules' decision for `property`, then — for a property a retraction of an enclosing rule
  /// reaches — what the enclosing rules decide without the retracted ones (`rulesLock` held).
  private func ownDecision(for property: PropertyDescriptor) -> AnyPropertyInjection?? {
    if let decided = rules.decision(for: property) { return decided }
    guard let maskedView, masks.contains(where: { $0.matches(property) }) else { return nil }
    return .some(maskedView.decision(for: property) ?? nil)
  }

  /// Records committed changes (commit lock held) and switches off the fast path of every existing slot
  /// they select; returns the answers unpublished, to retire after the lock. A scope that has ended (a
  /// task that outlived it commits) keeps the changes to itself: they apply nowhere, and no slot's fast
  /// path is switched off, as `end()` — which ran under the commit lock before — would not switch it on.
  ///
  /// A retraction of a rule the scope does not hold (an enclosing scope's or the process's, such as a
  /// module added outside the scope) cannot remove it from there: the scope keeps it as a mask. For the
  /// properties a mask's selection reaches (classes met later included), the scope decides what the
  /// enclosing rules decide without the masked ones — evaluated over a copy of those rules taken at the
  /// scope's first mask (`log` is the process's, commit lock held), so their later changes do not reach
  /// these properties inside the scope.
  func record(_ changes: [InjectionRules.Change], log: RuleLog) -> [UInt] {
    guard isLive.load(ordering: .acquiring) else { return [] }
    let enclosing = enclosingLiveScopes()
    let masked = rulesLock.withLock { () -> Bool in
      var masked = false
      for change in changes {
        if case .retract(let selection) = change, !rules.holdsRule(withKey: selection.structuralKey) {
          masks.append(selection)
          masked = true
          continue
        }
        rules.record(change)  // in commit order
      }
      return masked
    }
    // The copy is taken at a retraction only: the scope's other commits leave it as it was.
    if masked { rebuildMaskedView(log: log, enclosing: enclosing) }
    let dropped = lock.withLock {  // released after the lock
      decisionsVersion += 1
      defer { decisions = [:] }
      return decisions
    }
    withExtendedLifetime(dropped) {}
    return SlotRegistry.shared.allSlots().compactMap(overrideIfSelected)
  }

  /// Switches off the fast path of `slot` if this scope's rules select it and it has not yet; returns
  /// the unpublished answer (commit lock held).
  func overrideIfSelected(_ slot: InjectionSlot) -> UInt? {
    guard ruleDecision(for: slot.property) != nil else { return nil }
    return lock.withLock { () -> UInt? in
      guard !overriddenSlots.contains(where: { $0 === slot }) else { return nil }
      overriddenSlots.append(slot)
      return slot.beginOverride()
    }
  }

  // MARK: Filled values

  /// What fills inside this scope or an enclosing one kept for `object`'s property: `.some(value)`,
  /// `.some(nil)` when a write inside the scope emptied the property since, `nil` when none filled it.
  @usableFromInline
  func filledValue(of object: AnyObject, slot: InjectionSlot) -> Any?? {
    let id = ObjectIdentifier(object)
    var scope: InjectionScope? = self
    while let candidate = scope {
      let kept = candidate.lock.withLock { () -> Any?? in
        guard let entry = candidate.filled[id], Self.isEntry(entry, for: object) else { return nil }
        return entry.values[ObjectIdentifier(slot)]
      }
      if let kept { return kept }
      scope = candidate.liveParent
    }
    return nil
  }

  /// Forgets the values fills inside this scope and its enclosing ones kept for `object`'s property, after
  /// a write to it from inside the scope: the instance's storage decides again, as outside scopes (an
  /// optional set to `nil` is filled again, or stays `nil` for a "once" fill).
  @usableFromInline
  func forgetFilledValue(of object: AnyObject, slot: InjectionSlot) {
    let id = ObjectIdentifier(object)
    var released: [Any] = []  // released after the locks: a deinit may read properties
    var scope: InjectionScope? = self
    while let candidate = scope {
      candidate.lock.withLock {
        guard let entry = candidate.filled[id], Self.isEntry(entry, for: object),
          let value = entry.values[ObjectIdentifier(slot)] ?? nil
        else { return }
        candidate.filled[id]?.values[ObjectIdentifier(slot)] = .some(nil)
        released.append(value)
      }
      scope = candidate.liveParent
    }
    _ = released
  }

  /// Keeps `value`, which a fill created from this scope's overrides, for `object`'s property until the
  /// instance is deallocated or the scope ends (the instance itself never stores it, so it cannot reach
  /// other tasks). Returns the value kept: `value`, or one kept before (fills of one instance's property
  /// run under its field lock, so that happens only when a caller did not look first).
  @usableFromInline
  func keepFilledValue(_ value: Any, of object: AnyObject, slot: InjectionSlot) -> Any {
    let id = ObjectIdentifier(object)
    if let kept = lock.withLock({ keepHoldingLock(value, inEntryOf: object, slot: slot) }) { return kept }
    // The instance's first value in this scope: its deallocation observation first, outside the lock (it
    // may hook the class), then the entry — unless another thread made one meanwhile.
    let observation = Injection.onDeallocation(of: object) { [weak self] in self?.instanceDied(id) }
    var earlier: InstanceFills?  // an earlier object's at the same address, released after the lock
    let (kept, isNew) = lock.withLock { () -> (Any, Bool) in
      if let kept = keepHoldingLock(value, inEntryOf: object, slot: slot) { return (kept, false) }
      let entry = InstanceFills(owner: object, values: [ObjectIdentifier(slot): value], ownerDeath: observation)
      earlier = filled.updateValue(entry, forKey: id)
      return (value, true)
    }
    if !isNew { observation.cancel() }
    earlier?.ownerDeath.cancel()
    return kept
  }

  /// ``keepFilledValue(_:of:slot:)`` when the scope has an entry for `object` or has ended (lock held):
  /// the value kept, `nil` when a new entry is needed.
  private func keepHoldingLock(_ value: Any, inEntryOf object: AnyObject, slot: InjectionSlot) -> Any? {
    // An ended scope keeps nothing (`end()` cleared `filled` after marking it ended, under this lock).
    guard isLive.load(ordering: .acquiring) else { return value }
    guard let entry = filled[ObjectIdentifier(object)], Self.isEntry(entry, for: object) else { return nil }
    if let kept = entry.values[ObjectIdentifier(slot)] ?? nil { return kept }
    filled[ObjectIdentifier(object)]?.values[ObjectIdentifier(slot)] = .some(value)  // after a write emptied it
    return value
  }

  /// Releases what the scope kept for an instance that was deallocated (outside the lock: a value's
  /// deinit may read properties).
  private func instanceDied(_ id: ObjectIdentifier) {
    let released = lock.withLock { () -> Any? in
      guard let entry = filled[id] else { return nil }
      // A later object at the address keeps its entry: a live one (its strong reference, read here, is
      // released after the lock: that object may lose its last other reference meanwhile), or one whose
      // deinit runs (its deallocation is still awaited).
      if let owner = entry.owner { return owner }
      if entry.ownerDeath.isAwaitingDeallocation { return nil }
      return filled.removeValue(forKey: id)
    }
    withExtendedLifetime(released) {}
  }

  /// Whether `entry` is `object`'s (which the caller holds, so no other live object is at its address):
  /// its owner is `object` — or, while `object`'s deinit runs (weak references to an object read `nil`
  /// from the start of its deinit, which may read its properties: review H76), its deallocation
  /// observation is on `object`'s own action list. An entry of a dead earlier object at the address has
  /// its observation on that object's list, which is gone or being released (review H77: a new object
  /// made at that address before the old one's observers ran took the old values for its own).
  private static func isEntry(_ entry: InstanceFills, for object: AnyObject) -> Bool {
    if let owner = entry.owner { return owner === object }
    guard ik_owner_is_deallocating(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())) != 0 else {
      return false
    }
    return entry.ownerDeath.watches(object)
  }
}

/// The scopes active in the process, so that a slot created while they last learns their overrides.
/// Changed only under the commit lock.
enum ActiveScopes {
  /// By identity, so that ending one of many scopes costs no scan of the others.
  static let list = LockedState<[ObjectIdentifier: InjectionScope]>([:])

  /// Switches off the fast path of a new slot that an active scope's rules select (commit lock held);
  /// returns the answers to retire (none: a new slot has published nothing).
  static func applyToNewSlot(_ slot: InjectionSlot) {
    let scopes = list.withLock { Array($0.values) }
    for scope in scopes { _ = scope.overrideIfSelected(slot) }
  }
}

extension Injection {
  /// An identity of the override scope the calling task's commits go to (its innermost scope, see
  /// ``withOverrides(_:_:)-(_,()->Result)``), `nil` outside scopes. Plugins keep per-scope bookkeeping
  /// with it — InjectPlugin calls a module's `unload()` only when the scope that added the module removes
  /// it. Compare it only while the scope can be alive: identities of ended scopes may be reused.
  public static var overrideScopeID: ObjectIdentifier? {
    InjectionScope.forChanges.map(ObjectIdentifier.init)
  }

  /// Whether the override scope the calling task's commits go to has ended: a task that outlived its
  /// scope (or code running in an ended child injector) commits into it, and what it commits applies
  /// nowhere. A plugin whose verb has effects beyond its rules (InjectPlugin's `addModule` runs the
  /// module's `configure`) checks it, so that it does not start what no scope end will ever undo.
  /// `false` outside scopes.
  public static var overrideScopeHasEnded: Bool {
    guard let scope = InjectionScope.forChanges else { return false }
    return !scope.isActive
  }
}

/// The reads of what a scope decides made by one measured factory (see
/// ``InjectionScope/measuringDependencies(_:)``), and by the tasks it starts: a task-local, so that other
/// tasks of the scope do not add to it.
final class DependencyReads: Sendable {
  let count = Atomic<Int>(0)
  @TaskLocal static var current: DependencyReads?
}
