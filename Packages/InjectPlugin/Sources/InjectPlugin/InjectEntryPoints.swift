public import InjectionKernel

extension InjectionRules {
  /// Selects the `@Inject` properties declared with exactly the type `type` (a class, a struct, an
  /// optional or an existential such as `(any Analytics).self`).
  public func inject<Value>(_ type: Value.Type) -> InjectSelection<Value> {
    InjectSelection(
      selection: PropertySelection(plugin: InjectPlugin.id).ofType(type), rules: self, isTypeOnly: true)
  }

  /// Selects `@Inject` properties of any type declared in the given classes (at least one: a selection of
  /// every class by value alone would be ``inject(_:)``), to be narrowed by name or predicate; the value
  /// the verb gives must fit every selected property, or the commit throws.
  public func inject<Value>(
    valueOf type: Value.Type = Value.self, anyTypeIn first: AnyClass, _ more: AnyClass...
  ) -> InjectSelection<Value> {
    let classes = [first] + more
    return InjectSelection(
      selection: PropertySelection(plugin: InjectPlugin.id).declared(in: classes), rules: self, isTypeOnly: false,
      classes: classes)
  }

  /// Rejects every `@Inject` property (and every type-keyed injection for structs and statics), and
  /// removes every loaded module: their rules are gone, so adding one again configures it anew. Modules
  /// this scope (or the process, outside scopes) added are told with ``InjectionModule/unload()`` after
  /// the commit; inside an override scope, modules added outside it are removed for the scope alone.
  ///
  /// In a module's `configure` it makes `Injection.addModule` throw ``ResolutionError/moduleRejectsAll(_:)``:
  /// removing the module could not bring back what it wiped.
  public func rejectAll() {
    if self[ModuleBeingConfigured.self] != nil { self[ModuleRejectsAll.self] = true }
    rejectAll(plugin: InjectPlugin.id)
    let unloaded = LockedState<[any InjectionModule]>([])
    onCommit {
      TypeKeyedInjections.shared.removeAll()
      let scope = Injection.overrideScopeID
      // Decided as the modules go, with no claim taken or released meanwhile: one another thread is
      // removing (claimed) is unloaded by that removal, once; one it has not claimed yet it will find gone.
      let toUnload = ModuleClaim.removing {
        let removed = ContainerState.shared.update { $0.removeAllRules(removingModulesIn: scope) }
        Injection.releaseAfterTheCommit(removed.released)
        return removed.unloaded
      }
      unloaded.withLock { $0 = toUnload }
    }
    afterCommit {
      for module in unloaded.withLock({ $0 }) { module.unload() }
    }
  }
}

extension Injection {
  /// Selects the `@Inject` properties of exactly `type`; the verb commits at once.
  ///
  /// ```swift
  /// try Injection.inject(Settings.self).value(Settings())
  /// ```
  public static func inject<Value>(_ type: Value.Type) -> InjectSelection<Value> {
    InjectSelection(
      selection: PropertySelection(plugin: InjectPlugin.id).ofType(type), rules: nil, isTypeOnly: true)
  }

  /// Selects `@Inject` properties of any type declared in the given classes (at least one; narrow further
  /// by name or predicate); the verb commits at once and throws if its value does not fit a selected
  /// property.
  public static func inject<Value>(
    valueOf type: Value.Type = Value.self, anyTypeIn first: AnyClass, _ more: AnyClass...
  ) -> InjectSelection<Value> {
    let classes = [first] + more
    return InjectSelection(
      selection: PropertySelection(plugin: InjectPlugin.id).declared(in: classes), rules: nil, isTypeOnly: false,
      classes: classes)
  }

  /// Rejects every `@Inject` property at once.
  @discardableResult
  public static func rejectAllInjections() throws -> InjectionPlan {
    let rules = InjectionRules()
    rules.rejectAll()
    return try commit(rules)
  }
}
