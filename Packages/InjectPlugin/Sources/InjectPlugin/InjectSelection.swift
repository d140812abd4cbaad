public import InjectionKernel

/// The `@Inject` properties a verb applies to, narrowed step by step, and where the verb goes: into a
/// batch (`lets.inject(…)`) or committed at once (`Injection.inject(…)`).
///
/// ```swift
/// try Injection.inject(Settings.self).declared(in: ViewModel.self).named("settings").value(settings)
/// lets.inject((any Analytics).self).value(analytics)   // inside an imperative block
/// ```
public struct InjectSelection<Value> {
  /// The selected properties.
  public let selection: PropertySelection
  let rules: InjectionRules?
  /// Whether the selection names nothing but the value type (those rules also reach structs and statics).
  let isTypeOnly: Bool
  /// The binding name of a selection made by `inject(_:named:)`: the type and a property name alone.
  let bindingName: String?
  /// What the selection selects by, for the container's bookkeeping (see ``RuleKey``).
  let key: RuleKey?

  init(
    selection: PropertySelection, rules: InjectionRules?, isTypeOnly: Bool, bindingName: String? = nil,
    classes: [AnyClass] = []
  ) {
    let key = RuleKey(valueType: classes.isEmpty ? Value.self : nil, names: bindingName.map { [$0] } ?? [])
    self.init(
      selection: selection, rules: rules, isTypeOnly: isTypeOnly, bindingName: bindingName,
      key: key.adding(classes: classes))
  }

  private init(
    selection: PropertySelection, rules: InjectionRules?, isTypeOnly: Bool, bindingName: String?, key: RuleKey?
  ) {
    self.selection = selection
    self.rules = rules
    self.isTypeOnly = isTypeOnly
    self.bindingName = bindingName
    self.key = key
  }

  /// The same selection narrowed; it is no longer a binding by type (and name) alone.
  private func narrowed(_ selection: PropertySelection, key: RuleKey?) -> InjectSelection {
    InjectSelection(selection: selection, rules: rules, isTypeOnly: false, bindingName: nil, key: key)
  }

  /// Narrows to properties declared by `classes` or their subclasses, and to the properties these
  /// classes inherit, for their instances (and their subclasses') only: naming a subclass of the class
  /// that declares a property gives that subclass an injection of its own, while the declaring class
  /// keeps its own (`PropertySelection.declared(in:)` tells the precedence).
  public func declared(in classes: AnyClass...) -> InjectSelection {
    narrowed(selection.declared(in: classes), key: key?.adding(classes: classes))
  }

  /// Narrows to properties with these names.
  public func named(_ names: String...) -> InjectSelection {
    var narrowedSelection = selection
    for name in names { narrowedSelection = narrowedSelection.named(name) }
    return narrowed(narrowedSelection, key: key?.adding(names: names))
  }

  /// Narrows to properties for which `predicate` holds.
  public func filter(_ predicate: @escaping @Sendable (PropertyDescriptor) -> Bool) -> InjectSelection {
    narrowed(selection.filter(predicate), key: nil)
  }

  /// Says that the selection may match nothing now: it is meant for classes in an image opened later or
  /// a generic class's specializations used later, and reaches them when the kernel meets them.
  ///
  /// Without it, a selection naming a class or a property name that matches nothing throws
  /// `InjectionError.selectionMatchesNothing` with its near misses — a typo, `Int` for an `Int?`
  /// property, a class that inherits the property rather than declares it. Selections by type alone
  /// never throw for matching nothing; they already reach whatever is met later.
  ///
  /// ```swift
  /// try Injection.inject(Int.self).named("retries").mayMatchLater().value(3)  // for a plugin bundle
  /// ```
  public func mayMatchLater() -> InjectSelection {
    InjectSelection(
      selection: selection.mayMatchLater(), rules: rules, isTypeOnly: isTypeOnly, bindingName: bindingName, key: key)
  }

  /// Whether the selection is a container binding: the type alone, or the type and a binding name.
  var isBinding: Bool { isTypeOnly || bindingName != nil }

  /// Records (or commits) `injection` for the selection, plus its type-keyed form for structs/statics.
  /// With `reachesOptionals`, a binding (`T`, alone or named) also selects properties declared `T?`.
  @discardableResult
  func apply(
    _ injection: PropertyInjection<Value>, typeKeyed: TypeKeyedInjections.Entry?, reachesOptionals: Bool = false,
    afterCommit: (() throws -> Void)? = nil
  ) throws -> InjectionPlan? {
    try rules?.checkNotEnded()
    try checkBindingName()
    let batch = rules ?? InjectionRules()
    let selected = owned(isBinding && reachesOptionals ? selection.includingOptionals() : selection, in: batch)
    let typeKeyedType = selectionValueType
    let typeKeyedReplay = typeKeyedType.map {
      TypeKeyedInjections.setting(typeKeyed, forTypeWithID: ObjectIdentifier($0))
    }
    let replay: @Sendable (InjectionRules) -> Void = { batch in
      batch.add(injection, to: selected)
      typeKeyedReplay?(batch)
    }
    if let bindingName, batch[ModuleBeingConfigured.self] == nil {
      batch.namedBindings.record(replay, in: batch, unlessUnbinding: Value.self, named: bindingName)
    } else {
      replay(batch)
    }
    record(
      in: batch, replay: replay, undo: { $0.retract(selected) }, typeKeyedReplay: typeKeyedReplay, rejects: false,
      includesOptionals: isBinding && reachesOptionals)
    reassertNamedBindings(in: batch)
    if let bindingName { batch.namedBindings.note(replay, for: Value.self, name: bindingName) }
    if let afterCommit { batch.afterCommit(afterCommit) }
    guard rules == nil else { return nil }
    do {
      return try Injection.commit(batch)
    } catch InjectionError.selectionMatchesNothing(let description, let nearMisses)
      where bindingName == nil && key?.classes.isEmpty == true && key?.names.count == 1
    {
      // `inject(T.self).named("x")` written for a binding `resolve(_:named:)` finds (found by review H82).
      let name = key?.names.sorted().first ?? ""
      let binding =
        "Injection.inject(\(Injection.metatypeExpression(of: Value.self)), named: \"\(name)\") binds the name for "
        + "resolve(_:named:) even where no property has it"
      throw InjectionError.selectionMatchesNothing(selection: description, nearMisses: nearMisses + [binding])
    }
  }

  /// Records (or commits) the rejection of the selection. For a named binding (``Injection/inject(_:named:)``)
  /// outside a module it is an unbinding: the name's bindings are taken back, whoever made them (the app,
  /// modules, the same batch earlier), so the name gets the type's binding again, as a name nothing is
  /// bound to does. It is a rejection in a module's `configure` (removing the module must bring back what
  /// it took away).
  @discardableResult
  func applyRejection() throws -> InjectionPlan? {
    try rules?.checkNotEnded()
    try checkBindingName()
    let batch = rules ?? InjectionRules()
    let selected = owned(isBinding ? selection.includingOptionals() : selection, in: batch)
    let typeKeyedReplay = selectionValueType.map {
      TypeKeyedInjections.setting(nil, forTypeWithID: ObjectIdentifier($0))
    }
    let rejection: @Sendable (InjectionRules) -> Void
    if let bindingName, let key, batch[ModuleBeingConfigured.self] == nil {
      batch.namedBindings.noteUnbinding(of: Value.self, named: bindingName)
      // Bindings are recorded with and without optionals (per verb), for the app and for each module: the
      // owners holding one when the batch commits (another commit may add or remove a module's meanwhile).
      let forms = [selection, selection.includingOptionals()]
      rejection = { batch in
        batch.recordAtCommit { batch in
          let state = ContainerState.shared.value
          let owners = Set(forms.indices.flatMap { state.owners(of: key.including(optionals: $0 == 1)) })
          for form in forms + owners.flatMap({ owner in forms.map { $0.recorded(forOwner: owner) } }) {
            batch.retract(form)
          }
        }
      }
    } else {
      rejection = { batch in
        batch.reject(selected)
        typeKeyedReplay?(batch)
      }
    }
    rejection(batch)
    record(
      in: batch, replay: rejection, undo: { $0.retract(selected) }, typeKeyedReplay: typeKeyedReplay, rejects: true,
      includesOptionals: isBinding)
    reassertNamedBindings(in: batch)
    if let bindingName { batch.namedBindings.note(nil, for: Value.self, name: bindingName) }
    return rules == nil ? try Injection.commit(batch) : nil
  }

  /// Records the rule in the container's state when the batch commits: its place among the rules with
  /// the same key (for modules) and, for bindings, the registration order of names (for `resolveAll`).
  private func record(
    in batch: InjectionRules, replay: @escaping @Sendable (InjectionRules) -> Void,
    undo: @escaping @Sendable (InjectionRules) -> Void, typeKeyedReplay: (@Sendable (InjectionRules) -> Void)?,
    rejects: Bool, includesOptionals: Bool
  ) {
    let entry = RuleEntry(
      owner: batch[ModuleBeingConfigured.self], replay: replay, undo: undo, typeKeyedReplay: typeKeyedReplay,
      rejects: rejects,
      binding: isBinding ? BindingKey(type: Value.self, name: bindingName ?? "") : nil)
    let key = key?.including(optionals: includesOptionals)
    batch.onCommit { Injection.releaseAfterTheCommit(ContainerState.shared.update { $0.record(entry, for: key) }) }
  }

  /// After a rule for the type alone, records the named bindings of the type again — the committed ones,
  /// then those made earlier in this batch — so that each name keeps reading its own binding
  /// (``Injection/inject(_:named:)``): names are more specific.
  ///
  /// The committed ones are those the container holds when the batch commits, worked out then
  /// (``InjectionRules/recordAtCommit(_:)``): before, they were read when the rule was recorded, and a
  /// module removed (or a name bound) between that and the commit — a batch of `lets` commits later, and
  /// another thread may commit meanwhile — had its named rule brought back (or the new name lost).
  ///
  /// Call it after ``record(in:replay:undo:typeKeyedReplay:rejects:includesOptionals:)``: the committed
  /// named rules it records again are marked as recorded after the rule for the type alone.
  private func reassertNamedBindings(in batch: InjectionRules) {
    guard isTypeOnly else { return }
    let batchNamed = batch.namedBindings
    batch.recordAtCommit { batch in
      // Not the names the batch binds or unbinds itself, before this rule or after it: an unbinding later
      // in the batch is a retraction, applied before every other change, which a binding recorded again
      // here would undo (found by review H65).
      let namedInBatch = batchNamed.notedNames(of: Value.self)
      var touched: [(RuleKey, ObjectIdentifier?)] = []
      for (name, key, owner, replay) in ContainerState.shared.value.namedBindingRules(of: Value.self)
      where !namedInBatch.contains(name) {
        batch.restating(replay)
        touched.append((key, owner))
      }
      if !touched.isEmpty {
        batch.onCommit {
          ContainerState.shared.update { state in for (key, owner) in touched { state.touch(key, owner: owner) } }
        }
      }
    }
    for (name, rule) in batchNamed.replays(of: Value.self) {
      batchNamed.record({ $0.restating(rule) }, in: batch, unlessUnbinding: Value.self, named: name)
    }
  }

  /// `selected`, recorded for the module being configured if the batch configures one: a module's rules
  /// stay beside the app's (and other modules') with the same selection, so removing the module takes
  /// back its own and leaves the others where they were.
  private func owned(_ selected: PropertySelection, in batch: InjectionRules) -> PropertySelection {
    batch[ModuleBeingConfigured.self].map { selected.recorded(forOwner: $0) } ?? selected
  }

  private var selectionValueType: Any.Type? { isTypeOnly ? Value.self : nil }

  /// A binding's name must not be empty: the container keeps the binding of the type alone under `""`
  /// (``Injection/resolveAll(_:)`` would list it twice, and no property has an empty name).
  private func checkBindingName() throws {
    guard bindingName?.isEmpty == true else { return }
    let type = Injection.metatypeExpression(of: Value.self)
    throw InjectionError.rejected(
      property: "Injection.inject(\(type), named: \"\")",
      reason: "a binding name must not be empty; bind the type alone with Injection.inject(\(type))")
  }
}
