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

private final class DirectCommitHost {
  @Inject var label: String?
}

private final class KeptLetsHost {
  @Inject var label: String?
}

private final class PlannedInBlockHost {
  @Inject var label: String?
}

private final class ReusedBatchHost {
  @Inject var label: String?
}

private final class LateCommitFromBlockHost: @unchecked Sendable {  // marked properties are atomic
  @Inject var label: String?
}

private final class WiredFromBlockHost {
  @Inject var label: String?
}

/// Wiring reached first from inside a batch being recorded.
private enum BlockWiring {
  static let done: Void = Injection.outsideOverrides {
    try! Injection.inject(String?.self).declared(in: WiredFromBlockHost.self).value("wired")
  }
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
  @Inject var note: String?
}

private final class OptionalOnlyHost {
  @Inject var maybe: Int?
}

private struct GenericCount: Sendable {
  let value: Int
}

/// Never specialized: checked from its declaration.
private class CheckedScreen {
  @Inject var title: String
}

private final class CheckedPage<Item>: CheckedScreen {
  @Inject var pageName: String
  @Inject var items: [Item]
}

private class CheckedGenericBase<Item>: CheckedScreen {}

private final class CheckedNested<Item>: CheckedGenericBase<Item> {
  @Inject var nestedName: String
}

private struct SetterOnlyTheme: Sendable { let name: String }
private final class SetterOnlyThemed {
  @Inject var theme: SetterOnlyTheme
}

/// A generic base whose specialization a non-generic subclass fixes: cataloged by the pass, unused.
private class SpecializedFeedBase<Model> {
  @Inject var source: FeedSource
  @Inject var model: Model
}

private final class ModelFeed: SpecializedFeedBase<FeedModel> {}

private struct FeedSource: Sendable {
  let name: String
}

private struct FeedModel: Sendable {}

/// A generic base whose specialization a generic subclass fixes whatever its own parameter (`FixedPage<Int>`
/// and `FixedPage<String>` both inherit from `FixedScreen<FixedPageState>`): cataloged by the pass, unused.
private class FixedScreen<State> {
  @Inject var state: State
  @Inject var logger: ScreenLogger
}

private final class FixedPage<Item>: FixedScreen<FixedPageState> {}

private struct ScreenLogger: Sendable {}

private struct FixedPageState: Sendable {}

/// Specializations fixed along nested chains: `ChainMid<T>` fixes `ChainBase<ChainFixed>`, which
/// `ChainLeaf<U>: ChainMid<U>` inherits too; `ChainOuterLeaf<U>` fixes `ChainPassing<ChainPassed>`, and so
/// `ChainPassingBase<ChainPassed>`. Cataloged by the pass, unused.
private class ChainBase<Value> {
  @Inject var fixedValue: Value
}

private class ChainMid<T>: ChainBase<ChainFixed> {}

private final class ChainLeaf<U>: ChainMid<U> {}

private class ChainPassingBase<Value> {
  @Inject var passedValue: Value
}

private class ChainPassing<T>: ChainPassingBase<T> {}

private final class ChainOuterLeaf<U>: ChainPassing<ChainPassed> {}

private struct ChainFixed: Sendable {}

private struct ChainPassed: Sendable {}

/// A non-generic subclass with marked fields of its own that fixes a specialization: both are cataloged.
private class OwnFieldsBase<Model> {
  @Inject var baseModel: Model
}

private final class OwnFieldsFeed: OwnFieldsBase<OwnFieldsModel> {
  @Inject var ownSource: FeedSource
}

private struct OwnFieldsModel: Sendable {}

private final class GenericChecked<Element> {
  @Inject var count: GenericCount
  @Inject var label: String?
  @Inject var element: Element
}

private final class TwiceHost {
  @Inject var number: Int
}

private final class UnmarkedScopeHost {
  var plain = 0
}

private final class MarkedScopeHost {
  @Inject var number: Int
}

private final class CheckedEverywhereHost {
  @Inject var settings: Settings
  @Inject var port: Int
}

/// Records what the completeness check of a module's batch finds.
private final class IncompleteModule: InjectionModule {
  func configure(_ lets: InjectionRules) throws {
    lets.checkCompleteness(in: CheckedEverywhereHost.self)
    try lets.inject(Settings.self).declared(in: CheckedEverywhereHost.self).value(Settings(name: "module"))
  }
}

@Suite struct ImperativeTests {
  @Test func checkCompletenessChecksEveryBatchThatAsksForIt() throws {
    // Before, only an imperative block ran the check: elsewhere the verb was silently ignored.
    let expected = InjectionError.missingInjections([
      "ImperativePluginTests.CheckedEverywhereHost.port: Swift.Int (Inject)"
    ])
    #expect(throws: expected) {
      try Injection.withOverrides({ lets in
        lets.checkCompleteness(in: CheckedEverywhereHost.self)
        try lets.inject(Settings.self).declared(in: CheckedEverywhereHost.self).value(Settings(name: "scope"))
      }) {}
    }
    #expect(
      throws: InjectionError.missingInjections([
        "ImperativePluginTests.CheckedEverywhereHost.port: Swift.Int (Inject)",
        "ImperativePluginTests.CheckedEverywhereHost.settings: ImperativePluginTests.Settings (Inject)",
      ])
    ) {
      _ = try Injection.childInjector { lets in lets.checkCompleteness(in: CheckedEverywhereHost.self) }
    }
    #expect(throws: expected) {
      try Injection.withIsolatedInjections { try Injection.addModule(IncompleteModule()) }
    }
    #expect(throws: InjectionError.self) {  // a scope naming nothing is a mistake everywhere
      _ = try Injection.childInjector { lets in lets.checkCompleteness(inModules: "NoSuchModule") }
    }
    // Also with `skipChecks()`, in either order, in a block or another batch (review H85: it hid the typo).
    for skipFirst in [true, false] {
      let typo: (InjectionRules) -> Void = { lets in
        if skipFirst { lets.skipChecks() }
        lets.checkCompleteness(inModules: "ImperativePluginTest")
        if !skipFirst { lets.skipChecks() }
      }
      #expect(throws: InjectionError.self) { try Injection.imperative(typo) }
      #expect(throws: InjectionError.self) { _ = try Injection.childInjector(typo) }
    }
    try Injection.withIsolatedInjections {
      let lets = InjectionRules()
      lets.checkCompleteness(in: CheckedEverywhereHost.self)
      try lets.inject(Settings.self).declared(in: CheckedEverywhereHost.self).value(Settings(name: "commit"))
      #expect(throws: expected) { try Injection.commit(lets) }
      #expect(!Injection.isInjected(CheckedEverywhereHost.self, "settings"))  // nothing applied
      try lets.inject(Int.self).declared(in: CheckedEverywhereHost.self).value(8080)
      try Injection.commit(lets)
      #expect(CheckedEverywhereHost().port == 8080)
      // A batch that does not ask is not checked; skipChecks turns an asked check off.
      let unchecked = InjectionRules()
      try unchecked.inject(Settings.self).declared(in: CheckedEverywhereHost.self).value(Settings(name: "free"))
      try Injection.rejectAllInjections()
      try Injection.commit(unchecked)
      let skipped = InjectionRules()
      skipped.checkCompleteness(in: CheckedEverywhereHost.self)
      skipped.skipChecks()
      try Injection.commit(skipped)
    }
    // Every attempt above failed or was isolated.
    #expect(!Injection.isInjected(CheckedEverywhereHost.self, "settings"))
  }

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

  @Test func aBatchKeptAfterItsBlockRefusesRules() async throws {
    // Before, a rule recorded on a saved `lets` was accepted and applied nowhere.
    nonisolated(unsafe) var saved: InjectionRules?
    try Injection.imperative { lets in
      lets.skipChecks()
      saved = lets
    }
    let lets = try #require(saved)
    #expect(throws: InjectionError.batchEnded) {
      try lets.inject(String?.self).declared(in: KeptLetsHost.self).value("late")
    }
    #expect(!Injection.isInjected(KeptLetsHost.self, "label"))
    // So does an override's, also when it recorded nothing.
    nonisolated(unsafe) var keptOverride: InjectionRules?
    try Injection.withOverrides({ lets in keptOverride = lets }) {}
    #expect(throws: InjectionError.batchEnded) {
      try keptOverride?.inject(String?.self).declared(in: KeptLetsHost.self).value("late")
    }
    // So does a dry run's.
    nonisolated(unsafe) var keptDryRun: InjectionRules?
    _ = try Injection.imperativeDryRun { lets in keptDryRun = lets }
    #expect(throws: InjectionError.batchEnded) {
      try keptDryRun?.inject(String?.self).declared(in: KeptLetsHost.self).value("late")
    }
    // Planning its own batch inside the block does not end it.
    try Injection.imperative { lets in
      lets.skipChecks()
      _ = try Injection.plan(lets)
      try lets.inject(String?.self).declared(in: PlannedInBlockHost.self).value("after the plan")
    }
    #expect(PlannedInBlockHost().label == "after the plan")
    // A batch its maker commits may be filled and committed again.
    let own = InjectionRules()
    try own.inject(String?.self).declared(in: ReusedBatchHost.self).value("first")
    try Injection.commit(own)
    try own.inject(String?.self).declared(in: ReusedBatchHost.self).value("second")
    try Injection.commit(own)
    #expect(ReusedBatchHost().label == "second")
    // Verbs that cannot throw stop at the call (before: a warning on standard error, and the call went on).
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      nonisolated(unsafe) var kept: InjectionRules?
      try Injection.imperative { lets in
        lets.skipChecks()
        kept = lets
      }
      kept?.injectLazy()
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr.hasPrefix("A rule was recorded on a batch whose block has ended"))
  }

  @Test func aDirectCommitInsideTheBlockIsRefusedAtTheCall() throws {
    // `Injection.inject` where `lets.inject` was meant: before, it applied at once and stayed although the
    // block then threw.
    struct Boom: Error {}
    var refused: (any Error)?
    #expect(throws: Boom.self) {
      try Injection.imperative { lets in
        lets.skipChecks()
        do {
          try Injection.inject(String?.self).declared(in: DirectCommitHost.self).value("leaked")
        } catch {
          refused = error
        }
        throw Boom()
      }
    }
    #expect((refused as? InjectionError) == .commitWhileRecording)
    #expect(!Injection.isInjected(DirectCommitHost.self, "label"))
    // The block's own rules, and commits after it, are as before.
    try Injection.imperative { lets in
      lets.skipChecks()
      try lets.inject(String?.self).declared(in: DirectCommitHost.self).value("recorded")
    }
    #expect(DirectCommitHost().label == "recorded")
  }

  @Test func aTaskStartedInTheBlockCommitsWhenItRunsAfterIt() async throws {
    // Only the recording thread is refused: a task started in the block runs apart from the batch.
    let gate = AsyncStream<Void>.makeStream()
    nonisolated(unsafe) var late: Task<Void, any Error>?
    try Injection.imperative { lets in
      lets.skipChecks()
      late = Task {
        for await _ in gate.stream { break }
        try Injection.inject(String?.self).declared(in: LateCommitFromBlockHost.self).value("late")
      }
    }
    gate.continuation.yield(())
    gate.continuation.finish()
    try await late?.value
    #expect(LateCommitFromBlockHost().label == "late")
  }

  @Test func wiringRunOutsideOverridesMayCommitFromInsideARecordedBatch() throws {
    try Injection.imperative { lets in
      lets.skipChecks()
      BlockWiring.done
    }
    #expect(WiredFromBlockHost().label == "wired")
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

  @Test func dryRunReturnsTheFindingsOfTheSameCheckForTheBlocksScope() throws {
    let block: (InjectionRules) throws -> Void = { lets in
      lets.checkCompleteness(in: DryRunHost.self)
      try lets.inject(Int.self).declared(in: DryRunHost.self).named("first").value(1)
      try lets.inject(String.self).declared(in: DryRunHost.self).value("no String property there")
    }
    let dry = try Injection.imperativeDryRun(block)
    #expect(dry.plan.entries.map(\.property.name) == ["first"])
    #expect(dry.plan.unmatchedSelections.map(\.isMistake) == [true])
    #expect(dry.missing == ["ImperativePluginTests.DryRunHost.second: Swift.Int (Inject)"])
    #expect(dry.emptyOptionals == ["ImperativePluginTests.DryRunHost.note: Swift.Optional<Swift.String> (Inject)"])
    #expect(dry.plan.emptyProperties.allSatisfy { $0.declaringClass == DryRunHost.self })  // the block's scope only
    let expected = InjectionError.selectionMatchesNothing(
      selection: "Inject: type Swift.String, in ImperativePluginTests.DryRunHost",
      nearMisses: [
        "ImperativePluginTests.DryRunHost.note: Swift.Optional<Swift.String> — its type is String?, not String: "
          + "select String?.self",
        "ImperativePluginTests.DryRunHost.first: Swift.Int — its type is Int, not String: select Int.self",
        "ImperativePluginTests.DryRunHost.second: Swift.Int — its type is Int, not String: select Int.self",
      ])
    #expect(dry.error == expected)
    #expect(!Injection.isInjected(DryRunHost.self, "first"))
    #expect(dry.description.contains("DryRunHost.first: Swift.Int  <-  inject value Swift.Int"))
    #expect(dry.description.contains("missing: ImperativePluginTests.DryRunHost.second: Swift.Int (Inject)"))
    #expect(throws: expected) { try Injection.imperative(block) }
    #expect(throws: InjectionError.missingInjections(dry.missing)) {
      try Injection.imperative { lets in
        lets.checkCompleteness(in: DryRunHost.self)
        try lets.inject(Int.self).declared(in: DryRunHost.self).named("first").value(1)
      }
    }
    #expect(!Injection.isInjected(DryRunHost.self, "first"))
  }

  @Test func optionalPropertiesAreNotMissing() throws {
    let plan = try Injection.imperative { lets in
      lets.checkCompleteness(in: OptionalOnlyHost.self)
    }
    #expect(plan.emptyProperties.map(\.name) == ["maybe"])
    #expect(OptionalOnlyHost().maybe == nil)
  }

  @Test func genericClassesAreCheckedBeforeAnySpecialization() throws {
    let dry = try Injection.imperativeDryRun { lets in lets.checkCompleteness(inModules: "ImperativePluginTests") }
    #expect(
      dry.missing.contains("ImperativePluginTests.GenericChecked.count: ImperativePluginTests.GenericCount (Inject)"))
    #expect(
      dry.emptyOptionals.contains("ImperativePluginTests.GenericChecked.label: Swift.Optional<Swift.String> (Inject)"))
    #expect(
      dry.checkedPerSpecialization.contains(
        "ImperativePluginTests.GenericChecked.element (its type depends on the generic parameters) (Inject)"))
    let injected = try Injection.imperativeDryRun { lets in
      lets.checkCompleteness(inModules: "ImperativePluginTests")
      try lets.inject(GenericCount.self).value(GenericCount(value: 1))
    }
    #expect(!injected.missing.contains { $0.contains("GenericChecked.count") })
  }

  @Test func aClassScopeChecksItsGenericSubclassesBeforeAnySpecialization() throws {
    // Before, `checkCompleteness(in: Base.self)` passed while a generic subclass's property, unused so far,
    // would stop its first read (found by review H54).
    let missingOne = try Injection.imperativeDryRun { lets in
      lets.checkCompleteness(in: CheckedScreen.self)
      try lets.inject(String.self).declared(in: CheckedScreen.self).named("title").value("screen")
    }
    #expect(missingOne.missing == ["ImperativePluginTests.CheckedPage.pageName: Swift.String (Inject)"])
    let dry = try Injection.imperativeDryRun { lets in
      lets.checkCompleteness(in: CheckedScreen.self)
      try lets.inject(String.self).declared(in: CheckedScreen.self).named("title").value("screen")
      try lets.inject(String.self).named("pageName").value("page")
    }
    #expect(dry.missing.isEmpty)
    #expect(
      dry.checkedPerSpecialization
        == ["ImperativePluginTests.CheckedPage.items (its type depends on the generic parameters) (Inject)"])
    // A generic subclass of another generic class is checked per specialization, once one is used.
    #expect(!dry.missing.contains { $0.contains("CheckedNested") })
  }

  @Test func aSetterAloneLeavesANonOptionalPropertyMissing() async throws {
    // Before, the check passed and the first read stopped (review H67): a setter leaves reads plain.
    let dry = try Injection.imperativeDryRun { lets in
      lets.checkCompleteness(in: SetterOnlyThemed.self)
      try lets.inject(SetterOnlyTheme.self).declared(in: SetterOnlyThemed.self).setter {
        _, storage, newValue, original in
        original.set(&storage, newValue)
      }
    }
    #expect(
      dry.missing == ["ImperativePluginTests.SetterOnlyThemed.theme: ImperativePluginTests.SetterOnlyTheme (Inject)"])
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.inject(SetterOnlyTheme.self).declared(in: SetterOnlyThemed.self).setter {
        _, storage, value, original in
        original.set(&storage, value)
      }
      _ = SetterOnlyThemed().theme
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("its injection (setter) leaves reads plain (it handles writes only)"))
  }

  @Test func aSpecializationThatASubclassFixesIsCheckedBeforeItsFirstUse() throws {
    // Before, a rule naming another specialization left the one `ModelFeed` inherits unchecked until it was
    // used, and its first read stopped the program (found by review H57).
    let base = "ImperativePluginTests.SpecializedFeedBase<ImperativePluginTests.FeedModel>"
    let dry = try Injection.imperativeDryRun { lets in
      lets.checkCompleteness(inModules: "ImperativePluginTests")
      try lets.inject(FeedSource.self).declared(in: SpecializedFeedBase<String>.self).value(FeedSource(name: "other"))
    }
    #expect(dry.missing.contains("\(base).source: ImperativePluginTests.FeedSource (Inject)"))
    #expect(dry.missing.contains("\(base).model: ImperativePluginTests.FeedModel (Inject)"))
    let covered = try Injection.imperativeDryRun { lets in
      lets.checkCompleteness(inModules: "ImperativePluginTests")
      try lets.inject(FeedSource.self).value(FeedSource(name: "feed"))
      try lets.inject(FeedModel.self).declared(in: SpecializedFeedBase<FeedModel>.self).value(FeedModel())
    }
    #expect(!covered.missing.contains { $0.hasPrefix(base) })
  }

  @Test func aSpecializationThatAGenericSubclassFixesIsCheckedBeforeItsFirstUse() throws {
    // Before, only non-generic subclasses were noted: the whole-process check passed, and the first read of
    // `FixedPage<Int>().state` stopped the program (nothing was injected into `FixedScreen<FixedPageState>`).
    let base = "ImperativePluginTests.FixedScreen<ImperativePluginTests.FixedPageState>"
    let dry = try Injection.imperativeDryRun { lets in
      lets.checkCompleteness(inModules: "ImperativePluginTests")
      try lets.inject(ScreenLogger.self).value(ScreenLogger())
    }
    #expect(dry.missing.contains("\(base).state: ImperativePluginTests.FixedPageState (Inject)"))
    #expect(!dry.missing.contains { $0.hasPrefix("\(base).logger") })
    let covered = try Injection.imperativeDryRun { lets in
      lets.checkCompleteness(inModules: "ImperativePluginTests")
      try lets.inject(ScreenLogger.self).value(ScreenLogger())
      try lets.inject(FixedPageState.self).value(FixedPageState())
    }
    #expect(!covered.missing.contains { $0.hasPrefix(base) })
  }

  @Test func aSpecializationFixedAlongANestedChainIsCheckedBeforeItsFirstUse() throws {
    let fixed = "ImperativePluginTests.ChainBase<ImperativePluginTests.ChainFixed>"
    let passed = "ImperativePluginTests.ChainPassingBase<ImperativePluginTests.ChainPassed>"
    let dry = try Injection.imperativeDryRun { lets in
      lets.checkCompleteness(inModules: "ImperativePluginTests")
    }
    #expect(dry.missing.contains("\(fixed).fixedValue: ImperativePluginTests.ChainFixed (Inject)"))
    #expect(dry.missing.contains("\(passed).passedValue: ImperativePluginTests.ChainPassed (Inject)"))
    let covered = try Injection.imperativeDryRun { lets in
      lets.checkCompleteness(inModules: "ImperativePluginTests")
      try lets.inject(ChainFixed.self).value(ChainFixed())
      try lets.inject(ChainPassed.self).value(ChainPassed())
    }
    #expect(!covered.missing.contains { $0.hasPrefix(fixed) || $0.hasPrefix(passed) })
  }

  @Test func aSubclassThatFixesASpecializationHasItsOwnPropertiesCheckedToo() throws {
    // The pass resolves the specialization from the subclass's superclass name, not the subclass itself:
    // the subclass's own marked fields are resolved as any non-generic class's are.
    let dry = try Injection.imperativeDryRun { lets in
      lets.checkCompleteness(inModules: "ImperativePluginTests")
    }
    #expect(
      dry.missing.contains(
        "ImperativePluginTests.OwnFieldsBase<ImperativePluginTests.OwnFieldsModel>.baseModel: "
          + "ImperativePluginTests.OwnFieldsModel (Inject)"))
    #expect(
      dry.missing.contains("ImperativePluginTests.OwnFieldsFeed.ownSource: ImperativePluginTests.FeedSource (Inject)"))
  }

  @Test func aCompletenessScopeThatNamesNothingIsAnErrorNotACheckOfNothing() throws {
    // A mistyped module: the block throws instead of checking nothing, and applies nothing.
    do {
      try Injection.imperative { lets in
        lets.checkCompleteness(inModules: "ImperativePluginTest")
        try lets.inject(Int.self).declared(in: MarkedScopeHost.self).value(1)
      }
      Issue.record("expected selectionMatchesNothing")
    } catch InjectionError.selectionMatchesNothing(let selection, let nearMisses) {
      #expect(
        selection == "the completeness scope's module \"ImperativePluginTest\" (a module scope sees the marked "
          + "properties its classes declare; name a class that only inherits them with checkCompleteness(in:))")
      #expect(
        nearMisses == [
          "module \"ImperativePluginTests\" has marked properties: select "
            + "checkCompleteness(inModules: \"ImperativePluginTests\")"
        ])
    }
    #expect(!Injection.isInjected(MarkedScopeHost.self, "number"))
    // A class with no marked property of its own, inherited or in a subclass.
    #expect(
      throws: InjectionError.selectionMatchesNothing(
        selection: "the completeness scope's class ImperativePluginTests.UnmarkedScopeHost (it declares, "
          + "inherits and passes on no marked property)", nearMisses: [])
    ) {
      try Injection.imperative { lets in lets.checkCompleteness(in: UnmarkedScopeHost.self, MarkedScopeHost.self) }
    }
    // The dry run reports it as its error, and lists it.
    let dry = try Injection.imperativeDryRun { lets in lets.checkCompleteness(inModules: "ImperativePluginTest") }
    #expect(dry.missing.isEmpty)
    #expect(dry.scopeMatchingNothing.count == 1)
    #expect(dry.error == dry.scopeMatchingNothing.first)
    #expect(dry.description.contains("scope matches nothing: No marked property matches the completeness scope"))
    // skipChecks() turns the check off, but a scope naming nothing is still a mistake: before, it turned
    // the scope off too, and a shared setup's skipChecks() hid a test's typo (review H85).
    #expect(throws: InjectionError.self) {
      try Injection.imperative { lets in
        lets.skipChecks()
        lets.checkCompleteness(in: UnmarkedScopeHost.self)
      }
    }
    try Injection.imperative { lets in
      lets.skipChecks()
      lets.checkCompleteness(in: MarkedScopeHost.self)  // its empty properties are not checked
    }
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

private class MixedBase {
  @Inject var host: String
  @Inject var port: Int
}
private final class MixedSub: MixedBase {}

private class MixedIncompleteBase {
  @Inject var host: String
}
private final class MixedIncompleteSub: MixedIncompleteBase {}

private class ScopedViewBase {
  @Inject var endpoint: String
}
private final class ScopedViewSub: ScopedViewBase {
  @Inject var port: Int
}
private final class ScopedViewOtherSub: ScopedViewBase {}

private class EmptyViewBase {
  @Inject var endpoint: String
}
private final class EmptyViewSub: EmptyViewBase {}

@Suite struct ImperativeSubclassTests {
  @Test func aBlockMixingBaseAndSubclassRulesIsCompleteAndSelectsNothingTwice() throws {
    let plan = try Injection.imperative { lets in
      lets.checkCompleteness(in: MixedBase.self)
      try lets.inject(String.self).declared(in: MixedBase.self).value("base")
      try lets.inject(Int.self).declared(in: MixedBase.self).value(1)
      try lets.inject(String.self).declared(in: MixedSub.self).value("sub")
    }
    #expect(plan.multiplySelected.isEmpty)
    #expect(plan.entries.filter(\.property.isSubclassView).map(\.property.name) == ["host"])
    #expect(MixedBase().host == "base")
    #expect(MixedSub().host == "sub")
    #expect(MixedSub().port == 1)
  }

  @Test func aScopeNamingASubclassChecksWhatItsInstancesRead() throws {
    let block: (InjectionRules) throws -> Void = { lets in
      lets.checkCompleteness(in: ScopedViewSub.self)
      try lets.inject(String.self).declared(in: ScopedViewSub.self).value("sub")
      try lets.inject(Int.self).declared(in: ScopedViewSub.self).value(8080)
    }
    // The base and the sibling stay empty, but their instances are outside the scope.
    #expect(try Injection.imperativeDryRun(block).missing.isEmpty)
    try Injection.imperative(block)
    #expect(ScopedViewSub().endpoint == "sub")
    #expect(ScopedViewSub().port == 8080)
    #expect(!Injection.isInjected(ScopedViewOtherSub.self, "endpoint"))
  }

  @Test func aSubclassInScopeWhoseInheritedPropertyIsEmptyIsNamedAsTheSubclassSees() throws {
    let block: (InjectionRules) throws -> Void = { lets in lets.checkCompleteness(in: EmptyViewSub.self) }
    let expected = [
      "ImperativePluginTests.EmptyViewSub.endpoint: Swift.String (inherited from "
        + "ImperativePluginTests.EmptyViewBase) (Inject)"
    ]
    #expect(try Injection.imperativeDryRun(block).missing == expected)
    #expect(throws: InjectionError.missingInjections(expected)) { try Injection.imperative(block) }
    // Named twice, listed once.
    let twice: (InjectionRules) throws -> Void = { lets in
      lets.checkCompleteness(in: EmptyViewSub.self, EmptyViewSub.self)
      lets.checkCompleteness(in: EmptyViewSub.self)
    }
    #expect(try Injection.imperativeDryRun(twice).missing == expected)
  }

  @Test func aSubclassRuleAloneLeavesTheDeclaringClassMissing() throws {
    do {
      try Injection.imperative { lets in
        lets.checkCompleteness(in: MixedIncompleteBase.self)
        try lets.inject(String.self).declared(in: MixedIncompleteSub.self).value("sub")
      }
      Issue.record("expected missingInjections")
    } catch InjectionError.missingInjections(let missing) {
      #expect(missing.count == 1)
      #expect(missing.first?.contains("MixedIncompleteBase.host: Swift.String (Inject)") == true)
    }
    #expect(!Injection.isInjected(MixedIncompleteSub.self, "host"))  // nothing applied
  }
}
