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
  @usableFromInline static var current: InjectionScope? {
    var scope = entered
    while let candidate = scope, !candidate.isLive.load(ordering: .acquiring) { scope = candidate.parent }
    return scope
  }

  let parent: InjectionScope?
  private let isLive = Atomic<Bool>(true)
  /// Guards `states`, `decisions`, `overriddenSlots` and `filled`; never held while plugin code runs.
  private let lock = KernelLock()
  /// Guards `rules`, whose evaluation runs plugins' builders (which may read ``ScopedState``s).
  private let rulesLock = KernelLock()
  /// Serializes changes of the scope's state copies (their `update` closures run under it).
  private let updateLock = KernelLock()
  /// The scope's own copies of plugin states, by ``ScopedState`` identity.
  private var states: [ObjectIdentifier: Any] = [:]
  /// Reads of a state copy held by this scope or its parents, from tasks inside this scope; a fill whose
  /// factory made one keeps its value in the scope (see ``keepFilledValue(_:of:slot:)``).
  @usableFromInline let dependencyReads = Atomic<Int>(0)
  /// The rules committed inside the scope (an overlay: a property no rule of it selects falls through).
  let rules = RuleLog(overlay: true)
  /// What the scope's rules decide for each slot (`.some(nil)`: rejected), by slot identity.
  private var decisions: [ObjectIdentifier: AnyPropertyInjection??] = [:]
  /// Counts commits into the scope, so that a decision computed across one is not cached.
  private var decisionsVersion = 0
  /// The slots whose fast path this scope switched off.
  private var overriddenSlots: [InjectionSlot] = []
  /// Values that fills created inside the scope from its overrides, per instance and slot.
  private var filled: [FilledKey: FilledValue] = [:]

  private struct FilledKey: Hashable {
    let object: ObjectIdentifier
    let slot: ObjectIdentifier
  }

  private struct FilledValue {
    weak var owner: AnyObject?
    let value: Any
  }

  private init(parent: InjectionScope?) {
    self.parent = parent
  }

  // MARK: Entering and leaving

  /// A new scope inside the calling task's current one, active until ``end()``.
  static func begin() -> InjectionScope {
    let scope = InjectionScope(parent: current)
    RuleLog.shared.withCommitLock { _ in
      ActiveScopes.list.withLock { $0.append(scope) }
      activeCount.add(1, ordering: .acquiringAndReleasing)
    }
    return scope
  }

  /// Ends the scope: its overrides stop applying everywhere and the values it kept are released.
  func end() {
    let released: [FilledKey: FilledValue] = RuleLog.shared.withCommitLock { _ in
      isLive.store(false, ordering: .releasing)
      ActiveScopes.list.withLock { list in list.removeAll { $0 === self } }
      let slots = lock.withLock { overriddenSlots }
      for slot in slots { slot.endOverride() }
      Self.activeCount.subtract(1, ordering: .acquiringAndReleasing)
      return lock.withLock {
        defer { filled = [:] }
        return filled
      }
    }
    _ = released  // released here, outside every kernel lock: a value's deinit may read properties
  }

  // MARK: Plugin state

  /// The copy of `state` that this scope or its nearest parent holds, if any; counts the read.
  func stateValue<Value>(of state: ScopedState<Value>) -> Value? {
    let id = ObjectIdentifier(state)
    var scope: InjectionScope? = self
    while let candidate = scope {
      if let value = candidate.lock.withLock({ candidate.states[id] }) as? Value {
        dependencyReads.add(1, ordering: .relaxed)
        return value
      }
      scope = candidate.parent
    }
    return nil
  }

  /// Changes this scope's copy of `state`, made first from `seen` (what the task saw before).
  func updateState<Value, Result>(
    of state: ScopedState<Value>, startingFrom seen: () -> Value, _ body: (inout Value) throws -> Result
  ) rethrows -> Result {
    let id = ObjectIdentifier(state)
    return try updateLock.withLock {
      var copy = lock.withLock { states[id] as? Value } ?? seen()
      let result = try body(&copy)
      lock.withLock { states[id] = copy }
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
      scope = candidate.parent
    }
    return (slot.currentInjection, false)
  }

  /// This scope's own decision for `slot`: `nil` when none of its rules selects it.
  private func decision(for slot: InjectionSlot) -> AnyPropertyInjection?? {
    let id = ObjectIdentifier(slot)
    let (cached, version) = lock.withLock { (decisions[id], decisionsVersion) }
    if let cached { return cached }
    let decided = rulesLock.withLock { rules.decision(for: slot.property) }
    // A commit since `version` was read may have made `decided` stale: cache it only if none did.
    lock.withLock { if decisionsVersion == version { decisions[id] = decided } }
    return decided
  }

  /// The injection this scope and its parents give `property`, or the process's when none selects it
  /// (commit lock held; for planning a commit inside the scope).
  func plannedInjection(for property: PropertyDescriptor, log: RuleLog) -> AnyPropertyInjection? {
    var scope: InjectionScope? = self
    while let candidate = scope {
      if case .some(let decided) = candidate.rulesLock.withLock({ candidate.rules.decision(for: property) }) {
        return decided
      }
      scope = candidate.parent
    }
    if let slot = SlotRegistry.shared.existingSlot(for: property) { return slot.currentInjection }
    return log.injection(for: property)
  }

  /// Records committed changes (commit lock held) and switches off the fast path of every existing slot
  /// they select; returns the answers unpublished, to retire after the lock.
  func record(_ changes: [InjectionRules.Change]) -> [UInt] {
    rulesLock.withLock { for change in changes { rules.record(change) } }
    lock.withLock {
      decisionsVersion += 1
      decisions.removeAll()
    }
    return SlotRegistry.shared.allSlots().compactMap(overrideIfSelected)
  }

  /// Switches off the fast path of `slot` if this scope's rules select it and it has not yet; returns
  /// the unpublished answer (commit lock held).
  func overrideIfSelected(_ slot: InjectionSlot) -> UInt? {
    guard rulesLock.withLock({ rules.decision(for: slot.property) }) != nil else { return nil }
    return lock.withLock { () -> UInt? in
      guard !overriddenSlots.contains(where: { $0 === slot }) else { return nil }
      overriddenSlots.append(slot)
      return slot.beginOverride()
    }
  }

  // MARK: Filled values

  /// The value a fill inside this scope created for `object`'s property, if any.
  @usableFromInline
  func filledValue(of object: AnyObject, slot: InjectionSlot) -> Any? {
    let key = FilledKey(object: ObjectIdentifier(object), slot: ObjectIdentifier(slot))
    return lock.withLock {
      guard let entry = filled[key], entry.owner === object else { return nil }
      return entry.value
    }
  }

  /// Keeps `value`, which a fill created from this scope's overrides, for `object`'s property until the
  /// scope ends (the instance itself never stores it, so it cannot reach other tasks). Returns the value
  /// kept, which is another task's when two tasks of the scope filled at once.
  @usableFromInline
  func keepFilledValue(_ value: Any, of object: AnyObject, slot: InjectionSlot) -> Any {
    let key = FilledKey(object: ObjectIdentifier(object), slot: ObjectIdentifier(slot))
    return lock.withLock {
      if let entry = filled[key], entry.owner === object { return entry.value }
      // An entry whose owner died belongs to an earlier object at the same address: replace it.
      filled[key] = FilledValue(owner: object, value: value)
      return value
    }
  }
}

/// The scopes active in the process, so that a slot created while they last learns their overrides.
/// Changed only under the commit lock.
enum ActiveScopes {
  static let list = LockedState<[InjectionScope]>([])

  /// Switches off the fast path of a new slot that an active scope's rules select (commit lock held);
  /// returns the answers to retire (none: a new slot has published nothing).
  static func applyToNewSlot(_ slot: InjectionSlot) {
    let scopes = list.withLock { $0 }
    for scope in scopes { _ = scope.overrideIfSelected(slot) }
  }
}
