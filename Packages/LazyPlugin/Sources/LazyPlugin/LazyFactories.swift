import InjectionKernel

/// A registered way to build `@Lazy` values: for one value type, or for the properties a selection
/// matches.
struct LazyFactory: Sendable {
  enum Scope: Sendable {
    case type(ObjectIdentifier)
    case selection(PropertySelection)
  }

  let scope: Scope
  let make: @Sendable (AnyObject) -> Any

  func applies(to property: PropertyDescriptor) -> Bool {
    switch scope {
    case .type(let id):
      // A factory for `T` also serves `T?` properties.
      let wrapped = Injection.wrappedType(ofOptional: property.valueType)
      return id == ObjectIdentifier(property.valueType) || wrapped.map { ObjectIdentifier($0) == id } == true
    case .selection(let selection): return selection.matches(property)
    }
  }

  /// Whether `newer` makes this factory unreachable: the same scope (the same type, or a selection of
  /// the same properties), so every property this one applies to takes the newer one.
  func isReplaced(by newer: LazyFactory) -> Bool {
    switch (scope, newer.scope) {
    case (.type(let old), .type(let new)): return old == new
    case (.selection(let old), .selection(let new)): return old.selectsTheSameProperties(as: new)
    default: return false
    }
  }

  /// Per-property factories win over per-type ones.
  var precedence: Int {
    if case .selection = scope { return 1 }
    return 0
  }
}

/// The committed factories. A creation asks for the newest factory of the highest precedence that
/// applies, so registering a factory before or after `injectLazy()` makes no difference. They are
/// ``ScopedState``: a registration inside an override scope stays in it. A registration drops the
/// factories it replaces (the same type, or a selection of the same properties), so re-registering does
/// not keep older factories — and what they capture — alive; factories of selections filtered by other
/// closures than the newer's, which cannot be compared, stay until `rejectLazy()`.
final class LazyFactories: Sendable {
  static let shared = LazyFactories()

  /// Layered: a scope's copy keeps its own registrations apart and makes them again on a newer value
  /// beneath it, so factories the process registers later show through in a scope (a child injector, a
  /// test) that registered one of its own.
  private let factories = ScopedState(
    LayeredList<LazyFactory>(replacing: { older, newer in older.isReplaced(by: newer) }),
    layering: LayeredList<LazyFactory>.layering)

  /// Adds factories, dropping those they replace (released after the commit running on the thread, if
  /// any: what a factory captured may use the kernel in its deinit).
  func register(_ new: [LazyFactory]) {
    Injection.releaseAfterTheCommit(factories.update { list in new.flatMap { list.add($0) } })
  }

  /// Forgets every factory (`rejectLazy()`), released after the commit running on the thread, if any.
  func removeAll() {
    Injection.releaseAfterTheCommit(factories.update { $0.removeAll() })
  }

  func factory(for property: PropertyDescriptor, pending: [LazyFactory] = []) -> LazyFactory? {
    let all = factories.value.elements + pending
    return all.enumerated().filter { $0.element.applies(to: property) }
      .max { ($0.element.precedence, $0.offset) < ($1.element.precedence, $1.offset) }?.element
  }

  func canBuild(_ property: PropertyDescriptor, pending: [LazyFactory]) -> Bool {
    factory(for: property, pending: pending) != nil
  }

  /// Counts registrations in the process, so that a property's ``LazyMaker`` looks its factory up again
  /// only after one.
  var version: Int { factories.processVersion }

  /// Whether the calling task sees an override scope's factories (never cached).
  var isOverridden: Bool { factories.isOverriddenForCurrentTask }
}

/// Creates the values of one `@Lazy` property: its factory, looked up once per registration of new
/// factories (not once per instance), else its type's `LazyConstructible` `init()`, opened once.
///
/// Runs unspecialized (the injection is built for a property whose type is only known at run time), so
/// the per-instance path avoids what costs a generic metadata lookup there: the factory is found by a
/// non-generic ``LazyFactoryChoice``, and a factory's value is cast in a function of its own.
final class LazyMaker<Value>: Sendable {
  private let property: PropertyDescriptor
  private let construct: (@Sendable () -> Value)?
  private let choice: LazyFactoryChoice

  init(property: PropertyDescriptor) {
    self.property = property
    construct = LazyConstruction.constructor(of: Value.self)
    choice = LazyFactoryChoice(property: property)
  }

  /// Whether the value type's own `LazyConstructible` `init()` can build values without a factory.
  var canConstruct: Bool { construct != nil }

  /// A new value for the property of `target`.
  func make(for target: AnyObject) -> Value {
    if let make = choice.make(for: target) { return value(from: make, for: target) }
    return constructed()
  }

  private func value(from make: @Sendable (AnyObject) -> Any, for target: AnyObject) -> Value {
    if let value = make(target) as? Value { return value }
    return constructed()
  }

  private func constructed() -> Value {
    guard let construct else {
      Injection.stop(
        "\(property) cannot be built by @Lazy: no factory is registered and it does not conform to "
          + "LazyConstructible; register one with Injection.injectLazy(\(Injection.metatypeExpression(of: Value.self))) { … }."
      )
    }
    return construct()
  }
}

/// The factory that currently applies to one property: the process's, cached until the next
/// registration, or the calling task's override scope's (never cached).
final class LazyFactoryChoice: Sendable {
  private let property: PropertyDescriptor
  /// Only the factory's closure is cached: a creation copies it out under the lock, and copying the
  /// whole factory (its scope, a selection) cost more than the lock. By the instance's class: a factory
  /// given for a subclass applies to its instances whichever rule turned the property on.
  private let cache = LockedState<[ObjectIdentifier: (version: Int, make: (@Sendable (AnyObject) -> Any)?)]>([:])

  init(property: PropertyDescriptor) { self.property = property }

  /// The closure of the factory that applies now to `target`'s property (as `target`'s class sees it),
  /// `nil` if none does.
  func make(for target: AnyObject) -> (@Sendable (AnyObject) -> Any)? {
    let cls: AnyClass = type(of: target)
    if LazyFactories.shared.isOverridden { return LazyFactories.shared.factory(for: seen(from: cls))?.make }
    let version = LazyFactories.shared.version
    let id = ObjectIdentifier(cls)
    if let cached = cache.withLock({ $0[id] }), cached.version == version { return cached.make }
    let found = LazyFactories.shared.factory(for: seen(from: cls))?.make  // outside the lock: it reads rules
    cache.withLock { $0[id] = (version, found) }
    return found
  }

  /// The property as instances of `cls` see it: its view from `cls` when `cls` inherits it.
  private func seen(from cls: AnyClass) -> PropertyDescriptor {
    cls == property.viewingClass ? property : property.viewed(from: cls) ?? property
  }
}
