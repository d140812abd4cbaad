import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value created once, by the first read of any instance, and then shared by all of them.
///
/// Concurrent first reads create exactly one value: the creator runs under a lock and the others wait.
/// A read of the value from inside its own creation, on the creating thread (an initializer that reads a
/// property needing the value being created: a cycle), does not wait for itself: it calls `onReentry`
/// if one was given, and otherwise stops with a message naming the value's type. A cycle through
/// several threads — one creating `A` needs `B`, which another is creating and which needs `A`, or a
/// property another thread is filling whose factory needs `A` — stops too (its creation lock is a
/// ``BuildLock``), rather than leaving the threads waiting for each other.
public final class SharedValue<Value>: @unchecked Sendable {  // `value` is guarded by `lock`
  /// Guards `value`, held only to read or store it: never while `create` runs, so that what reads or
  /// resets the value without creating it (a fast read's publication, a snapshot, a restore holding the
  /// commit lock while a creation waits for that lock) never waits for a creation.
  private let lock = KernelLock()
  /// Serializes creations: concurrent first reads create one value, the others wait here. Its waits join
  /// the kernel's cycle check (``BuildLock``).
  private let creationLock = BuildLock()
  private var value: Value?
  private let create: @Sendable () -> Value
  private let onReentry: (@Sendable () -> Value)?
  /// The thread creating the value (`pthread_self()` bits), 0 when none is.
  private let creator = Atomic<UInt>(0)

  /// For a value made once elsewhere (see ``init(onceElsewhere:keptElsewhere:)``, whose `create` runs
  /// outside `lock`): whether the source `create` asks keeps a value of its own for some scope now.
  private let keptElsewhere: (@Sendable () -> Bool)?
  /// How many live override scopes keep a value of their own for this one (made from their overrides):
  /// while any does, the process's value is not published to the read fast path, which does not look
  /// for scopes — those scopes' reads take the slow path and find their own.
  private let scopesKeeping = Atomic<Int>(0)

  /// A shared value that `create` builds on first use; `onReentry` answers a read made from inside
  /// `create` on its own thread (a plugin that tracks what it is building reports the cycle there).
  public init(_ create: @escaping @Sendable () -> Value, onReentry: (@Sendable () -> Value)? = nil) {
    self.create = create
    self.onReentry = onReentry
    keptElsewhere = nil
    SnapshotParticipants.register(self)
  }

  /// A shared value whose creation already happens once elsewhere — a container's singleton, built under
  /// the container's own lock, which `create` returns to every caller. `create` runs outside this value's
  /// lock, so a thread waiting for that creation waits in the container, which can see a cycle through
  /// several threads; the first value stored is the one every read outside override scopes gets.
  ///
  /// Inside a scope every read asks `create`: the source knows the scope's own value. `keptElsewhere`
  /// tells whether the source keeps a value for some scope now; meanwhile this one's value is not
  /// published to fast reads (which do not look for scopes).
  public init(onceElsewhere create: @escaping @Sendable () -> Value, keptElsewhere: @escaping @Sendable () -> Bool) {
    self.create = create
    onReentry = nil
    self.keptElsewhere = keptElsewhere
    SnapshotParticipants.register(self)
  }

  /// The value, created now if this is the first use. A value created inside an override scope from
  /// its overrides stays in that scope (``Injection/keepInScope(_:for:replacing:)``): the process's value is
  /// created later, outside, from the process's.
  public func get() -> Value {
    if creator.load(ordering: .relaxed) == Self.currentThread {
      if let onReentry { return onReentry() }
      stopForCycleOnThisThread()
    }
    if keptElsewhere != nil {
      // Made once elsewhere: in a scope the source decides (it keeps the scope's own value); outside, its
      // value is cached.
      if InjectionScope.anyActive, InjectionScope.current != nil { return create() }
      if let value = lock.withLock({ value }) { return value }
      let created = create()
      return lock.withLock {
        if let value { return value }
        value = created
        return created
      }
    }
    // Unwrapped before the cast: `nil as Any?` would cast to an optional `Value`.
    if let kept = Injection.scopeKeptValue(for: self), let value = kept as? Value { return value }
    if let value = lock.withLock({ value }) { return value }
    // The same thread creating it was handled above; a thread that waits, directly or through others,
    // for a value this thread is creating or a property it is filling would wait for ever.
    switch creationLock.lock() {
    case .taken: break
    case .heldByThisThread: stopForCycleOnThisThread()
    case .wouldDeadlock:
      Injection.stop(
        "A shared \(Injection.typeName(Value.self)) was read while another thread was creating it, and that "
          + "creation waits, directly or through other threads' creations and fills, for a value this thread "
          + "is creating or a property it is filling: a cycle across threads, which would wait for ever.")
    }
    defer { creationLock.unlock() }
    if let value = lock.withLock({ value }) { return value }
    creator.store(Self.currentThread, ordering: .relaxed)
    defer { creator.store(0, ordering: .relaxed) }
    let (created, dependsOnScope) = Injection.makeShared(create)
    if dependsOnScope { return Injection.keepInScope(created, for: self) as? Value ?? created }
    lock.withLock { value = created }
    return created
  }

  private func stopForCycleOnThisThread() -> Never {
    Injection.stop(
      "A shared \(Injection.typeName(Value.self)) was read while it was being created, on the same thread: "
        + "its creation needs itself (a cycle).")
  }

  /// Whether the value has been created.
  public var isCreated: Bool { lock.withLock { value != nil } }

  /// Whether an override scope keeps a value of its own for this one, or for the source it asks.
  public var isKeptByAScope: Bool {
    scopesKeeping.load(ordering: .acquiring) > 0 || keptElsewhere?() == true
  }

  /// The value if it has been created, without creating it; `nil` while an override scope keeps a value
  /// of its own for this one or its source (this is what slots publish to fast reads).
  @usableFromInline var createdValue: Value? {
    // Asked from inside this value's own creation (its factory reads a property with the same injection,
    // whose answer is being built): no value yet — the read's slow path then reports the cycle.
    if creator.load(ordering: .relaxed) == Self.currentThread { return nil }
    // The value first, then the count: a scope keeps its own value before the process's is stored (under
    // this lock, or under the source's build lock), so whoever sees the process's value sees the count.
    guard let value = lock.withLock({ value }) else { return nil }
    return isKeptByAScope ? nil : value
  }

  private static var currentThread: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }
}

extension SharedValue: SnapshotParticipant {
  /// Puts back the value (or its absence) of the snapshot's moment: one created since is created again.
  public func captureForSnapshot() -> @Sendable () -> Void {
    // A shared value is read by every instance on every thread already (its verbs take Sendable values or
    // ones the caller vouches for): holding it in the snapshot adds no sharing.
    let captured = UncheckedSendable(lock.withLock { value })
    return { [self] in
      let replaced = lock.withLock { () -> Value? in
        defer { value = captured.value }
        return value
      }
      // Released outside this lock, and after the commit lock that a restore holds: its deinit may
      // read properties or commit.
      RuleLog.shared.keepUntilUnlocked(replaced as Any)
    }
  }
}

extension SharedValue: ScopeKeptValueOwner {
  /// Counts a scope keeping a value of its own for this one.
  public func scopeStartedKeeping() { scopesKeeping.add(1, ordering: .acquiringAndReleasing) }
  /// Counts that scope's end.
  public func scopeStoppedKeeping() { scopesKeeping.subtract(1, ordering: .acquiringAndReleasing) }
}
