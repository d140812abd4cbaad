/// The properties that almost match a selection that matched nothing — same plugin, and at most two of
/// these apart: another type (`Int?` for `Int`, any type for the right name, or any type in a named class
/// when the selection names no property), a similar name (`port` for `prot`), another class (the right
/// name declared in a class the selection does not name), or refused by the selection's filter. The named
/// classes' inherited properties are compared as seen from those classes (a selection naming a subclass
/// reaches what it inherits).
enum NearMisses {
  /// At most five near misses, closest first, as `Module.Owner.property: Type — what differs: the fix`;
  /// none of `matched` (what a larger selection that `selection` is part of matches already).
  static func find(
    for selection: PropertySelection, in index: PropertyIndex, excluding matched: Set<PropertyDescriptor> = []
  ) -> [String] {
    let classes = selection.namedClasses
    let names = selection.namedProperties
    // By type alone, every other type is "near"; by a type and a filter, the type's properties the filter
    // refuses are (with no type, every property would be).
    let filteredType = selection.isNarrowedByPredicatesAlone && selection.selectedValueType != nil
    guard !classes.isEmpty || !names.isEmpty || filteredType else { return [] }
    var found: [(distance: Int, text: String)] = []
    for property in pool(for: selection, in: index)
    where property.plugin == selection.plugin && !matched.contains(property) {
      var reasons: [String] = []
      var distance = 0
      if let type = selection.selectedValueType, !selection.isSelectedType(property.valueType, type) {
        // Another type is near when the name was right or the types differ by an optional only; any type
        // of a named class's property is, farther, when the selection names no property.
        let related =
          names.contains(property.name) || MetadataAccess.optionalWrappedType(property.valueType) == type
          || MetadataAccess.optionalWrappedType(type) == property.valueType
        guard related || (names.isEmpty && !classes.isEmpty) else { continue }
        if !related { distance += 1 }
        reasons.append(
          "its type is \(Injection.sourceSpelling(of: property.valueType)), not \(Injection.sourceSpelling(of: type)): "
            + "select \(Injection.metatypeExpression(of: property.valueType))")
      }
      if !names.isEmpty, !names.contains(property.name) {
        guard let close = names.sorted().first(where: { isSimilar($0, property.name) }) else { continue }
        reasons.append("its name is \(property.name), not \(close): select named(\"\(property.name)\")")
      }
      if !classes.isEmpty, !classes.contains(where: { isSubclass(property.viewingClass, of: $0) }) {
        let owner = Injection.typeName(property.viewingClass)
        reasons.append(
          "it is declared in \(owner), not in \(classes.map { Injection.typeName($0) }.joined(separator: ", ")): "
            + "select declared(in: \(Injection.sourceSpelling(of: property.viewingClass)).self)")
      }
      if reasons.isEmpty {
        guard !selection.passesPredicates(property) else { continue }  // it matches: not a miss
        reasons.append("the selection's filter refuses it")
      }
      guard reasons.count <= 2 else { continue }
      found.append((distance + reasons.count, "\(property) — " + reasons.joined(separator: "; ")))
    }
    // The right name in a named class, owned by another plugin: the selection meant that plugin's verbs.
    var otherPlugins: Set<PropertyDescriptor> = []
    for cls in classes {
      for property in index.properties(declaredInOrBelow: cls) + index.inheritedViews(from: cls)
      where property.plugin != selection.plugin && names.contains(property.name)
        && otherPlugins.insert(property).inserted
      {
        let owner = property.plugin.map { "the \($0) plugin's" } ?? "no plugin's"
        found.append((3, "\(property) — it is \(owner) property, not the \(selection.plugin) plugin's: use its verbs"))
      }
    }
    return found.sorted { ($0.distance, $0.text) < ($1.distance, $1.text) }.prefix(5).map(\.text)
  }

  /// For a selection by type alone that matched nothing: at most five of its plugin's properties declared
  /// with a type its values fit — a protocol the type conforms to, a superclass (or an optional of one) —
  /// which the rule most likely meant (`MockNetworkClient` for `any NetworkClient`), or with the type's
  /// optional, which the rule's verb does not reach (a getter of `UUID` and a `UUID?` property).
  static func declaredTypesTheValuesFit(for selection: PropertySelection, in index: PropertyIndex) -> [String] {
    guard selection.namedClasses.isEmpty, selection.namedProperties.isEmpty, !selection.isFiltered,
      let type = selection.selectedValueType
    else { return [] }
    var found: [String] = []
    for property in index.properties(of: selection.plugin) where !property.isSubclassView {
      let declared = MetadataAccess.optionalWrappedType(property.valueType) ?? property.valueType
      if declared == type, property.valueType != type {
        // Declared as the type's optional, which this verb's selection of the type does not reach (a getter,
        // a setter): `value`, `shared` and the like reach optionals of the type they bind.
        found.append(
          "\(property) — its type is \(Injection.sourceSpelling(of: property.valueType)), which a rule of "
            + "this kind for \(Injection.sourceSpelling(of: type)) does not reach: select "
            + "\(Injection.metatypeExpression(of: property.valueType))")
        if found.count == 5 { break }
        continue
      }
      guard declared != type, Injection.isConvertible(type, to: declared) == true else { continue }
      found.append(
        "\(property) — its type is \(Injection.sourceSpelling(of: property.valueType)), which "
          + "\(Injection.sourceSpelling(of: type)) values fit: select \(Injection.metatypeExpression(of: declared))")
      if found.count == 5 { break }
    }
    return found
  }

  /// The properties worth comparing: those of the named classes (declared, inherited, or declared by a
  /// subclass), or every property of the plugin when the selection names only property names.
  private static func pool(for selection: PropertySelection, in index: PropertyIndex) -> [PropertyDescriptor] {
    guard !selection.namedClasses.isEmpty else {
      return index.properties(of: selection.plugin).filter { !$0.isSubclassView }
    }
    var seen: Set<PropertyDescriptor> = []
    var pool: [PropertyDescriptor] = []
    for cls in selection.namedClasses {
      for property in index.properties(declaredInOrBelow: cls)
      where !property.isSubclassView && seen.insert(property).inserted {
        pool.append(property)
      }
      for property in index.inheritedViews(from: cls) where seen.insert(property).inserted {
        pool.append(property)
      }
    }
    // The selected names in other classes: the right property, in a class the selection does not name.
    for name in selection.namedProperties.sorted() {
      for property in index.properties(of: selection.plugin, named: name)
      where !property.isSubclassView && seen.insert(property).inserted {
        pool.append(property)
      }
    }
    return pool
  }

  /// Whether two names differ by case only, or by at most one edit (two for names of five characters or
  /// more), a swap of neighbours counting as one edit.
  static func isSimilar(_ typed: String, _ actual: String) -> Bool {
    if typed.lowercased() == actual.lowercased() { return true }
    let limit = min(typed.count, actual.count) >= 5 ? 2 : 1
    return editDistance(Array(typed.lowercased()), Array(actual.lowercased()), limit: limit) <= limit
  }

  /// The optimal-string-alignment distance (insertions, deletions, substitutions, adjacent swaps), or
  /// `limit + 1` once it is sure to exceed `limit`.
  private static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      var current = [Int](repeating: 0, count: b.count + 1)
      current[0] = i
      for j in stride(from: 1, through: b.count, by: 1) {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previous2[j - 2] + 1)
        }
      }
      previous2 = previous
      previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
  }
}

extension Injection {
  /// Whether `typed` is a near miss of `actual` by the rule the kernel's own near misses follow: they
  /// differ by case only, or by at most one edit (two when both have five characters or more), a swap of
  /// neighbours counting as one edit. For plugins that suggest a name in an error of their own.
  ///
  /// ```swift
  /// Injection.isNearMiss("Fixturs", of: "Fixtures")  // true
  /// ```
  public static func isNearMiss(_ typed: String, of actual: String) -> Bool {
    NearMisses.isSimilar(typed, actual)
  }
}
