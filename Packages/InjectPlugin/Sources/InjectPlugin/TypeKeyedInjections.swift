import InjectionKernel

/// Injections selected by type alone, kept per value type for `@Inject` in structs and `static`
/// properties, which have no class-level slot. A ``ScopedState``, so override scopes reach them too.
final class TypeKeyedInjections: Sendable {
  static let shared = TypeKeyedInjections()

  /// A value, or a shared value created on first use.
  enum Entry: @unchecked Sendable {  // payloads are immutable; the values are shared like any injection
    case value(Any)
    case shared(() -> Any)
  }

  private let entries = ScopedState<[ObjectIdentifier: Entry]>([:])

  /// The value injected for `type`, if any; for `T?` with nothing injected for it, the value injected for `T`.
  func value<Value>(of type: Value.Type) -> Value? {
    let entries = entries.value
    let entry =
      entries[ObjectIdentifier(type)]
      ?? Injection.wrappedType(ofOptional: type).flatMap { entries[ObjectIdentifier($0)] }
    switch entry {
    case .value(let value): return value as? Value
    case .shared(let make): return make() as? Value
    case nil: return nil
    }
  }

  /// Sets or (with `nil`) removes the injection for the type `id` identifies. The replaced entry is
  /// released after the commit running on the thread, if any (its value's deinit may use the kernel).
  func set(_ entry: Entry?, forTypeWithID id: ObjectIdentifier) {
    let replaced = entries.update { entries in
      defer { entries[id] = entry }
      return entries[id]
    }
    Injection.releaseAfterTheCommit(replaced as Any)
  }

  /// Records, into a batch, setting (or with `nil` removing) the injection for the type `id` identifies
  /// when the batch commits.
  static func setting(_ entry: Entry?, forTypeWithID id: ObjectIdentifier) -> @Sendable (InjectionRules) -> Void {
    { batch in batch.onCommit { shared.set(entry, forTypeWithID: id) } }
  }

  /// Removes every type-keyed injection (released after the commit running on the thread, if any).
  func removeAll() {
    entries.replace(with: [:])
  }
}
