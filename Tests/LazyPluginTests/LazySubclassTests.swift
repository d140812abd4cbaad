import ImperativePlugin
import InjectionKernel
import LazyPlugin
import Testing

// A `@Lazy` property declared in a base class can be created differently for a subclass.

/// Constructible, so that other tests' `injectLazy()` (every `@Lazy` property) can build it too.
private final class LazyLabel: LazyConstructible, Sendable {
  let text: String
  init(_ text: String) { self.text = text }
  init() { text = "constructed" }
}

private class LazyBase {
  @Lazy var label: LazyLabel
}
private final class LazySub: LazyBase {}
private final class LazyOther: LazyBase {}

private class FactoryOrderBase {
  @Lazy var log: [String]
}
private final class FactoryOrderSub: FactoryOrderBase {}

@Suite struct LazySubclassTests {
  @Test func aSubclassFactoryCreatesTheSubclassesValuesOnly() throws {
    let lets = InjectionRules()
    lets.lazy(LazyLabel.self).declared(in: LazyBase.self).create { _ in LazyLabel("base") }
    lets.lazy(LazyLabel.self).declared(in: LazySub.self).create { _ in LazyLabel("sub") }
    try Injection.commit(lets)
    let sub = LazySub()
    #expect(sub.label.text == "sub")
    #expect(sub.label === sub.label)  // created once per instance
    #expect(LazyBase().label.text == "base")
    #expect(LazyOther().label.text == "base")

    let reject = InjectionRules()
    reject.rejectLazy(in: LazySub.self)
    try Injection.commit(reject)
    // Off for the subclass's instances, although it inherits the property; the base and its other
    // subclasses keep theirs. Before, the base's factory showed through for the subclass.
    #expect(!Injection.isInjected(LazySub.self, "label"))
    #expect(Injection.isInjected(LazyOther.self, "label"))
    // A completeness check sees it as the empty property it is.
    #expect(throws: InjectionError.self) {
      try Injection.imperative { lets in lets.checkCompleteness(in: LazySub.self) }
    }
    // A check of the module (or of every class) too: the base's property is injected, the view is not.
    let dry = try Injection.imperativeDryRun { lets in lets.checkCompleteness(inModules: "LazyPluginTests") }
    #expect(dry.missing.contains { $0.hasPrefix("LazyPluginTests.LazySub.label: ") })
    #expect(!dry.missing.contains { $0.hasPrefix("LazyPluginTests.LazyBase.label: ") })
    // And a check of the base class, which covers its subclasses.
    let byBase = try Injection.imperativeDryRun { lets in lets.checkCompleteness(in: LazyBase.self) }
    #expect(byBase.missing.contains { $0.hasPrefix("LazyPluginTests.LazySub.label: ") })
    let fresh = LazySub()
    fresh.label = LazyLabel("assigned")  // a plain stored property again
    #expect(fresh.label.text == "assigned")
    #expect(LazyOther().label.text == "base")
    #expect(sub.label.text == "sub")  // a created value stays the instance's
    try Injection.injectLazy(in: LazySub.self)
    #expect(LazySub().label.text == "sub")  // on again, with its own factory
  }

  @Test func aSubclassesFactoryBuildsItsInstancesWhenTheTurnOnComesAfterIt() throws {
    // The README's order: factories first, then the verb that turns the properties on.
    try Injection.imperative { lets in
      lets.checkCompleteness(in: FactoryOrderBase.self)
      lets.lazy([String].self).declared(in: FactoryOrderSub.self).create { _ in ["sub"] }
      lets.injectLazy(in: FactoryOrderBase.self)
    }
    #expect(FactoryOrderSub().log == ["sub"])
    #expect(FactoryOrderBase().log == [])  // LazyConstructible: the base builds its own
  }
}
