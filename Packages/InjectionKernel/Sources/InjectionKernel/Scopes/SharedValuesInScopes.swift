/// Values a plugin shares between instances or requests — a container's singleton, a ``SharedValue`` —
/// made inside an override scope: one that depends on the scope's overrides stays in the scope, as a
/// fill's value does, instead of becoming the process's for every task.
extension Injection {
  /// Runs `make` and tells whether what it made depends on the calling task's override scope: it read a
  /// scope's injection, a scope's copy of a ``ScopedState``, or a value a scope keeps. Outside scopes it
  /// never does. What `make` reads counts, and what the tasks it starts read: another task of the scope
  /// reading its overrides meanwhile does not make the value the scope's.
  ///
  /// ```swift
  /// let (value, dependsOnScope) = try Injection.makeShared { try factory(resolver) }
  /// if dependsOnScope { return Injection.keepInScope(value, for: binding) as! Value }
  /// ```
  public static func makeShared<Value>(_ make: () throws -> Value) rethrows -> (value: Value, dependsOnScope: Bool) {
    guard InjectionScope.anyActive, InjectionScope.current != nil else { return (try make(), false) }
    return try InjectionScope.measuringDependencies(make)
  }

  /// The value the calling task's override scope (or an enclosing one) keeps for `owner` — the object
  /// standing for one shared value — if any.
  public static func scopeKeptValue(for owner: AnyObject) -> Any? {
    guard InjectionScope.anyActive, let scope = InjectionScope.current else { return nil }
    return scope.sharedValue(for: owner)
  }

  /// Keeps `value` for `owner` in the calling task's innermost override scope, until the scope ends,
  /// and returns the value kept: `value`, or one another task of the scope kept first unless `isStale`
  /// says that one is no longer good (a weak reference whose object is gone). Outside scopes (or in an
  /// ended one) nothing is kept and `value` is returned. `isStale` runs outside the scope's locks, on the
  /// kept value, and may be called more than once when tasks of the scope keep values at the same moment;
  /// a value it finds stale is replaced only if no other task replaced it meanwhile (then the newer one is
  /// judged). What it releases may be anything, an instance the scope keeps values for included.
  public static func keepInScope(_ value: Any, for owner: AnyObject, replacing isStale: (Any) -> Bool = { _ in false })
    -> Any
  {
    guard InjectionScope.anyActive, let scope = InjectionScope.current else { return value }
    return scope.keepSharedValue(value, for: owner, replacing: isStale)
  }
}

/// An object standing for a shared value that override scopes may keep values of their own for (see
/// ``Injection/keepInScope(_:for:replacing:)``): told when a scope starts keeping one for it and when that
/// scope ends, so that it can count them — and, while any does, not hand its process value to what does
/// not look for scopes (a slot's published answer).
public protocol ScopeKeptValueOwner: AnyObject {
  /// A scope kept a value for this owner (called once per scope).
  func scopeStartedKeeping()
  /// A scope that kept a value for this owner ended.
  func scopeStoppedKeeping()
}
