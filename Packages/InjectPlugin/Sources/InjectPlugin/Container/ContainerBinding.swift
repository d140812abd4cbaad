import InjectionKernel
import Synchronization

/// How long a value a binding builds lives.
enum BindingLifetime: Sendable {
  /// Built on every resolve, and for every instance's first read (the instance keeps it).
  case provider
  /// Built once, on first use, and shared.
  case singleton
  /// Built once, when the rules commit, and shared.
  case eagerSingleton
  /// Shared while someone holds it; built again after the last holder let go.
  case weakShared
}

/// The factory behind a container binding, and the value it keeps for its lifetime. The binding's
/// `@Inject` injection (a rule like any other) reads through it, and so does `resolve`, which reaches
/// it through ``BindingRegistry`` to get typed errors instead of the stop a property read makes.
final class ContainerBinding<Value>: AnyContainerBinding, @unchecked Sendable {
  // `kept` is guarded by its lock, builds by `building`; everything else is immutable.
  let lifetime: BindingLifetime
  let make: @Sendable (Resolver) throws -> Value
  /// `Module.Service` or `Module.Service named "primary"`, for cycles and stops.
  let display: String
  private let kept = LockedState<Kept>(.none)
  /// Held while a singleton or weak-shared value is built, so that it is built once; `kept` is only
  /// locked briefly, so a reentrant resolve on the building thread reaches the cycle check. A kernel
  /// ``BuildLock``: its waits join the kernel's cycle check, so a cycle through this build and a shared
  /// value's creation or a property's fill on other threads is refused too (found by review H73: such a
  /// cycle waited for ever, each check seeing only its own kind of lock).
  private let building = BuildLock()
  /// How many live override scopes keep a value of their own for this binding.
  private let scopesKeeping = Atomic<Int>(0)
  /// Where the binding was made: the child injector or override whose rules its factory's resolver
  /// keeps resolving under (see ``Resolver``), or the process.
  private let home = InjectionContext.current

  private enum Kept {
    case none
    case value(Value)
    case weak(WeakReference)
  }

  init(_ lifetime: BindingLifetime, display: String, make: @escaping @Sendable (Resolver) throws -> Value) {
    self.lifetime = lifetime
    self.display = display
    self.make = make
    Injection.takePartInSnapshots(self)
  }

  /// The value for a resolve with `arguments` (used by a singleton's first build only).
  func resolve(arguments: [Any]) throws -> Value {
    switch lifetime {
    case .provider:
      return try build(arguments)
    case .singleton, .eagerSingleton, .weakShared:
      if let value = existingValue() { return value }
      // Checked before waiting for the build lock: this thread building it already would wait for itself,
      // and a thread building it that waits (through others, perhaps) for this one would wait forever.
      let id = ObjectIdentifier(self)
      try ResolutionChain.check(id, named: display)
      try ResolutionChain.willWait(for: id, named: display)
      guard building.lock() == .taken else {
        // Not this thread building it (checked above): a cycle through another kind of lock.
        throw ResolutionChain.gaveUpWaiting(for: display)
      }
      defer { building.unlock() }
      ResolutionChain.holds(id)
      defer { ResolutionChain.released(id) }
      if let value = existingValue() { return value }
      let (value, dependsOnScope) = try Injection.makeShared { try build(arguments) }
      // Built from an override scope's bindings (a test's fake, say): the value stays in that scope (weakly
      // for weak-shared), and the process's is built later, outside, from the process's bindings.
      if dependsOnScope {
        guard lifetime == .weakShared else { return Injection.keepInScope(value, for: self) as? Value ?? value }
        let kept = Injection.keepInScope(WeakReference(value as AnyObject), for: self) {
          ($0 as? WeakReference)?.object == nil
        }
        return (kept as? WeakReference)?.object as? Value ?? value
      }
      kept.withLock { $0 = lifetime == .weakShared ? .weak(WeakReference(value as AnyObject)) : .value(value) }
      return value
    }
  }

  /// Whether an override scope keeps a value of its own for this binding now: its `@Inject` properties'
  /// shared value then publishes nothing to fast reads.
  var isKeptByAScope: Bool { scopesKeeping.load(ordering: .acquiring) > 0 }

  /// The value the calling task gets without a build: its override scope's first — one made from the
  /// scope's overrides stays the scope's, whatever the process has built since, and a weak-shared one
  /// that died is made again in the scope — else the process's.
  private func existingValue() -> Value? {
    switch scopeKept() {
    case .value(let value): value
    case .gone: nil
    case .none: keptValue()
    }
  }

  /// What the calling task's override scope keeps for this binding.
  private enum ScopeKept {
    /// Nothing: the process's value applies.
    case none
    /// A weak-shared value made from the scope's overrides that died: the scope makes a new one.
    case gone
    case value(Value)
  }

  private func scopeKept() -> ScopeKept {
    // Unwrapped before the cast: `nil as Any?` would cast to an optional `Value`.
    guard let kept = Injection.scopeKeptValue(for: self) else { return .none }
    if let reference = kept as? WeakReference {
      guard let value = reference.object as? Value else { return .gone }
      return .value(value)
    }
    guard let value = kept as? Value else { return .none }
    return .value(value)
  }

  /// The value kept for the binding's lifetime, if there is one now.
  private func keptValue() -> Value? {
    switch kept.withLock({ $0 }) {
    case .none: nil
    case .value(let value): value
    case .weak(let reference): reference.object as? Value
    }
  }

  /// The value for an `@Inject` property's read, which cannot throw: a failure stops with its message.
  /// `ofStructOrStatic`: the read is of a struct's or a `static` property (type-keyed, not cataloged).
  func valueForRead(ofStructOrStatic: Bool = false) -> Value {
    do {
      return try resolve(arguments: [])
    } catch {
      let failing =
        ofStructOrStatic
        ? "an @Inject \(Injection.typeName(Value.self)) property of a struct or a static property"
        : Injection.innermostPropertyBeingRead?.description
      // The read the user's code made first, then the one (made while building its value) that failed.
      if let outer = Injection.propertyBeingRead, let failing, failing != outer.description {
        Injection.stop(
          "\(outer.description) was read; building its value read \(failing), and building \(display) for that "
            + "failed: \(error)")
      }
      guard let failing else { Injection.stop("Building \(display) for an @Inject property failed: \(error)") }
      Injection.stop("\(failing) was read, and building \(display) for it failed: \(error)")
    }
  }

  func resolveAny(arguments: [Any]) throws -> Any { try resolve(arguments: arguments) }

  var valueType: Any.Type { Value.self }

  private func build(_ arguments: [Any]) throws -> Value {
    try ResolutionChain.building(ObjectIdentifier(self), named: display) {
      let value = try make(Resolver(arguments: arguments, home: home))
      (value as? any InjectionCompletion)?.injectionDidComplete()
      return value
    }
  }
}

/// A container binding, whatever its value type.
protocol AnyContainerBinding: AnyObject, Sendable {
  /// The type of the values it builds.
  var valueType: Any.Type { get }

  /// The value for a resolve, type-erased.
  func resolveAny(arguments: [Any]) throws -> Any
}

/// The container bindings behind injections, by injection identity: `resolve` gets an injection from the
/// rules and asks here whether a binding stands behind it.
///
/// Both are held weakly: the injection's read closure holds its binding, so a binding — and the value it
/// keeps, a singleton say — lives exactly as long as its injection, and goes when a newer rule, a
/// rejection or a module's removal releases that. Dead entries are dropped from time to time.
enum BindingRegistry {
  /// A class, so that a lookup retains it rather than copying a weak reference.
  private final class Entry {
    weak var injection: AnyPropertyInjection?
    weak var binding: (any AnyContainerBinding)?

    init(injection: AnyPropertyInjection, binding: any AnyContainerBinding) {
      self.injection = injection
      self.binding = binding
    }
  }

  private struct Entries {
    var byInjection: [ObjectIdentifier: Entry] = [:]
    var insertionsSincePrune = 0
  }

  private static let entries = LockedState(Entries())

  /// Records that `binding` stands behind `injection` (for as long as the injection lives).
  static func register(_ binding: any AnyContainerBinding, for injection: AnyPropertyInjection) {
    entries.withLock { entries in
      entries.byInjection[ObjectIdentifier(injection)] = Entry(injection: injection, binding: binding)
      entries.insertionsSincePrune += 1
      if entries.insertionsSincePrune > 64, entries.insertionsSincePrune > entries.byInjection.count / 2 {
        entries.byInjection = entries.byInjection.filter { $0.value.injection != nil }
        entries.insertionsSincePrune = 0
      }
    }
  }

  /// The binding behind `injection`, or behind the rule it was made from for an optional property.
  static func binding(for injection: AnyPropertyInjection) -> (any AnyContainerBinding)? {
    let source = injection.unwrappedSource ?? injection
    return entries.withLock { entries in
      guard let entry = entries.byInjection[ObjectIdentifier(source)], entry.injection === source else { return nil }
      return entry.binding
    }
  }
}

extension ContainerBinding: ScopeKeptValueOwner {
  /// Counts a scope keeping a value of its own for this binding.
  func scopeStartedKeeping() { scopesKeeping.add(1, ordering: .acquiringAndReleasing) }
  /// Counts that scope's end.
  func scopeStoppedKeeping() { scopesKeeping.subtract(1, ordering: .acquiringAndReleasing) }
}

extension ContainerBinding: SnapshotParticipant {
  /// Puts back the value kept at the snapshot's moment (or none): a singleton built since, from what was
  /// injected then, is built again on next use.
  func captureForSnapshot() -> @Sendable () -> Void {
    // The kept value is shared by every resolve and read already: holding it in the snapshot adds no
    // sharing.
    let captured = UncheckedSendable(kept.withLock { $0 })
    return { [self] in
      let replaced = kept.withLock { current -> Kept in
        defer { current = captured.value }
        return current
      }
      // Released outside this lock, and after the commit lock that a restore holds: its deinit may
      // read properties or commit.
      Injection.releaseAfterTheCommit(replaced)
    }
  }
}
