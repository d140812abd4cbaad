import InjectionKernel

/// A module being added or removed by the calling scope (``Injection/overrideScopeID``): claimed by one
/// thread at a time, so that two threads adding (or removing) the same module do not both configure (or
/// unload) it. A claim is held while user code runs (`configure`, eager singletons, `unload()`), but no
/// lock is: a thread that finds the module claimed returns or throws at once, never waits.
final class ModuleClaim: Sendable {
  enum Kind: Sendable { case adding, removing }

  private struct Key: Hashable {
    let kind: Kind
    let module: ObjectIdentifier
    let scope: ObjectIdentifier?
  }

  private static let claimed = LockedState(Set<Key>())

  private let key: Key

  /// A claim of `module` for `kind` by the calling scope, or `nil` when another thread holds one.
  /// The caller holds `module`, so its identity names no other object while claimed.
  init?(_ kind: Kind, _ module: any InjectionModule) {
    key = Key(kind: kind, module: ObjectIdentifier(module), scope: Injection.overrideScopeID)
    guard Self.claimed.withLock({ $0.insert(key).inserted }) else { return nil }
  }

  /// Modules that `rejectAll` removed while they were claimed for removal: their unload is the remover's.
  private static let handedOver = LockedState(Set<Key>())

  /// Leaves the unload of `module` to the thread removing it in the calling scope, if one is; returns
  /// whether one is (`rejectAll` then does not unload it).
  static func handOverUnload(of module: any InjectionModule) -> Bool {
    let key = Key(kind: .removing, module: ObjectIdentifier(module), scope: Injection.overrideScopeID)
    return claimed.withLock { claimed in
      guard claimed.contains(key) else { return false }
      handedOver.withLock { _ = $0.insert(key) }
      return true
    }
  }

  /// Whether `rejectAll` removed the module while this claim held it, leaving its unload to the claimer.
  var wasHandedOver: Bool { Self.handedOver.withLock { $0.contains(key) } }

  /// Ends the claim; returns whether `rejectAll` handed the module's unload over to it meanwhile. Under
  /// the lock `handOverUnload(of:)` takes: a `rejectAll` either saw the claim (and this returns `true`) or
  /// did not (and unloads the module itself).
  func release() -> Bool {
    Self.claimed.withLock { claimed in
      claimed.remove(key)
      return Self.handedOver.withLock { $0.remove(key) != nil }
    }
  }
}
