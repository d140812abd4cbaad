import InjectionKernel

/// Injections selected by type alone, kept per value type for `@Inject` in structs and `static`
/// properties, which have no class-level slot. A ``ScopedState``, so override scopes reach them too.
final class TypeKeyedInjections: Sendable {
  static let shared = TypeKeyedInjections()

  /// What a rule selected by type alone gives struct and `static` properties of the type.
  enum Entry: @unchecked Sendable {  // payloads are immutable; the values are shared like any injection
    /// A value.
    case value(Any)
    /// A shared value created on first use, or a binding asked on every read.
    case shared(() -> Any)
    /// An object held weakly: it while it lives, then nothing (`weak(_:)`).
    case weak(WeakReference)
    /// A rule that needs an instance (a getter, a setter, an `ifNil` factory): it reaches class
    /// properties only, and gives struct and `static` properties nothing. `verb` names it for the read
    /// that then finds nothing ("a getter", "an ifNil factory").
    case classesOnly(verb: String)
  }

  /// The entries, layered: a scope's copy keeps its own settings apart and applies them again on a newer
  /// value beneath it, so the process's later injections for other types show through in a scope (a
  /// child injector) that set one of its own. A copy holds the entries it inherits weakly: a value the
  /// process replaces while another task's scope is open is released then, not when that scope next
  /// reads an entry.
  private let entries = ScopedState(
    Entries(),
    layering: ScopeLayering(
      begin: { $0.beginningScopeCopy() }, rebase: { copy, beneath in beneath.replaying(copy) },
      reading: { $0.heldStrongly() }))

  /// The value injected for `type`, if any; for `T?` with nothing injected for it, the value injected for `T`.
  func value<Value>(of type: Value.Type) -> Value? {
    switch entry(for: type) {
    case .value(let value): return value as? Value
    case .shared(let make): return make() as? Value
    case .weak(let reference): return reference.object.flatMap { $0 as? Value }
    case .classesOnly, nil: return nil
    }
  }

  /// What names the rule for `type` that reaches class properties only (``Entry/classesOnly(verb:)``),
  /// if that is the rule struct and `static` properties of `type` find: for the message of a read that
  /// finds nothing.
  func classesOnlyVerb<Value>(of type: Value.Type) -> String? {
    guard case .classesOnly(let verb) = entry(for: type) else { return nil }
    return verb
  }

  /// The entry for `type`; for `T?` with none of its own, the entry for `T`.
  private func entry(for type: Any.Type) -> Entry? {
    let entries = entries.value.byType
    return entries[ObjectIdentifier(type)]?.value
      ?? Injection.wrappedType(ofOptional: type).flatMap { entries[ObjectIdentifier($0)]?.value }
  }

  /// Sets or (with `nil`) removes the injection for the type `id` identifies. The replaced entry is
  /// released after the commit running on the thread, if any (its value's deinit may use the kernel).
  func set(_ entry: Entry?, forTypeWithID id: ObjectIdentifier) {
    let replaced = entries.update { $0.set(entry, forTypeWithID: id) }
    Injection.releaseAfterTheCommit(replaced as Any)
  }

  /// Records, into a batch, setting (or with `nil` removing) the injection for the type `id` identifies
  /// when the batch commits.
  static func setting(_ entry: Entry?, forTypeWithID id: ObjectIdentifier) -> @Sendable (InjectionRules) -> Void {
    { batch in batch.onCommit { shared.set(entry, forTypeWithID: id) } }
  }

  /// Records, into a batch, forgetting an override scope's own setting for the type `id` identifies when
  /// the batch commits, so that what lies beneath the scope shows again (in the process's value, where
  /// nothing lies beneath: removing the injection).
  static func showingBeneath(forTypeWithID id: ObjectIdentifier) -> @Sendable (InjectionRules) -> Void {
    { batch in
      batch.onCommit {
        Injection.releaseAfterTheCommit(shared.entries.update { $0.showBeneath(forTypeWithID: id) } as Any)
      }
    }
  }

  /// Removes every type-keyed injection (released after the commit running on the thread, if any).
  func removeAll() {
    let removed = entries.update { $0.removeAll() }
    Injection.releaseAfterTheCommit(removed)
  }

  /// The entries by type, and in a scope's copy the scope's own changes.
  private struct Entries: Sendable {
    private(set) var byType: [ObjectIdentifier: ScopeHeld<Entry>] = [:]
    /// A scope's own settings (`nil`: removed) since its first change, and whether it removed everything
    /// beneath first; `nil` in the process's value. Each setting keeps its entry's holder, so that a copy
    /// rebuilt on a newer value beneath holds the same entries, which the copies of enclosed scopes hold
    /// weakly.
    private var own: (entries: [ObjectIdentifier: ScopeHeld<Entry>?], clearedBeneath: Bool)?

    mutating func set(_ entry: Entry?, forTypeWithID id: ObjectIdentifier) -> ScopeHeld<Entry>? {
      set(entry.map { ScopeHeld($0) }, forTypeWithID: id)
    }

    private mutating func set(_ held: ScopeHeld<Entry>?, forTypeWithID id: ObjectIdentifier) -> ScopeHeld<Entry>? {
      own?.entries[id] = .some(held)
      defer { byType[id] = held }
      return byType[id]
    }

    /// In a scope's copy, forgets the scope's own setting for the type `id` identifies; the entry then
    /// reads as let go of, so the copy is built again on what lies beneath before the next read. In the
    /// process's value, removes the entry.
    mutating func showBeneath(forTypeWithID id: ObjectIdentifier) -> ScopeHeld<Entry>? {
      guard own != nil else { return byType.removeValue(forKey: id) }
      own?.entries[id] = nil
      defer { byType[id] = ScopeHeld<Entry>.letGo }
      return byType[id]
    }

    mutating func removeAll() -> [ObjectIdentifier: ScopeHeld<Entry>] {
      if own != nil { own = ([:], true) }
      defer { byType = [:] }
      return byType
    }

    /// A scope's first copy of this value: the entries held weakly (the value beneath keeps them), the
    /// scope's own changes recorded from now on.
    func beginningScopeCopy() -> Entries {
      var copy = self
      copy.byType = byType.mapValues { $0.weakly() }
      copy.own = ([:], false)
      return copy
    }

    /// This value holding every entry strongly, for a read; `nil` when one held weakly is gone.
    func heldStrongly() -> Entries? {
      var read = self
      for (id, held) in byType {
        guard let strong = held.strongly() else { return nil }
        read.byType[id] = strong
      }
      return read
    }

    /// This value (one beneath a scope) with the changes `copy`, the scope's copy, made of itself.
    func replaying(_ copy: Entries) -> Entries {
      var rebuilt = beginningScopeCopy()
      guard let own = copy.own else { return rebuilt }
      if own.clearedBeneath { _ = rebuilt.removeAll() }
      for (id, held) in own.entries { _ = rebuilt.set(held, forTypeWithID: id) }
      return rebuilt
    }
  }
}
