import Synchronization

/// Rules evaluated for a property that no class declares: what a marked property of a given type and
/// name would get under the current rules, for requests that have no instance — a container's
/// `resolve`. The calling task's override scopes apply, as they do to reads.
///
/// A detached property is declared by ``DetachedOwner``, which no class inherits from: rules that name
/// classes never select it; rules by type, by name, by plugin or by a predicate do, exactly as they
/// would select a property of that type and name in a class no rule names.
extension Injection {
  /// The injection the rules give the detached property of `markerType` (a specialization of the
  /// plugin's marker, such as `Inject<Settings>.self`) named `name`, as the calling task sees them; `nil`
  /// when no rule gives one. A rule for `T` that reaches `T?` properties gives a `T?` property its
  /// injection wrapped (see ``AnyPropertyInjection/unwrappedSource``).
  ///
  /// Outside override scopes the answer is cached until the next commit, so repeated requests take one
  /// lock and a dictionary lookup; inside one, the scope's rules are evaluated on every call.
  ///
  /// ```swift
  /// let injection = Injection.detachedInjection(of: Inject<Settings>.self)  // Inject: type Settings
  /// ```
  public static func detachedInjection(of markerType: any InjectionMarker.Type, named name: String = "")
    -> AnyPropertyInjection?
  {
    DetachedProperties.injection(of: markerType, named: name)
  }

  /// The descriptor of the detached property of `markerType` named `name` (declared by
  /// ``DetachedOwner``), as rules' predicates and builders see it.
  public static func detachedProperty(of markerType: any InjectionMarker.Type, named name: String = "")
    -> PropertyDescriptor
  {
    DetachedProperties.entry(of: markerType, named: name).property
  }
}

/// The declaring class of detached properties, and the object that getters and fill factories receive
/// as their target when a read has no instance (``Injection/detachedInjection(of:named:)``).
public final class DetachedOwner: Sendable {
  /// The one instance, passed as the target of instance-free reads.
  public static let instance = DetachedOwner()
  private init() {}
}

/// Detached properties' descriptors and the process's decisions for them, cached per configuration.
enum DetachedProperties {
  struct Key: Hashable {
    let markerType: ObjectIdentifier
    let name: String
  }

  final class Entry: @unchecked Sendable {  // `version` and `decision` are guarded by `cache`'s lock
    let property: PropertyDescriptor
    /// A slot that no registry knows, for the `original` accessor of getters.
    let slot: InjectionSlot
    /// The configuration version the decision was computed at (odd: none yet).
    var version: UInt = 1
    var decision: AnyPropertyInjection?

    init(property: PropertyDescriptor) {
      self.property = property
      slot = InjectionSlot(property: property, injection: nil)
    }
  }

  private static let cache = LockedState<[Key: Entry]>([:])
  /// Whether `cache` has ever held an entry: until then a commit need not touch it (creating it costs a
  /// conformance lookup for its key type, which scans every record of every image).
  private static let hasEntries = Atomic<Bool>(false)

  static func entry(of markerType: any InjectionMarker.Type, named name: String) -> Entry {
    let key = Key(markerType: ObjectIdentifier(markerType), name: name)
    if let entry = cache.withLock({ $0[key] }) { return entry }
    // Built outside the lock: a descriptor computes the type's readable name.
    let property = PropertyDescriptor(
      declaringClass: DetachedOwner.self, className: "Injection.resolve", name: name,
      valueType: markerType.valueType, markerType: markerType, fieldType: markerType, offset: -1, isMutable: true)
    return cache.withLock { entries in
      if let entry = entries[key] { return entry }
      let entry = Entry(property: property)
      entries[key] = entry
      hasEntries.store(true, ordering: .releasing)
      return entry
    }
  }

  static func injection(of markerType: any InjectionMarker.Type, named name: String) -> AnyPropertyInjection? {
    let key = Key(markerType: ObjectIdentifier(markerType), name: name)
    let scope = InjectionScope.anyActive ? InjectionScope.current : nil
    if scope == nil {
      let version = Injection.configurationVersion.load(ordering: .acquiring)
      let cached = cache.withLock { entries -> AnyPropertyInjection?? in
        guard let entry = entries[key], entry.version == version else { return nil }
        return .some(entry.decision)
      }
      if let cached { return cached }
    }
    let entry = entry(of: markerType, named: name)
    if let scope {
      let (injection, fromScope) = RuleLog.shared.withCommitLock { scope.plannedDecision(for: entry.property, log: $0) }
      // What is built from a scope's injection depends on the scope (see `Injection.makeShared(_:)`).
      if fromScope { InjectionScope.noteDependencyRead() }
      return injection
    }
    // The version only changes under the commit lock, and a commit records its rules before releasing
    // it: a decision made holding the lock belongs to the version read there.
    let (current, decision) = RuleLog.shared.withCommitLock { log in
      (Injection.configurationVersion.load(ordering: .acquiring), log.injection(for: entry.property))
    }
    cache.withLock { _ in
      // A commit in between forgot the decisions; this one may already be stale, so it is kept only if not.
      if Injection.configurationVersion.load(ordering: .acquiring) == current {
        entry.version = current
        entry.decision = decision
      }
    }
    return decision
  }

  /// Forgets every cached decision (commit lock held, after the rules changed), so the library keeps no
  /// replaced injection — nor its value — alive; returns them, to release after the lock.
  static func forgetDecisions() -> [AnyPropertyInjection] {
    // An entry created after this load has made no decision yet: decisions are made under the commit
    // lock, which the caller holds.
    guard hasEntries.load(ordering: .acquiring) else { return [] }
    return cache.withLock { entries in
      entries.values.compactMap { entry in
        defer {
          entry.version = 1
          entry.decision = nil
        }
        return entry.decision
      }
    }
  }
}

extension Injection {
  /// What the detached property of `Value`'s marker `markerType` named `name` reads with nothing stored,
  /// under `injection` (what ``detachedInjection(of:named:)`` returned for it): the value, the shared
  /// value, what a fill factory or a getter returns for ``DetachedOwner/instance``. `nil` when the
  /// injection leaves the property to its own behaviour and that has no value (a non-optional).
  ///
  /// A getter that asks `original` for the value of a non-optional gets the stop a read would.
  public static func detachedRead<Value>(
    _ injection: PropertyInjection<Value>, of markerType: any InjectionMarker.Type, named name: String = ""
  ) -> Value? {
    switch injection.read {
    case .value(let value): return value
    case .shared(let shared): return shared.get()
    case .fill(let factory, _): return factory(DetachedOwner.instance)
    case .original: return DetachedProperties.entry(of: markerType, named: name).slot.none(as: Value.self)
    case .getter(let getter):
      var storage: Value? = nil
      let slot = DetachedProperties.entry(of: markerType, named: name).slot
      return getter(DetachedOwner.instance, &storage, OriginalAccessor(slot: slot))
    }
  }
}
