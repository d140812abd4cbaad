import InjectionKernel
import Testing

// A selection narrowed by a predicate alone (no class, no name) that matches nothing is a mistake when
// no generic class's specialization, cataloged only once used, can bring a property it means. Each test
// has its own plugin and fixture classes: another plugin's generic fields in this process would count.

/// A marker whose plugin's only generic field has a type that does not depend on the parameters.
@propertyWrapper
private struct Sifted<Value>: MarkedPropertyWrapper {
  static var plugin: PluginID { PluginID("Sifted") }
  let storage: MarkedStorage<Value>
  init(fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    storage = MarkedStorage(fileID: fileID, line: line, column: column)
  }
  static subscript<Owner: AnyObject>(
    _enclosingInstance object: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    get { read(object, storage) }
    set { write(newValue, object, storage) }
  }
  @available(*, unavailable)
  var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }
  }
}

/// A marker whose plugin has a generic field whose type is the class's parameter.
@propertyWrapper
private struct Loose<Value>: MarkedPropertyWrapper {
  static var plugin: PluginID { PluginID("Loose") }
  let storage: MarkedStorage<Value>
  init(fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    storage = MarkedStorage(fileID: fileID, line: line, column: column)
  }
  static subscript<Owner: AnyObject>(
    _enclosingInstance object: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    get { read(object, storage) }
    set { write(newValue, object, storage) }
  }
  @available(*, unavailable)
  var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }
  }
}

private final class SiftedHost {
  @Sifted var port: Int
  @Sifted var label: String?
}

private final class SiftedBox<T> {
  @Sifted var retries: UInt8
}

private final class LooseHost {
  @Loose var port: Int
}

private final class LooseBox<T> {
  @Loose var item: T
}

private func value<Value>(_ value: Value) -> PropertyInjection<Value> {
  PropertyInjection(read: .value(value), summary: "value \(value)")
}

@Suite struct FilterMistakeTests {
  @Test func aFilterAloneThatMatchesNothingThrowsNamingItsNearMissesAndAppliesNothing() throws {
    let rules = InjectionRules()
    rules.add(
      value(8080), to: PropertySelection(plugin: Sifted<Int>.plugin).ofType(Int.self).filter { $0.name == "prot" })
    rules.add(value(String?("applied?")), to: PropertySelection(plugin: Sifted<Int>.plugin).ofType(String?.self))
    do {
      try Injection.commit(rules)
      Issue.record("the commit did not throw")
    } catch InjectionError.selectionMatchesNothing(_, let nearMisses) {
      #expect(nearMisses.contains { $0.contains("SiftedHost.port: Swift.Int") })
    }
    #expect(SiftedHost().label == nil)  // the batch's other rule was not applied
    #expect(try Injection.plan(rules).unmatchedSelections.map(\.isMistake) == [true])
  }

  @Test func aFilterAloneForATypeAGenericClassDeclaresWaitsForItsSpecializations() throws {
    let rules = InjectionRules()
    rules.add(
      value(UInt8(7)),
      to: PropertySelection(plugin: Sifted<Int>.plugin).ofType(UInt8.self).filter { $0.name == "retries" })
    try Injection.commit(rules)
    #expect(SiftedBox<Int>().retries == 7)
  }

  @Test func aFilterAloneForAPluginWhoseGenericFieldCanHaveAnyTypeWaitsForItsSpecializations() throws {
    _ = LooseHost()  // the plugin's marker is known
    let rules = InjectionRules()
    rules.add(
      value("x"), to: PropertySelection(plugin: Loose<Int>.plugin).ofType(String.self).filter { $0.name == "item" })
    try Injection.commit(rules)
    #expect(LooseBox<String>().item == "x")
  }

  @Test func aFilterAloneToldItMayMatchLaterDoesNotThrow() throws {
    let rules = InjectionRules()
    rules.add(
      value(1.5),
      to: PropertySelection(plugin: Sifted<Int>.plugin).ofType(Double.self).filter { $0.name == "ratio" }
        .mayMatchLater())
    try Injection.commit(rules)
    #expect(try Injection.plan(rules).unmatchedSelections.map(\.isMistake) == [false])
  }
}

/// An owner whose generic argument names another plugin's marker.
private final class SiftedCell<T> {}

private struct SiftedOuter<U> {
  /// An associated declaration of the Counted plugin (no other test filters its properties) nested in a
  /// generic type: its owner's name mentions the Loose plugin's marker before its own marker.
  final class Tag: AssociatedProperty<SiftedCell<Loose<Int>>, Counted<UInt16?>>, @unchecked Sendable {}
}

@Suite struct FilterAndAssociatedDeclarationTests {
  @Test func aFilterMeantForAGenericDeclarationWhoseOwnerNamesAnotherMarkerWaitsForItsSpecializations() throws {
    // Before, the declaration's plugin was read from the first marker its superclass's name mentions: the
    // owner's `Loose`, so the rule for `Counted` properties threw (review H80).
    _ = LooseHost()  // the markers are known (another test's class declares a Counted property)
    let rules = InjectionRules()
    rules.add(
      value(UInt16?(3)),
      to: PropertySelection(plugin: CountedPlugin.id).ofType(UInt16?.self).filter { $0.name == "tag" })
    try Injection.commit(rules)
  }
}
