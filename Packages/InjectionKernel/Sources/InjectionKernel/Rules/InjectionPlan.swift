/// What a batch of rules does, computed before anything is applied: the dry run of a commit, and the
/// result a commit returns.
public struct InjectionPlan: CustomStringConvertible, @unchecked Sendable {  // immutable
  /// One property whose injection the batch sets or removes.
  public struct Entry: @unchecked Sendable {  // immutable
    /// The property.
    public let property: PropertyDescriptor
    /// The injection it will have; `nil` when the batch rejects it.
    public let injection: AnyPropertyInjection?
    /// Whether it had an injection before the batch (a re-injection, or a rejection that changes something).
    public let replacesInjection: Bool
    /// How many of the batch's rules selected it; more than one means the last one won.
    public let ruleCount: Int
  }

  /// The properties the batch changes, sorted by description. Sorted when first read: describing and
  /// sorting them costs more than planning a rule, and most callers of a commit never read them.
  public var entries: [Entry] { changes.sorted }
  private let changes: SortedEntries
  /// Selections that matched no property, with the properties that almost matched.
  public let unmatchedSelections: [UnmatchedSelection]
  /// Cataloged marked properties (of every plugin) that have no injection after the batch, or one that
  /// leaves reads plain (a setter alone: a read gets nothing from it). Listed by dry
  /// runs (``Injection/plan(_:)``) and validated commits (``Injection/commit(_:listingEmptyWhere:validate:)``,
  /// which the imperative block uses, limited to what its check looks at); empty for a plain
  /// ``Injection/commit(_:)``, which skips that work. Subclass views are listed only for the classes
  /// given to ``InjectionRules/listInheritedProperties(of:)``. Properties whose marker always gives them a
  /// value (``InjectionMarker/propertiesAlwaysHoldAValue``) are listed too; a check that looks for reads that
  /// would stop leaves them out, as the completeness check does.
  public let emptyProperties: [PropertyDescriptor]
  /// Marked properties of generic classes, checked before any specialization exists: their value type
  /// does not depend on the generic parameters, and no rule (committed or of the batch) gives them an
  /// injection. Listed when ``emptyProperties`` is.
  public let emptyGenericProperties: [GenericPropertyDeclaration]
  /// Marked properties of generic classes that can only be checked per specialization, once one is used:
  /// their type depends on the generic parameters, or the rules that could reach them name classes or
  /// filter. Listed when ``emptyProperties`` is.
  public let genericPropertiesCheckedPerSpecialization: [GenericPropertyDeclaration]
  /// How many catalog passes planning the batch requested: 1, however many plugins' verbs it holds.
  public let catalogPasses: Int
  /// A plan whose entries (in any order) are `entries`.
  init(
    entries: [Entry], unmatchedSelections: [UnmatchedSelection], emptyProperties: [PropertyDescriptor],
    emptyGenericProperties: [GenericPropertyDeclaration],
    genericPropertiesCheckedPerSpecialization: [GenericPropertyDeclaration], catalogPasses: Int
  ) {
    changes = SortedEntries(entries)
    self.unmatchedSelections = unmatchedSelections
    self.emptyProperties = emptyProperties
    self.emptyGenericProperties = emptyGenericProperties
    self.genericPropertiesCheckedPerSpecialization = genericPropertiesCheckedPerSpecialization
    self.catalogPasses = catalogPasses
  }

  /// Everything a commit installs: the entries, and the subclass views that share one of their
  /// injections (a view without an injection of its own follows the class its rule reaches).
  /// `countsReplacement` is false for a view that had no injection of its own or has none now (following
  /// another class's injection is not a re-injection).
  var installs: [(property: PropertyDescriptor, injection: AnyPropertyInjection?, countsReplacement: Bool)] = []

  /// A selection of the batch that matched no property.
  public struct UnmatchedSelection: Sendable, CustomStringConvertible {
    /// The selection (`PropertySelection.description`).
    public let selection: String
    /// The properties that almost matched, each with what differs and how to select it
    /// (`Module.Owner.retries: Swift.Optional<Swift.Int> — its type is Int?, not Int: select Int?.self`).
    public let nearMisses: [String]
    /// Whether a commit refuses it: the selection names a class or a property name and was not told it
    /// ``PropertySelection/mayMatchLater()``. Selections by type alone may match nothing.
    public let isMistake: Bool

    /// The error a commit throws for it.
    public var error: InjectionError { .selectionMatchesNothing(selection: selection, nearMisses: nearMisses) }

    /// The selection, then its near misses.
    public var description: String {
      nearMisses.isEmpty ? selection : selection + " (near misses: " + nearMisses.joined(separator: "; ") + ")"
    }
  }

  /// Properties selected by more than one rule of the batch (the last rule won).
  public var multiplySelected: [PropertyDescriptor] { entries.filter { $0.ruleCount > 1 }.map(\.property) }

  /// The entry for `property`, if the batch changes it.
  public func entry(for property: PropertyDescriptor) -> Entry? {
    entries.first { $0.property == property }
  }

  /// A table: one line per property, then unmatched selections and empty properties.
  public var description: String {
    var lines: [String] = []
    for entry in entries {
      let action = entry.injection.map { "inject \($0.summary)" } ?? "reject"
      var notes: [String] = []
      if entry.replacesInjection { notes.append("replaces an injection") }
      if entry.ruleCount > 1 { notes.append("selected by \(entry.ruleCount) rules, last wins") }
      let suffix = notes.isEmpty ? "" : "  (" + notes.joined(separator: "; ") + ")"
      lines.append("\(entry.property)  <-  \(action)\(suffix)")
    }
    if entries.isEmpty { lines.append("no property changes") }
    for selection in unmatchedSelections { lines.append("matched nothing: \(selection)") }
    for property in emptyProperties {
      let note = property.isOptional ? ", reads nil" : ""
      lines.append("left empty: \(property) (\(property.plugin?.name ?? "-")\(note))")
    }
    for declaration in emptyGenericProperties {
      let note = declaration.isOptional ? ", reads nil" : ""
      lines.append("left empty: \(declaration) (\(declaration.plugin?.name ?? "-")\(note), every specialization)")
    }
    for declaration in genericPropertiesCheckedPerSpecialization {
      lines.append("checked per specialization: \(declaration)")
    }
    return lines.joined(separator: "\n")
  }
}

/// A plan's entries, sorted by description on first use (see ``InjectionPlan/entries``); plans are copied
/// and read from any thread, so the sorting is locked.
private final class SortedEntries: Sendable {
  private let state: LockedState<(entries: [InjectionPlan.Entry], isSorted: Bool)>

  init(_ entries: [InjectionPlan.Entry]) { state = LockedState((entries, entries.count < 2)) }

  var sorted: [InjectionPlan.Entry] {
    state.withLock { state in
      if !state.isSorted {
        state.entries = PropertyDescriptor.sortedByDescription(state.entries, of: \.property)
        state.isSorted = true
      }
      return state.entries
    }
  }
}
