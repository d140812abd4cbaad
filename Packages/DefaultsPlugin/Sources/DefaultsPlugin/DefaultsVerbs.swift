public import InjectionKernel

/// Chooses a property's key from its descriptor (DeluxeInjection's key block); a key in the declaration
/// wins over it.
public typealias DefaultsKeyChooser = @Sendable (PropertyDescriptor) -> String
/// Chooses a property's store from its descriptor (DeluxeInjection's defaults block).
public typealias DefaultsStoreChooser = @Sendable (PropertyDescriptor) -> any DefaultsStore

extension InjectionRules {
  /// Turns every `@Defaults` and `@ArchivedDefaults` property on: reads and writes go to the store.
  ///
  /// - Parameters:
  ///   - key: the key of each property whose declaration names none (default: the property's name). A
  ///     key it returns empty makes the commit throw `InjectionError.rejected` for that property.
  ///   - store: the store of each property (default: `UserDefaults.standard`), unless
  ///     ``useDefaultsStore(_:)`` overrides it.
  ///
  /// The commit throws `InjectionError.rejected` for `@Defaults` properties whose type is not a
  /// property-list type (``PropertyListValue``), naming each of them; nothing is applied then.
  public func injectDefaults(key: DefaultsKeyChooser? = nil, store: DefaultsStoreChooser? = nil) {
    injectDefaults(PropertySelection(plugin: DefaultsPlugin.id), key: key, store: store)
  }

  /// Turns on the `@Defaults` and `@ArchivedDefaults` properties declared by `classes` (or their
  /// subclasses) only. Naming a class without such a property throws `InjectionError.selectionMatchesNothing`.
  /// A class's inherited properties get this rule's key and store for that class's instances (and its
  /// subclasses') only: a subclass can keep its settings in a store of its own.
  public func injectDefaults(
    in classes: AnyClass..., key: DefaultsKeyChooser? = nil, store: DefaultsStoreChooser? = nil
  ) {
    injectDefaults(PropertySelection(plugin: DefaultsPlugin.id).declared(in: classes), key: key, store: store)
  }

  fileprivate func injectDefaults(
    _ selection: PropertySelection, key: DefaultsKeyChooser?, store: DefaultsStoreChooser?
  ) {
    onCommit(DefaultsObservation.post)  // a property may read another store (or start reading one) now
    add(to: selection, intent: "Defaults.turnOn") { property in
      guard let marker = property.markerType as? any DefaultsMarker.Type else { return nil }
      let ruleKey =
        key.map { key in
          Injection.runningAppCode("the key closure given to injectDefaults(key:)") { key(property) }
        } ?? property.name
      guard !ruleKey.isEmpty else {
        throw InjectionError.rejected(
          property: property.description,
          reason: "the rule's key closure chose an empty key, under which no store keeps a value")
      }
      let ruleStore = store.map { store in
        Injection.runningAppCode("the store closure given to injectDefaults(store:)") { store(property) }
      }
      return try marker.makeInjection(for: property, ruleKey: ruleKey, ruleStore: ruleStore)
    }
  }

  /// Turns every `@Defaults` and `@ArchivedDefaults` property off: each is a plain stored property again
  /// (holding its initial value); nothing stored is removed.
  public func rejectDefaults() {
    onCommit(DefaultsObservation.post)
    rejectAll(plugin: DefaultsPlugin.id)
  }

  /// Turns off the `@Defaults` and `@ArchivedDefaults` properties of `classes` (or their subclasses)
  /// only, declared or inherited: those classes' instances read and write them as plain stored
  /// properties, while the declaring class's other subclasses keep using the store.
  public func rejectDefaults(in classes: AnyClass...) {
    rejectDefaults(in: classes)
  }

  fileprivate func rejectDefaults(in classes: [AnyClass]) {
    onCommit(DefaultsObservation.post)
    turnOff(PropertySelection(plugin: DefaultsPlugin.id).declared(in: classes))
  }

  /// Makes every `@Defaults` and `@ArchivedDefaults` property read and write `store`, whatever store its
  /// rule chose (`nil`: each rule's store again). Inside `Injection/withOverrides(_:_:)-(_,()->Result)`
  /// it applies to that task and its child tasks only, which is how a test keeps off real settings:
  ///
  /// ```swift
  /// try Injection.withOverrides({ lets in lets.useDefaultsStore(InMemoryDefaultsStore()) }) { … }
  /// ```
  public func useDefaultsStore(_ store: (any DefaultsStore)?) {
    onCommit {
      DefaultsPlugin.storeOverride.replace(with: store)
      DefaultsObservation.post()
    }
  }

  /// Calls `handler` when a `@Defaults` read meets bad stored data (a value of another type, an archive
  /// that no longer decodes) or a write cannot archive its value — once per property until the problem
  /// changes or goes away. It runs on the reading thread while the instance's storage is locked, so it
  /// must not access that instance's marked properties. Scoped like ``useDefaultsStore(_:)``.
  public func onDefaultsProblem(_ handler: (@Sendable (DefaultsProblem) -> Void)?) {
    onCommit { DefaultsPlugin.problemHandler.replace(with: handler) }
  }
}

extension Injection {
  /// Turns every `@Defaults` and `@ArchivedDefaults` property on at once (see
  /// ``InjectionRules/injectDefaults(key:store:)``).
  @discardableResult
  public static func injectDefaults(key: DefaultsKeyChooser? = nil, store: DefaultsStoreChooser? = nil) throws
    -> InjectionPlan
  {
    let rules = InjectionRules()
    rules.injectDefaults(key: key, store: store)
    return try commit(rules)
  }

  /// Turns on the `@Defaults` and `@ArchivedDefaults` properties declared by `classes` at once.
  @discardableResult
  public static func injectDefaults(
    in classes: AnyClass..., key: DefaultsKeyChooser? = nil, store: DefaultsStoreChooser? = nil
  ) throws -> InjectionPlan {
    let rules = InjectionRules()
    rules.injectDefaults(PropertySelection(plugin: DefaultsPlugin.id).declared(in: classes), key: key, store: store)
    return try commit(rules)
  }

  /// Turns every `@Defaults` and `@ArchivedDefaults` property off at once.
  @discardableResult
  public static func rejectDefaults() throws -> InjectionPlan {
    let rules = InjectionRules()
    rules.rejectDefaults()
    return try commit(rules)
  }

  /// Turns off the `@Defaults` and `@ArchivedDefaults` properties of `classes` at once (see
  /// ``InjectionRules/rejectDefaults(in:)``).
  @discardableResult
  public static func rejectDefaults(in classes: AnyClass...) throws -> InjectionPlan {
    let rules = InjectionRules()
    rules.rejectDefaults(in: classes)
    return try commit(rules)
  }

  /// Makes every `@Defaults` property use `store` (see ``InjectionRules/useDefaultsStore(_:)``).
  public static func useDefaultsStore(_ store: (any DefaultsStore)?) throws {
    let rules = InjectionRules()
    rules.useDefaultsStore(store)
    try commit(rules)
  }

  /// Sets the handler of bad stored data (see ``InjectionRules/onDefaultsProblem(_:)``).
  public static func onDefaultsProblem(_ handler: (@Sendable (DefaultsProblem) -> Void)?) throws {
    let rules = InjectionRules()
    rules.onDefaultsProblem(handler)
    try commit(rules)
  }
}
