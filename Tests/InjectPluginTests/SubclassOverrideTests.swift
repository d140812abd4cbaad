import InjectPlugin
import TestSupport
import Testing

// A rule naming a subclass of the class that declares a property gives that subclass (and its own
// subclasses) an injection of their own; the declaring class and its other subclasses keep theirs.
// Each test has its own classes: tests run in parallel.

private class ChainBase {
  @Inject var greeting: String
}
private class ChainSub: ChainBase {}
private final class ChainSubSub: ChainSub {}

private class DepthBase {
  @Inject var endpoint: String
}
private class DepthMid: DepthBase {}
private final class DepthLeaf: DepthMid {}

@Suite struct SubclassOverrideTests {
  @Test func rejectingASubclassTwoLevelsDownInTheBatchThatInjectsTheBaseLetsTheBaseShowThrough() throws {
    // Before, the leaf read nothing (its first read stopped the program): the rejection took what the
    // middle class's view had before the batch, not what the batch gave the base (found by review H61).
    let rules = InjectionRules()
    try rules.inject(String.self).declared(in: DepthBase.self).value("https://api")
    try rules.inject(String.self).declared(in: DepthLeaf.self).reject()
    try Injection.commit(rules)
    #expect(DepthMid().endpoint == "https://api")
    try #require(Injection.isInjected(DepthLeaf.self, "endpoint"))  // else the read below stops
    #expect(DepthLeaf().endpoint == "https://api")
  }

  @Test func aSubclassOverrideReachesTheSubclassAndItsSubclassesOnly() throws {
    try Injection.inject(String.self).declared(in: ChainBase.self).value("base")
    let plan = try Injection.inject(String.self).declared(in: ChainSub.self).value("sub")
    #expect(ChainBase().greeting == "base")
    #expect(ChainSub().greeting == "sub")
    #expect(ChainSubSub().greeting == "sub")
    #expect(
      plan?.entries.map(\.property.description) == [
        "InjectPluginTests.ChainSub.greeting: Swift.String (inherited from InjectPluginTests.ChainBase)"
      ])

    try Injection.inject(String.self).declared(in: ChainSubSub.self).value("subsub")
    #expect(ChainBase().greeting == "base")
    #expect(ChainSub().greeting == "sub")
    #expect(ChainSubSub().greeting == "subsub")
  }

  @Test func instancesMadeBeforeTheOverrideReadItAndReadTheBaseAgainAfterItsRejection() throws {
    class Base: @unchecked Sendable {  // its only mutable state is a marker property
      @Inject var level: Int
    }
    final class Sub: Base, @unchecked Sendable {}
    try Injection.inject(Int.self).declared(in: Base.self).value(1)
    let base = Base()
    let sub = Sub()
    #expect(base.level == 1)
    #expect(sub.level == 1)

    try Injection.inject(Int.self).declared(in: Sub.self).value(2)
    #expect(base.level == 1)
    #expect(sub.level == 2)
    #expect(Injection.isInjected(Sub.self, "level"))

    try Injection.inject(Int.self).declared(in: Sub.self).reject()
    #expect(base.level == 1)
    #expect(sub.level == 1)  // the base's injection shows through again
    #expect(Injection.isInjected(Sub.self, "level"))
  }

  @Test func rejectingASubclassWithoutABaseInjectionLeavesItEmpty() throws {
    class Base {
      @Inject var label: String?
    }
    final class Sub: Base {}
    try Injection.inject(String?.self).declared(in: Sub.self).value("sub")
    #expect(Sub().label == "sub")
    #expect(Base().label == nil)
    #expect(!Injection.isInjected(Base.self, "label"))
    try Injection.inject(String?.self).declared(in: Sub.self).reject()
    #expect(Sub().label == nil)
    #expect(!Injection.isInjected(Sub.self, "label"))
  }

  @Test func siblingSubclassesHaveTheirOwnOverridesAndAThirdKeepsTheBase() throws {
    class Base {
      @Inject var name: String
    }
    final class Left: Base {}
    final class Right: Base {}
    final class Plain: Base {}
    try Injection.inject(String.self).declared(in: Base.self).value("base")
    try Injection.inject(String.self).declared(in: Left.self).value("left")
    try Injection.inject(String.self).declared(in: Right.self).value("right")
    #expect(Base().name == "base")
    #expect(Left().name == "left")
    #expect(Right().name == "right")
    #expect(Plain().name == "base")

    try Injection.inject(String.self).declared(in: Left.self).reject()
    #expect(Left().name == "base")
    #expect(Right().name == "right")
  }

  @Test func rejectingASubclassAlsoRemovesTheOverridesOfItsSubclasses() throws {
    class Base {
      @Inject var mode: String
    }
    class Sub: Base {}
    final class SubSub: Sub {}
    try Injection.inject(String.self).declared(in: Base.self).value("base")
    try Injection.inject(String.self).declared(in: Sub.self).value("sub")
    try Injection.inject(String.self).declared(in: SubSub.self).value("subsub")
    try Injection.inject(String.self).declared(in: Sub.self).reject()
    #expect(Sub().mode == "base")
    #expect(SubSub().mode == "base")
    #expect(Base().mode == "base")
  }

  @Test func theNewestRuleWinsWhateverClassItNames() throws {
    class Base {
      @Inject var timeout: Double
    }
    final class Sub: Base {}
    try Injection.inject(Double.self).declared(in: Sub.self).value(2)
    // A later rule reaching the declaring class replaces the subclass's injection too…
    try Injection.inject(Double.self).declared(in: Base.self).value(1)
    #expect(Sub().timeout == 1)
    #expect(Base().timeout == 1)
    // …and a later subclass rule wins again.
    try Injection.inject(Double.self).declared(in: Sub.self).value(3)
    #expect(Sub().timeout == 3)
    #expect(Base().timeout == 1)
    // A rejection reaching the declaring class empties every class.
    try Injection.inject(Double.self).declared(in: Base.self).reject()
    #expect(!Injection.isInjected(Sub.self, "timeout"))
    #expect(!Injection.isInjected(Base.self, "timeout"))
  }

  @Test func aSharedValueIsSharedByEveryClassItsRuleReaches() throws {
    final class Service: Sendable {}
    class Base {
      @Inject var service: Service?
    }
    final class Sub: Base {}
    final class Other: Base {}
    let made = Counter()
    #expect(Sub().service == nil)  // an instance of Sub was read before the rule
    try Injection.inject(Service?.self).declared(in: Base.self).shared {
      made.increment()
      return Service()
    }
    let fromBase = Base().service
    #expect(Sub().service === fromBase)
    #expect(Other().service === fromBase)
    #expect(made.count == 1)
  }

  @Test func theReportAndTheInjectedPropertiesListTheSubclassApart() throws {
    class Base {
      @Inject var endpoint: String
    }
    final class Sub: Base {}
    try Injection.inject(String.self).declared(in: Base.self).value("prod")
    try Injection.inject(String.self).declared(in: Sub.self).value("staging")
    // Only this test's classes: other tests' `endpoint` properties (the README's `Service`) share the report.
    func endpointLines() -> [String] {
      Injection.report().split(separator: "\n").map(String.init).filter {
        $0.hasPrefix("InjectPluginTests.SubclassOverrideTests.") && $0.contains(".endpoint: ")
      }
    }
    let lines = endpointLines()
    let base = "InjectPluginTests.SubclassOverrideTests.Base"
    let expected: [String] = [
      "\(base).endpoint: Swift.String <- value Swift.String (Inject)",
      "InjectPluginTests.SubclassOverrideTests.Sub.endpoint: Swift.String (inherited from \(base))"
        + " <- value Swift.String (Inject)",
    ]
    #expect(lines == expected)
    // This test's views only: other tests inject subclass views of their own `endpoint` properties.
    let views = Injection.injectedProperties().filter {
      $0.name == "endpoint" && $0.isSubclassView && $0.declaringClass == Base.self
    }
    #expect(views.map { ObjectIdentifier($0.viewingClass) } == [ObjectIdentifier(Sub.self)])
    #expect(views.map(\.declared) == [try Injection.property(named: "endpoint", of: Base.self)])

    try Injection.inject(String.self).declared(in: Sub.self).reject()
    #expect(endpointLines().count == 1)
  }

  @Test func aClassThatNeitherDeclaresNorInheritsThePropertyStillThrows() {
    class Base {
      @Inject var port: Int
    }
    final class Unrelated {
      @Inject var host: String
    }
    #expect(throws: InjectionError.self) {
      try Injection.inject(Int.self).declared(in: Unrelated.self).value(80)
    }
    #expect(throws: InjectionError.self) {
      try Injection.inject(Int.self).declared(in: Unrelated.self).named("port").value(80)
    }
    #expect(!Injection.isInjected(Base.self, "port"))
  }

  @Test func anOverrideInsideAScopeStaysInsideIt() throws {
    class Base {
      @Inject var region: String
    }
    final class Sub: Base {}
    try Injection.inject(String.self).declared(in: Base.self).value("eu")
    let sub = Sub()
    #expect(sub.region == "eu")
    try Injection.withOverrides({ lets in
      try lets.inject(String.self).declared(in: Sub.self).value("test")
    }) {
      #expect(sub.region == "test")
      #expect(Sub().region == "test")
      #expect(Base().region == "eu")
      #expect(Injection.isInjected(Sub.self, "region"))
    }
    #expect(sub.region == "eu")

    try Injection.inject(String.self).declared(in: Sub.self).value("us")
    try Injection.withOverrides({ lets in
      try lets.inject(String.self).declared(in: Base.self).value("scoped")
    }) {
      // Inside the scope its newer rule reaches the subclass as well.
      #expect(Base().region == "scoped")
      #expect(sub.region == "scoped")
    }
    #expect(sub.region == "us")
    #expect(Base().region == "eu")

    try Injection.withOverrides({ lets in
      try lets.inject(String.self).declared(in: Sub.self).value("scoped sub")
      try lets.inject(String.self).declared(in: Sub.self).reject()
    }) {
      // A rejection naming the subclass hides the scope's own subclass rule; the process's shows through.
      #expect(sub.region == "us")
      #expect(Base().region == "eu")
    }
  }

  @Test func aGenericSubclassCanHaveItsOwnInjection() throws {
    class Base {
      @Inject var tag: String
    }
    final class Box<Element>: Base {}
    try Injection.inject(String.self).declared(in: Base.self).value("base")
    try Injection.inject(String.self).declared(in: Box<Int>.self).value("ints")
    #expect(Box<Int>().tag == "ints")
    #expect(Box<String>().tag == "base")
    #expect(Base().tag == "base")
  }

  @Test func aPropertyOfAGenericBaseCanBeOverriddenInASubclass() throws {
    class Holder<Element> {
      @Inject var title: String
    }
    final class IntHolder: Holder<Int> {}
    try Injection.inject(String.self).declared(in: Holder<Int>.self).value("holder")
    try Injection.inject(String.self).declared(in: IntHolder.self).value("int holder")
    #expect(Holder<Int>().title == "holder")
    #expect(IntHolder().title == "int holder")
  }

  @Test func readsOnBaseAndSubInstancesWhileTheOverrideComesAndGoes() throws {
    class Base: @unchecked Sendable {  // its only mutable state is a marker property
      @Inject var value: Int
    }
    final class Sub: Base, @unchecked Sendable {}
    try Injection.inject(Int.self).declared(in: Base.self).value(1)
    let base = Base()
    let sub = Sub()
    let wrongBase = Counter()
    let wrongSub = Counter()
    whileWriting(readers: 4) {
      for round in 0..<200 {
        if round.isMultiple(of: 2) {
          _ = try? Injection.inject(Int.self).declared(in: Sub.self).value(2)
        } else {
          _ = try? Injection.inject(Int.self).declared(in: Sub.self).reject()
        }
      }
    } read: {
      if base.value != 1 || Base().value != 1 { wrongBase.increment() }
      let read = sub.value
      if read != 1 && read != 2 { wrongSub.increment() }
      let fresh = Sub().value
      if fresh != 1 && fresh != 2 { wrongSub.increment() }
    }
    #expect(wrongBase.count == 0)
    #expect(wrongSub.count == 0)
    #expect(sub.value == 1)  // the last round rejected the override
    #expect(base.value == 1)
  }
}
