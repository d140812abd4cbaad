import InjectionKernel
import TestSupport
import Testing

// Subclass views as a plugin sees them: builders, descriptors and declaration arguments.

private class ViewBase {
  @Keyed("inherited") var value: String?
}
private final class ViewSub: ViewBase {}

private class BuilderBase {
  @Keyed("built") var value: String?
}
private class BuilderSub: BuilderBase {}
private final class BuilderSubSub: BuilderSub {}

private class SkippedBase {
  @Keyed("skipped") var value: String?
}
private final class SkippedSub: SkippedBase {}

@Suite struct SubclassViewTests {
  @Test func aSubclassInstanceRecordsTheArgumentsOfTheDeclaredProperty() throws {
    let property = try Injection.property(named: "value", of: ViewBase.self)
    try KeyedPlugin.injectKeys(into: ViewSub.self)  // a rule naming the subclass only
    #expect(ViewSub().value == "key=inherited")
    #expect(Injection.declarationArguments(of: property) as? String == "inherited")
    #expect(ViewBase().value == nil)
  }

  @Test func viewsDescribeTheSubclassAndKnowTheirDeclaredProperty() throws {
    let property = try Injection.property(named: "value", of: BuilderBase.self)
    let view = try #require(property.viewed(from: BuilderSubSub.self))
    #expect(view.isSubclassView)
    #expect(ObjectIdentifier(view.viewingClass) == ObjectIdentifier(BuilderSubSub.self))
    #expect(view.declared == property)
    #expect(view != property)
    #expect(property.viewed(from: BuilderBase.self) == property)
    #expect(property.viewed(from: ViewSub.self) == nil)  // not a subclass
    #expect(
      view.description.hasSuffix(
        "BuilderSubSub.value: Swift.Optional<Swift.String> (inherited from "
          + "InjectionKernelTests.BuilderBase)"))
  }

  @Test func aBuilderRunsOncePerViewItsRuleReaches() throws {
    _ = BuilderSub().value  // the subclasses' slots exist before the rules
    _ = BuilderSubSub().value
    let seen = LockedState<[String]>([])
    func commit(_ selection: PropertySelection, _ text: String) throws {
      let rules = InjectionRules()
      rules.add(to: selection) { property in
        seen.withLock {
          $0.append(property.isSubclassView ? "view \(Injection.typeName(property.viewingClass))" : "declared")
        }
        return PropertyInjection<String?>(read: .value(text), summary: text)
      }
      try Injection.commit(rules)
    }
    try commit(PropertySelection(plugin: KeyedPlugin.id).declared(in: BuilderBase.self), "base")
    #expect(seen.value == ["declared"])
    #expect(BuilderSubSub().value == "base")

    seen.withLock { $0 = [] }
    try commit(PropertySelection(plugin: KeyedPlugin.id).declared(in: BuilderSub.self), "sub")
    #expect(seen.value == ["view InjectionKernelTests.BuilderSub"])
    #expect(BuilderBase().value == "base")
    #expect(BuilderSub().value == "sub")
    #expect(BuilderSubSub().value == "sub")
  }

  @Test func aViewItsBuilderSkipsFollowsItsClassAndIsNotListedAsHavingItsOwn() throws {
    let base = InjectionRules()
    base.add(
      PropertyInjection<String?>(read: .value("base"), summary: "base"),
      to: PropertySelection(plugin: KeyedPlugin.id).declared(in: SkippedBase.self))
    try Injection.commit(base)
    let skipping = InjectionRules()
    skipping.add(to: PropertySelection(plugin: KeyedPlugin.id).declared(in: SkippedSub.self)) { _ in nil }
    try Injection.commit(skipping)
    #expect(SkippedSub().value == "base")
    #expect(!Injection.subclassViewsWithOwnInjections().contains { $0.viewingClass == SkippedSub.self })
    #expect(!Injection.report().contains("SkippedSub.value"))
    #expect(!Injection.injectedClasses().contains { $0 == SkippedSub.self })
  }
}
