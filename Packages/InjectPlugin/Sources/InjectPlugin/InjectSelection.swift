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

  init(selection: PropertySelection, rules: InjectionRules?, isTypeOnly: Bool) {
    self.selection = selection
    self.rules = rules
    self.isTypeOnly = isTypeOnly
  }

  /// Narrows to properties declared by `classes` or their subclasses.
  public func declared(in classes: AnyClass...) -> InjectSelection {
    InjectSelection(selection: selection.declared(in: classes), rules: rules, isTypeOnly: false)
  }

  /// Narrows to properties with these names.
  public func named(_ names: String...) -> InjectSelection {
    var narrowed = selection
    for name in names { narrowed = narrowed.named(name) }
    return InjectSelection(selection: narrowed, rules: rules, isTypeOnly: false)
  }

  /// Narrows to properties for which `predicate` holds.
  public func filter(_ predicate: @escaping @Sendable (PropertyDescriptor) -> Bool) -> InjectSelection {
    InjectSelection(selection: selection.filter(predicate), rules: rules, isTypeOnly: false)
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
    InjectSelection(selection: selection.mayMatchLater(), rules: rules, isTypeOnly: isTypeOnly)
  }

  /// Records (or commits) `injection` for the selection, plus its type-keyed form for structs/statics.
  /// With `reachesOptionals`, a selection by type alone (`T`) also selects properties declared `T?`.
  @discardableResult
  func apply(
    _ injection: PropertyInjection<Value>, typeKeyed: TypeKeyedInjections.Entry?, reachesOptionals: Bool = false
  ) throws -> InjectionPlan? {
    let batch = rules ?? InjectionRules()
    batch.add(injection, to: isTypeOnly && reachesOptionals ? selection.includingOptionals() : selection)
    if isTypeOnly, let valueType = selectionValueType {
      batch.onCommit { TypeKeyedInjections.shared.set(typeKeyed, for: valueType) }
    }
    return rules == nil ? try Injection.commit(batch) : nil
  }

  /// Records (or commits) the rejection of the selection.
  @discardableResult
  func applyRejection() throws -> InjectionPlan? {
    let batch = rules ?? InjectionRules()
    batch.reject(isTypeOnly ? selection.includingOptionals() : selection)
    if isTypeOnly, let valueType = selectionValueType {
      batch.onCommit { TypeKeyedInjections.shared.set(nil, for: valueType) }
    }
    return rules == nil ? try Injection.commit(batch) : nil
  }

  private var selectionValueType: Any.Type? { isTypeOnly ? Value.self : nil }
}
