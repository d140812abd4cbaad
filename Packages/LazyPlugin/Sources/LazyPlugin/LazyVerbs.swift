public import InjectionKernel

extension InjectionRules {
  /// Turns every `@Lazy` property on. Throws at commit time, naming the property, if a `@Lazy` type can
  /// be built by nothing (no factory, no ``LazyConstructible`` conformance).
  public func injectLazy() {
    injectLazy(PropertySelection(plugin: LazyPlugin.id))
  }

  /// Turns on the `@Lazy` properties declared by `classes` (or their subclasses) only — for an app that
  /// does not want to answer for a library's `@Lazy` properties, or a test that must not touch others'.
  /// A class's inherited `@Lazy` properties are turned on for that class's instances (and its
  /// subclasses') only.
  public func injectLazy(in classes: AnyClass...) {
    injectLazy(PropertySelection(plugin: LazyPlugin.id).declared(in: classes))
  }

  fileprivate func injectLazy(_ selection: PropertySelection) {
    let pending = lazyFactoryBatch
    add(to: selection, intent: LazyIntent.turnOn) { property in
      try Self.lazyInjection(for: property, once: false, pending: pending.factories)
    }
  }

  /// Registers `factory` for `@Lazy` properties of `type` (and of `type?`) and turns them on.
  ///
  /// ```swift
  /// lets.injectLazy(ImageCache.self) { ImageCache(limit: 64) }
  /// ```
  public func injectLazy<Value>(_ type: Value.Type, factory: @escaping @Sendable () -> Value) {
    let entry = LazyFactory(scope: .type(ObjectIdentifier(type)), make: { _ in factory() })
    let pending = lazyFactoryBatch
    pending.factories.append(entry)
    onCommit { LazyFactories.shared.register([entry]) }
    // The type and its optional, as `entry.applies(to:)` has it — structurally, so that this rule
    // replaces the one an earlier registration for the type made (a filter would keep every one).
    let selection = PropertySelection(plugin: LazyPlugin.id).ofType(type).includingOptionals()
    add(to: selection, intent: LazyIntent.turnOn) { property in
      try Self.lazyInjection(for: property, once: false, pending: pending.factories)
    }
  }

  /// Selects `@Lazy` properties of exactly `type`, to narrow and give a per-property factory or the
  /// "once" behaviour: `lets.lazy(Parser?.self).declared(in: Reader.self).create { _ in Parser(strict: true) }`.
  public func lazy<Value>(_ type: Value.Type) -> LazySelection<Value> {
    LazySelection(selection: PropertySelection(plugin: LazyPlugin.id).ofType(type), rules: self)
  }

  /// Turns every `@Lazy` property off: reads behave like plain stored properties again. Every registered
  /// factory (per type and per property) is removed too, so a later `injectLazy()` starts afresh.
  public func rejectLazy() {
    rejectAll(plugin: LazyPlugin.id)
    onCommit { LazyFactories.shared.removeAll() }
  }

  /// Turns off the `@Lazy` properties of `classes` (or their subclasses) only, declared or inherited:
  /// their reads behave like plain stored properties again for those classes' instances, while the
  /// declaring class's other subclasses keep theirs. Factories stay registered (a per-type factory serves
  /// every class); `injectLazy(in:)` turns the properties on again.
  public func rejectLazy(in classes: AnyClass...) {
    rejectLazy(in: classes)
  }

  fileprivate func rejectLazy(in classes: [AnyClass]) {
    turnOff(PropertySelection(plugin: LazyPlugin.id).declared(in: classes))
  }

  static func lazyInjection(for property: PropertyDescriptor, once: Bool, pending: [LazyFactory]) throws
    -> AnyPropertyInjection?
  {
    guard let marker = property.markerType as? any LazyMarker.Type else { return nil }
    return try marker.makeInjection(for: property, once: once, pending: pending)
  }

  /// The factories recorded in this batch, so `injectLazy()` accepts types whose factory comes later.
  fileprivate var lazyFactoryBatch: PendingLazyFactories {
    if let batch = self[PendingLazyFactoriesKey.self] { return batch }
    let batch = PendingLazyFactories()
    self[PendingLazyFactoriesKey.self] = batch
    return batch
  }
}

/// Some `@Lazy` properties, narrowed, and what they get.
public struct LazySelection<Value> {
  /// The selected properties.
  public let selection: PropertySelection
  let rules: InjectionRules

  /// Narrows to properties declared by `classes` or their subclasses, and to the properties these
  /// classes inherit, for their instances (and their subclasses') only: naming a subclass of the class
  /// that declares a property gives that subclass an injection of its own, while the declaring class
  /// keeps its own (`PropertySelection.declared(in:)` tells the precedence).
  public func declared(in classes: AnyClass...) -> LazySelection {
    LazySelection(selection: selection.declared(in: classes), rules: rules)
  }

  /// Narrows to properties with these names.
  public func named(_ names: String...) -> LazySelection {
    var narrowed = selection
    for name in names { narrowed = narrowed.named(name) }
    return LazySelection(selection: narrowed, rules: rules)
  }

  /// Narrows to properties for which `predicate` holds.
  public func filter(_ predicate: @escaping @Sendable (PropertyDescriptor) -> Bool) -> LazySelection {
    LazySelection(selection: selection.filter(predicate), rules: rules)
  }

  /// Says that the selection may match nothing now (it is meant for classes loaded later or generic
  /// specializations used later); otherwise a selection naming a class or a property name that matches
  /// nothing makes the commit throw `InjectionError.selectionMatchesNothing` with its near misses.
  public func mayMatchLater() -> LazySelection {
    LazySelection(selection: selection.mayMatchLater(), rules: rules)
  }

  /// Gives the selected properties their own factory (it wins over per-type factories) and turns them on.
  public func create(_ factory: @escaping @Sendable (_ target: AnyObject) -> Value) {
    let entry = LazyFactory(scope: .selection(selection), make: { factory($0) })
    rules.lazyFactoryBatch.factories.append(entry)
    rules.onCommit { LazyFactories.shared.register([entry]) }
    rules.add(
      PropertyInjection<Value>(read: .fill(factory, once: false), summary: "lazy (factory)"), to: selection,
      intent: LazyIntent.turnOn)
  }

  /// Turns the selected properties on with the "once" behaviour: created at most once per instance; after
  /// being set to `nil` they stay `nil`.
  public func once() {
    let pending = rules.lazyFactoryBatch
    rules.add(to: selection, intent: LazyIntent.turnOnOnce) { property in
      try InjectionRules.lazyInjection(for: property, once: true, pending: pending.factories)
    }
  }
}

/// What `@Lazy` rules are for: rules sharing one agree, so a property they both select is not reported as
/// selected by several rules (a per-type factory plus `injectLazy()` is one intent; `once()` is another).
enum LazyIntent {
  static let turnOn = "Lazy.turnOn"
  static let turnOnOnce = "Lazy.turnOnOnce"
}

/// Factories recorded in one batch and not yet committed.
///
/// `@unchecked Sendable`: appended while the batch is built, on one thread, and read by the batch's
/// commit on that same thread (builders run under the commit lock); never touched afterwards.
final class PendingLazyFactories: @unchecked Sendable {
  var factories: [LazyFactory] = []
}

private enum PendingLazyFactoriesKey: RuleOptionKey {
  static var defaultValue: PendingLazyFactories? { nil }
}

extension Injection {
  /// Turns every `@Lazy` property on at once (see ``InjectionRules/injectLazy()``).
  @discardableResult
  public static func injectLazy() throws -> InjectionPlan {
    let rules = InjectionRules()
    rules.injectLazy()
    return try commit(rules)
  }

  /// Turns on the `@Lazy` properties declared by `classes` (or their subclasses) at once.
  @discardableResult
  public static func injectLazy(in classes: AnyClass...) throws -> InjectionPlan {
    let rules = InjectionRules()
    rules.injectLazy(PropertySelection(plugin: LazyPlugin.id).declared(in: classes))
    return try commit(rules)
  }

  /// Registers a factory for `@Lazy` properties of `type` and turns them on at once.
  @discardableResult
  public static func injectLazy<Value>(_ type: Value.Type, factory: @escaping @Sendable () -> Value) throws
    -> InjectionPlan
  {
    let rules = InjectionRules()
    rules.injectLazy(type, factory: factory)
    return try commit(rules)
  }

  /// Turns every `@Lazy` property off at once.
  @discardableResult
  public static func rejectLazy() throws -> InjectionPlan {
    let rules = InjectionRules()
    rules.rejectLazy()
    return try commit(rules)
  }

  /// Turns off the `@Lazy` properties declared by `classes` (or their subclasses) at once.
  @discardableResult
  public static func rejectLazy(in classes: AnyClass...) throws -> InjectionPlan {
    let rules = InjectionRules()
    rules.rejectLazy(in: classes)
    return try commit(rules)
  }
}
