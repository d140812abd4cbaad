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

  /// Runs `remove` (`rejectAll` taking the calling scope's modules out of the container's state; it returns
  /// the modules it took out that the scope added) and returns those to unload: each one a thread is
  /// removing (claimed) is left to that removal, which unloads it on release if it has not. No claim is
  /// taken or released while this runs, so a removal that unloaded a module and then found it gone cannot
  /// release its claim between the module going and this looking for the claim (found by a stress test,
  /// once in about 40,000 rounds: both unloaded it).
  static func removing(_ remove: () -> [any InjectionModule]) -> [any InjectionModule] {
    let scope = Injection.overrideScopeID
    return claimed.withLock { claimed in
      remove().filter { module in
        let key = Key(kind: .removing, module: ObjectIdentifier(module), scope: scope)
        guard claimed.contains(key) else { return true }
        handedOver.withLock { _ = $0.insert(key) }
        return false
      }
    }
  }

  /// Whether `rejectAll` removed the module while this claim held it, leaving its unload to the claimer.
  var wasHandedOver: Bool { Self.handedOver.withLock { $0.contains(key) } }

  /// Ends the claim; returns whether `rejectAll` handed the module's unload over to it meanwhile. Under
  /// the lock `removing(_:)` holds: a `rejectAll` either saw the claim (and this returns `true`) or
  /// did not (and unloads the module itself).
  func release() -> Bool {
    Self.claimed.withLock { claimed in
      claimed.remove(key)
      return Self.handedOver.withLock { $0.remove(key) != nil }
    }
  }
}
