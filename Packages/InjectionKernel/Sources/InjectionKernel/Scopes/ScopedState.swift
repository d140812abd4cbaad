import Synchronization

/// Plugin-wide state that an override scope can replace for its own task: a registry of factories, a
/// settings store, container bindings.
///
/// A plugin keeps state that its injections consult at read time in one of these, rather than in a
/// plain global, so that ``Injection/withOverrides(_:_:)-(_,()->Result)`` and the testing traits can give one task
/// its own copy while every other task keeps the process's. Reading ``value`` inside a scope that changed
/// it returns the scope's copy; changing it with ``update(_:)`` inside a scope changes the scope's copy
/// only, and leaving the scope brings back exactly what was there.
///
/// ```swift
/// enum AuditPlugin {
///   static let sink = ScopedState<[String]>([])
/// }
/// rules.onCommit { AuditPlugin.sink.update { $0.append("committed") } }  // a scope's commit stays in it
/// ```
///
/// A value created by a `.fill` factory that read a scope's copy is kept by that scope rather than by the
/// instance, so a value built from an override never outlives the scope or reaches another task.
/// ``Injection/snapshot()`` captures every `ScopedState`'s process value.
///
/// A scope's copy is a snapshot of what its task saw at the scope's first change: changes made beneath
/// the scope afterwards (by the process, or an enclosing scope) do not reach it. A *layered* state
/// (``init(_:layering:whenAScopeEnds:)``) keeps a scope's own changes apart instead and applies them again
/// on what lies beneath whenever that changes — for registries that scopes add to, such as a container's
/// bindings, where a binding the process makes later must show through in a child injector.
///
/// A scope's copy must not keep alive what lies beneath it once that lets go (a value the process
/// replaces while another task's scope is open is released then): ``LayeredList`` copies hold what they
/// inherit weakly, and a snapshot whose values hold rules or values is made by a `scopeCopy` function that
/// does the same (``init(_:scopeCopy:whenAScopeEnds:)``).
public final class ScopedState<Value: Sendable>: Sendable {
  @usableFromInline let process: LockedState<Value>
  @usableFromInline let changes = Atomic<Int>(0)
  /// How a scope's copy follows what lies beneath it, for a layered state; `nil`: a scope's copy is a
  /// snapshot.
  let layering: ScopeLayering<Value>?
  /// Makes a scope's copy of a plain state from the value its task saw (see
  /// ``init(_:scopeCopy:whenAScopeEnds:)``); `nil`: that value itself.
  let scopeCopy: (@Sendable (Value) -> Value)?
  /// For a layered state, counts changes of the value anywhere — the process's and every scope's: a
  /// scope copy built at the current count is up to date.
  let revisions = Atomic<Int>(0)

  /// State whose process value starts as `initial`.
  public init(_ initial: Value) {
    process = LockedState(initial)
    layering = nil
    scopeCopy = nil
    ScopedStateRegistry.register(self, whenAScopeEnds: nil)
  }

  /// State whose process value starts as `initial`, and which is told when an override scope that
  /// changed it ends: `scopeEnded` gets the scope's last copy and the scope's identity (what
  /// ``Injection/overrideScopeID`` was inside it), after the scope's rules stopped applying and outside
  /// the kernel's locks — to release what the scope's copy acquired (InjectPlugin unloads the modules
  /// a test or a child injector added).
  public init(_ initial: Value, whenAScopeEnds scopeEnded: @escaping @Sendable (Value, ObjectIdentifier) -> Void) {
    process = LockedState(initial)
    layering = nil
    scopeCopy = nil
    ScopedStateRegistry.register(self, whenAScopeEnds: scopeEnded)
  }

  /// State whose process value starts as `initial`, and whose override scopes make their copies with
  /// `scopeCopy`, from the value their task saw at their first change (the process's, or an enclosing
  /// scope's copy). A copy is a snapshot: what it holds stays alive as long as the scope, also after the
  /// process let go of it. A state that holds values the process releases when it replaces them
  /// (rules, factories) makes copies that hold what they inherit weakly, so that a scope running in
  /// another task meanwhile does not keep the process's replaced values alive; what the scope adds to
  /// its copy itself it holds as usual. `scopeEnded`, if given, is told as in ``init(_:whenAScopeEnds:)``.
  ///
  /// ```swift
  /// static let registry = ScopedState(Registry(), scopeCopy: { $0.holdingInheritedWeakly() })
  /// ```
  public init(
    _ initial: Value, scopeCopy: @escaping @Sendable (Value) -> Value,
    whenAScopeEnds scopeEnded: (@Sendable (Value, ObjectIdentifier) -> Void)? = nil
  ) {
    process = LockedState(initial)
    layering = nil
    self.scopeCopy = scopeCopy
    ScopedStateRegistry.register(self, whenAScopeEnds: scopeEnded)
  }

  /// Layered state whose process value starts as `initial`: a scope's copy is what lies beneath the
  /// scope (its parent scope's view, or the process's value) with the scope's own changes on top, and
  /// it follows changes made beneath it after its first change — a binding the process adds later shows
  /// through in a child injector that bound something else before. `layering` says how a copy keeps its
  /// own changes and how they are applied again on a newer value beneath (see ``ScopeLayering``);
  /// `scopeEnded`, if given, is told as in ``init(_:whenAScopeEnds:)``.
  public init(
    _ initial: Value, layering: ScopeLayering<Value>,
    whenAScopeEnds scopeEnded: (@Sendable (Value, ObjectIdentifier) -> Void)? = nil
  ) {
    process = LockedState(initial)
    self.layering = layering
    scopeCopy = nil
    ScopedStateRegistry.register(self, whenAScopeEnds: scopeEnded)
  }

  /// The value the calling task sees: its innermost scope's copy if a scope changed it, otherwise the
  /// process's.
  ///
  /// Inlinable with its scope-free path first, so that reading it while no scope is active costs a lock
  /// and a copy, specialized for `Value`.
  @inlinable
  public var value: Value {
    if InjectionScope.anyActive, let scoped = scopedValue() { return scoped }
    return process.withLock { $0 }
  }

  /// The copy of the calling task's innermost scope, if one changed it.
  @usableFromInline
  func scopedValue() -> Value? {
    guard let scope = InjectionScope.current else { return nil }
    return scope.stateValue(of: self)
  }

  /// Changes the value the calling task sees: the copy of its innermost scope (made from what the task
  /// saw, on the scope's first change) when it runs inside one, otherwise the process's. The change is
  /// made in place: if `body` throws, what it changed before throwing stays.
  @discardableResult
  public func update<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    if InjectionScope.anyActive || InjectionScope.entered != nil, let scope = InjectionScope.forChanges {
      return try scope.updateState(of: self, startingFrom: { self.value }, body)
    }
    defer { noteProcessChange() }
    // In place: a copy would make every change copy the whole state (a batch of n rules: O(n²)).
    return try process.withLock { value in try body(&value) }
  }

  /// Replaces the value the calling task sees with `newValue`, as `update { $0 = newValue }` would, and
  /// releases the old one after the commit running on the thread, if any. What an
  /// ``InjectionRules/onCommit(_:)`` action uses to replace a plugin's setting: the old value's deinit may
  /// read properties or commit, which under the commit lock would wait for itself (see
  /// ``Injection/releaseAfterTheCommit(_:)``).
  ///
  /// ```swift
  /// rules.onCommit { AuditPlugin.sink.replace(with: []) }
  /// ```
  public func replace(with newValue: Value) {
    let replaced = update { current in
      defer { current = newValue }
      return current
    }
    Injection.releaseAfterTheCommit(replaced)
  }

  /// Whether the calling task sees a scope's copy rather than the process's value.
  @inlinable
  public var isOverriddenForCurrentTask: Bool {
    InjectionScope.anyActive && scopedValue() != nil
  }

  /// Counts changes of the process value, for caches of values derived from it (a scope's copy is never
  /// cached: check ``isOverriddenForCurrentTask`` first).
  @inlinable
  public var processVersion: Int { changes.load(ordering: .acquiring) }

  /// The process value, whatever scope the caller is in (for snapshots).
  var processValue: Value { process.withLock { $0 } }

  /// Replaces the process value (restoring a snapshot). The replaced value is released after the commit
  /// lock, if the caller holds it, and outside this state's lock: a deinit may use the kernel.
  func restoreProcessValue(_ value: Value) {
    let replaced = process.withLock { current in
      defer { current = value }
      return current
    }
    noteProcessChange()
    RuleLog.shared.keepUntilUnlocked(replaced)
  }

  /// Counts a change of the process value; a layered state's scope copies are stale from now on (a plain
  /// state's copies are snapshots: its revisions are never read).
  private func noteProcessChange() {
    changes.add(1, ordering: .releasing)
    if layering != nil { revisions.add(1, ordering: .releasing) }
  }
}

/// How the copies of a layered ``ScopedState`` keep their scope's changes apart from what lies beneath:
/// `begin` makes a scope's copy at its first change from the value beneath it, and `rebase` makes a copy
/// again on a newer value beneath (replaying the changes the copy recorded of itself).
///
/// The value itself records its own changes: `begin` marks a copy as one that records (a process value
/// never does), each change made through the value's methods notes itself in the copy, and `rebase`
/// applies the noted changes to the newer value. Both run outside the kernel's locks and must not use
/// the state they belong to. For an ordered list of rules or factories, ``LayeredList`` and its
/// ``LayeredList/layering`` do all this; a value of another shape does it itself:
///
/// ```swift
/// struct Registry: Sendable {
///   var names: [String] = []
///   var added: [String]? = nil  // the scope's own changes; nil in the process value
///   mutating func add(_ name: String) {
///     names.append(name)
///     added?.append(name)
///   }
/// }
/// static let registry = ScopedState(
///   Registry(),
///   layering: ScopeLayering(
///     begin: { var copy = $0; copy.added = []; return copy },
///     rebase: { copy, beneath in
///       var rebuilt = beneath
///       rebuilt.added = []
///       for name in copy.added ?? [] { rebuilt.add(name) }
///       return rebuilt
///     }))
/// ```
public struct ScopeLayering<Value: Sendable>: Sendable {
  /// A scope's copy at its first change, made from the value beneath the scope.
  let begin: @Sendable (Value) -> Value
  /// `copy`'s own changes applied to `beneath`, a newer value beneath the scope.
  let rebase: @Sendable (_ copy: Value, _ beneath: Value) -> Value
  /// What a read in the scope gets from a copy (see ``init(begin:rebase:reading:)``); `nil`: the copy.
  let reading: (@Sendable (Value) -> Value?)?

  /// Layering with the two steps (see the type's documentation).
  public init(
    begin: @escaping @Sendable (Value) -> Value, rebase: @escaping @Sendable (_ copy: Value, _ beneath: Value) -> Value
  ) {
    self.begin = begin
    self.rebase = rebase
    reading = nil
  }

  /// Layering for a value whose scope copies hold what they inherit weakly (as ``LayeredList`` does), so
  /// that what lies beneath a scope is released when that lets go of it, not when the scope next reads.
  /// `reading` makes what a read in the scope gets from the scope's copy: the same value holding
  /// everything strongly, or `nil` when something it held weakly is gone — then the kernel builds the
  /// copy again on what lies beneath now (`rebase`) and asks again, so a read never misses an entry that
  /// was replaced at that moment: it gets the old one or the new one.
  public init(
    begin: @escaping @Sendable (Value) -> Value, rebase: @escaping @Sendable (_ copy: Value, _ beneath: Value) -> Value,
    reading: @escaping @Sendable (Value) -> Value?
  ) {
    self.begin = begin
    self.rebase = rebase
    self.reading = reading
  }
}

/// Every live ``ScopedState``, so that a snapshot can capture their process values. States are held
/// weakly: one that its owner dropped (a plugin's own injector, say) is skipped and forgotten.
enum ScopedStateRegistry {
  private struct Entry: @unchecked Sendable {  // `state` is only read; the closures are immutable
    weak var state: AnyObject?
    let capture: @Sendable (AnyObject) -> @Sendable () -> Void
    /// Puts the state's initial value back (for a state made after a snapshot).
    let reset: @Sendable (AnyObject) -> Void
    /// Tells the state that a scope holding a copy of it (`Any`, a `Value`) ended.
    let scopeEnded: (@Sendable (Any, ObjectIdentifier) -> Void)?
  }

  private static let entries = LockedState<[Entry]>([])

  static func register<Value>(
    _ state: ScopedState<Value>, whenAScopeEnds scopeEnded: (@Sendable (Value, ObjectIdentifier) -> Void)?
  ) {
    let initial = state.processValue
    var typeErasedScopeEnded: (@Sendable (Any, ObjectIdentifier) -> Void)?
    if let scopeEnded {
      typeErasedScopeEnded = { copy, scope in
        // A scope keeps only copies made by `updateState` from this state: always a `Value`.
        if let copy = copy as? Value { scopeEnded(copy, scope) }
      }
    }
    let entry = Entry(
      state: state,
      capture: { object in
        let state = unsafeDowncast(object, to: ScopedState<Value>.self)
        let saved = state.processValue
        return { state.restoreProcessValue(saved) }
      },
      reset: { object in unsafeDowncast(object, to: ScopedState<Value>.self).restoreProcessValue(initial) },
      scopeEnded: typeErasedScopeEnded)
    entries.withLock { entries in
      entries.removeAll { $0.state == nil }
      entries.append(entry)
    }
  }

  /// Tells the states that asked (``ScopedState/init(_:whenAScopeEnds:)``) that the scope `scope`, which
  /// held `copies` of states by their identity, ended. Call it outside the kernel's locks.
  static func scopeEnded(_ scope: ObjectIdentifier, copies: [ObjectIdentifier: Any]) {
    guard !copies.isEmpty else { return }
    let hooks = entries.withLock { entries in
      entries.compactMap { entry -> (ObjectIdentifier, @Sendable (Any, ObjectIdentifier) -> Void)? in
        guard let hook = entry.scopeEnded, let state = entry.state else { return nil }
        return (ObjectIdentifier(state), hook)
      }
    }
    for (id, hook) in hooks { if let copy = copies[id] { hook(copy, scope) } }
  }

  /// Captures every live state's process value; the closure puts them all back, and puts a state made
  /// since (a plugin's, first used after the snapshot) back to its initial value — what the process had
  /// of it at the snapshot.
  static func capture() -> @Sendable () -> Void {
    let live = entries.withLock { $0.compactMap { entry in entry.state.map { (entry, $0) } } }
    let restores = live.map { entry, state in entry.capture(state) }
    // The restores keep the captured states alive, so no state made later can reuse one's identity.
    let captured = Set(live.map { ObjectIdentifier($0.1) })
    return {
      for restore in restores { restore() }
      let later = entries.withLock { entries in
        entries.compactMap { entry in
          entry.state.flatMap { captured.contains(ObjectIdentifier($0)) ? nil : (entry, $0) }
        }
      }
      for (entry, state) in later { entry.reset(state) }
    }
  }
}
