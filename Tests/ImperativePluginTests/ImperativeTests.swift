import ImperativePlugin
import InjectPlugin
import InjectionKernel
import LazyPlugin
import TestSupport
import Testing

// Each test narrows its selections and its completeness scope to its own classes.

private final class Settings: Sendable {
  let name: String
  init(name: String) { self.name = name }
}

private final class MissingHost {
  @Inject var settings: Settings
  @Inject var port: Int
  @Lazy var cache: [String]
}

private final class SkipHost {
  @Inject var unset: Int
}

private final class ScopedHost {
  @Inject var value: Int
}

private final class ThrowingHost {
  @Inject var value: Int
}

private struct BlockFailed: Error {}

private final class PairHost: @unchecked Sendable {  // read-only across threads
  @Inject var left: Int
  @Inject var right: Int
}

private final class TwoPluginHost {
  @Inject var name: String
  @Lazy var items: [Int]
}

private final class DryRunHost {
  @Inject var first: Int
  @Inject var second: Int
}

private final class TwiceHost {
  @Inject var number: Int
}

@Suite struct ImperativeTests {
  @Test func missingInjectionErrorNamesExactlyTheMissingProperties() throws {
    do {
      try Injection.imperative { lets in
        lets.checkCompleteness(in: MissingHost.self)
        try lets.inject(Settings.self).declared(in: MissingHost.self).value(Settings(name: "s"))
      }
      Issue.record("expected missingInjections")
    } catch InjectionError.missingInjections(let missing) {
      #expect(missing.count == 2)
      #expect(missing[0].contains("MissingHost.cache: Swift.Array<Swift.String> (Lazy)"))
      #expect(missing[1].contains("MissingHost.port: Swift.Int (Inject)"))
    }
    #expect(!Injection.isInjected(MissingHost.self, "settings"))  // nothing applied
  }

  @Test func skipChecksCommitsAnIncompleteBlock() throws {
    try Injection.imperative { lets in
      lets.skipChecks()
      lets.checkCompleteness(in: SkipHost.self)
    }
    #expect(!Injection.isInjected(SkipHost.self, "unset"))
  }

  @Test func scopeNarrowingIgnoresOtherClasses() throws {
    // Other test classes have unset marked properties; narrowing to this class keeps them out.
    try Injection.imperative { lets in
      lets.checkCompleteness(in: ScopedHost.self)
      try lets.inject(Int.self).declared(in: ScopedHost.self).value(5)
    }
    #expect(ScopedHost().value == 5)
    #expect(throws: InjectionError.self) {
      try Injection.imperative { lets in
        lets.checkCompleteness(inModules: "ImperativePluginTests")
        try lets.inject(Int.self).declared(in: ScopedHost.self).value(6)
      }
    }
    #expect(ScopedHost().value == 5)
  }

  @Test func aThrowingBlockAppliesNothing() throws {
    #expect(throws: BlockFailed.self) {
      try Injection.imperative { lets in
        try lets.inject(Int.self).declared(in: ThrowingHost.self).value(1)
        throw BlockFailed()
      }
    }
    #expect(!Injection.isInjected(ThrowingHost.self, "value"))
  }

  @Test func readersNeverSeeAMixOfTwoConfigurations() throws {
    @Sendable func configure(_ value: Int) throws {
      try Injection.imperative { lets in
        lets.checkCompleteness(in: PairHost.self)
        try lets.inject(Int.self).declared(in: PairHost.self).named("left").value(value)
        try lets.inject(Int.self).declared(in: PairHost.self).named("right").value(value)
      }
    }
    try configure(0)
    let host = PairHost()
    let mixed = Counter()
    whileWriting(readers: 4) {
      for round in 1...1000 { try? configure(round % 2 == 0 ? 2 : 1) }
    } read: {
      let (left, right) = Injection.withConsistentReads { (host.left, host.right) }
      if left != right { mixed.increment() }
    }
    #expect(mixed.count == 0)
  }

  @Test func oneBlockUsesSeveralPluginsVerbsAndCommitsOnce() throws {
    let passesBefore = Injection.catalogPasses.count
    let plan = try Injection.imperative { lets in
      lets.checkCompleteness(in: TwoPluginHost.self)
      try lets.inject(String.self).declared(in: TwoPluginHost.self).value("named")
      lets.injectLazy(in: TwoPluginHost.self)
    }
    #expect(Injection.catalogPasses.count <= passesBefore + 1)
    #expect(plan.catalogPasses == 1)
    #expect(Set(plan.entries.map(\.property.name)) == ["name", "items"])
    let host = TwoPluginHost()
    #expect(host.name == "named")
    #expect(host.items.isEmpty)
  }

  @Test func dryRunMatchesWhatTheCommitDoes() throws {
    let block: (InjectionRules) throws -> Void = { lets in
      lets.checkCompleteness(in: DryRunHost.self)
      try lets.inject(Int.self).declared(in: DryRunHost.self).named("first").value(1)
      try lets.inject(String.self).declared(in: DryRunHost.self).mayMatchLater().value("no String property there")
    }
    let dry = try Injection.imperativeDryRun(block)
    #expect(dry.entries.map(\.property.name) == ["first"])
    #expect(dry.unmatchedSelections.count == 1)
    #expect(dry.emptyProperties.contains { $0.declaringClass == DryRunHost.self && $0.name == "second" })
    #expect(!Injection.isInjected(DryRunHost.self, "first"))
    #expect(dry.description.contains("DryRunHost.first: Swift.Int  <-  inject value Swift.Int"))
    #expect(throws: InjectionError.self) { try Injection.imperative(block) }  // "second" is missing
    let committed = try Injection.imperative { lets in
      try block(lets)
      lets.skipChecks()
    }
    #expect(committed.entries.map(\.property) == dry.entries.map(\.property))
    #expect(DryRunHost().first == 1)
  }

  @Test func twoRulesForOnePropertyAreReportedAndTheLastWins() throws {
    let plan = try Injection.imperative { lets in
      lets.checkCompleteness(in: TwiceHost.self)
      try lets.inject(Int.self).declared(in: TwiceHost.self).value(1)
      try lets.inject(Int.self).declared(in: TwiceHost.self).named("number").value(2)
    }
    #expect(plan.multiplySelected.map(\.name) == ["number"])
    #expect(TwiceHost().number == 2)
  }
}
