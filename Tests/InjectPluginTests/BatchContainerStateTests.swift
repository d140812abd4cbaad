import InjectPlugin
import InjectionKernel
import Synchronization
import Testing

// A batch of `lets` is recorded, then committed: what it does about the container's named bindings is
// worked out when it commits, from the bindings and modules the container holds then (found by review
// H60: it was worked out when recorded). Each test has its own types: the rules of a type are
// process-wide.

private final class StaleNameTool: Sendable {
  let source: String
  init(_ source: String) { self.source = source }
}
private final class StaleNameHost {
  @Inject var x: StaleNameTool?
}
private final class StaleNameModule: InjectionModule {
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(StaleNameTool.self, named: "x").value(StaleNameTool("module"))
  }
}

private final class LateNameTool: Sendable {
  let source: String
  init(_ source: String) { self.source = source }
}
private final class LateNameHost {
  @Inject var x: LateNameTool?
}

private final class LateOwnerTool: Sendable {
  let source: String
  init(_ source: String) { self.source = source }
}
private final class LateOwnerHost {
  @Inject var x: LateOwnerTool?
}
private final class LateOwnerModule: InjectionModule {
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(LateOwnerTool.self, named: "x").value(LateOwnerTool("module"))
  }
}

private final class UnboundInBatchTool: Sendable {
  let source: String
  init(_ source: String) { self.source = source }
}
private final class UnboundInBatchHost {
  @Inject var backup: UnboundInBatchTool
}

private final class CountedNameTool: Sendable {
  let source: String
  init(_ source: String) { self.source = source }
}
private final class CountedNameHost {
  @Inject var backup: CountedNameTool
}

@Suite struct BatchContainerStateTests {
  @Test func aBindingOfTheTypeAloneCountsOnceForANamedPropertyItLeavesToItsName() throws {
    // Before, the name's binding recorded again after it counted as a second rule: a plan (an imperative
    // block's result) listed the property as selected by 2 rules of a batch that had one (review H65).
    try Injection.inject(CountedNameTool.self, named: "backup").value(CountedNameTool("app backup"))
    let lets = InjectionRules()
    try lets.inject(CountedNameTool.self).value(CountedNameTool("main"))
    let plan = try Injection.plan(lets)
    let backup = try #require(plan.entries.first { $0.property.declaringClass == CountedNameHost.self })
    #expect(backup.ruleCount == 1)
  }

  @Test func aNameTheBatchUnbindsAfterBindingTheTypeAloneGetsTheTypesBinding() throws {
    // Before, the name's committed binding, recorded again after the binding by type alone, came back: the
    // unbinding is a retraction, applied before the batch's other changes (found by review H65).
    try Injection.inject(UnboundInBatchTool.self, named: "backup").value(UnboundInBatchTool("app backup"))
    let lets = InjectionRules()
    try lets.inject(UnboundInBatchTool.self).value(UnboundInBatchTool("new"))
    try lets.inject(UnboundInBatchTool.self, named: "backup").reject()
    try Injection.commit(lets)
    #expect(UnboundInBatchHost().backup.source == "new")
    #expect(try Injection.resolve(UnboundInBatchTool.self, named: "backup").source == "new")
  }

  @Test func aModuleRemovedBeforeTheBatchCommitsKeepsItsNamedBindingGone() throws {
    try Injection.inject(StaleNameTool.self).value(StaleNameTool("app"))
    let module = StaleNameModule()
    try Injection.addModule(module)
    let lets = InjectionRules()
    try lets.inject(StaleNameTool.self).value(StaleNameTool("new"))
    try Injection.removeModule(module)
    try Injection.commit(lets)
    #expect(StaleNameHost().x?.source == "new")  // before: "module", which no unbinding could take back
    #expect(try Injection.resolve(StaleNameTool.self, named: "x").source == "new")
  }

  @Test func aNameBoundBeforeTheBatchCommitsStaysMoreSpecificThanTheBatchsTypeBinding() throws {
    let lets = InjectionRules()
    try lets.inject(LateNameTool.self).value(LateNameTool("batch"))
    try Injection.inject(LateNameTool.self, named: "x").value(LateNameTool("app x"))
    try Injection.commit(lets)
    #expect(LateNameHost().x?.source == "app x")  // before: "batch"
    #expect(try Injection.resolveAll(LateNameTool.self).map(\.source).sorted() == ["app x", "batch"])
  }

  @Test func anUnbindingTakesBackAModulesBindingOfTheNameMadeBeforeTheBatchCommits() throws {
    try Injection.inject(LateOwnerTool.self).value(LateOwnerTool("app"))
    let lets = InjectionRules()
    try lets.inject(LateOwnerTool.self, named: "x").reject()
    let module = LateOwnerModule()
    try Injection.addModule(module)
    try Injection.commit(lets)
    #expect(LateOwnerHost().x?.source == "app")  // before: "module"
    #expect(try Injection.resolve(LateOwnerTool.self, named: "x").source == "app")
    try Injection.removeModule(module)
  }
}

private final class RenamedInBatchTool: Sendable {
  let source: String
  init(_ source: String) { self.source = source }
}
private final class RenamedInBatchHost {
  @Inject var backup: RenamedInBatchTool
}

private final class RetypedInBatchTool: Sendable {
  let source: String
  init(_ source: String) { self.source = source }
}
private final class RetypedInBatchHost {
  @Inject var backup: RetypedInBatchTool
}

private final class ReboundInBatchTool: Sendable {
  let source: String
  init(_ source: String) { self.source = source }
}
private final class ReboundInBatchHost {
  @Inject var backup: ReboundInBatchTool
}

private final class ReplacedEagerTool: Sendable {
  static let built = LockedState<[String]>([])
  let source: String
  init(_ source: String, counted: Bool = true) {
    self.source = source
    if counted { Self.built.withLock { $0.append(source) } }
  }
}
private final class RejectedEagerTool: Sendable {
  static let built = Atomic<Int>(0)
  init() { Self.built.add(1, ordering: .relaxed) }
}
private final class NeverBoundTool: Sendable {}
private final class NeverBoundHost {
  @Inject var backup: NeverBoundTool?
}

private final class WithdrawnEagerTool: Sendable {
  static let built = Atomic<Int>(0)
  init() { Self.built.add(1, ordering: .relaxed) }
}

// Before, an unbinding of a name the batch had bound was recorded as a rejection (a retraction applies
// before the batch's other changes, so it could not take back the batch's own binding): the name's
// properties then read nothing, whatever the type's binding (found by review H69).
extension BatchContainerStateTests {
  @Test func aPlanListsNoChangeForUnbindingANameNothingIsBoundTo() throws {
    // The property keeps the type's binding (wrapped for its optional): before, the plan listed it as
    // changed (review H73).
    try Injection.inject(NeverBoundTool.self).value(NeverBoundTool())
    let lets = InjectionRules()
    try lets.inject(NeverBoundTool.self, named: "backup").reject()
    let plan = try Injection.plan(lets)
    #expect(!plan.entries.contains { $0.property.declaringClass == NeverBoundHost.self })
  }

  @Test func anEagerSingletonTheBatchBindsAndThenUnbindsIsNotBuilt() throws {
    // Before, its build ran after the commit though its binding was withdrawn (review H73).
    let lets = InjectionRules()
    try lets.inject(WithdrawnEagerTool.self, named: "backup").eagerSingleton { _ in WithdrawnEagerTool() }
    try lets.inject(WithdrawnEagerTool.self, named: "backup").reject()
    try Injection.commit(lets)
    #expect(WithdrawnEagerTool.built.load(ordering: .relaxed) == 0)
  }

  @Test func anEagerSingletonTheSameBatchReplacesOrRejectsIsNotBuilt() throws {
    // Only the binding in force after the commit is built (review H75: a replaced or rejected one was too).
    let lets = InjectionRules()
    try lets.inject(ReplacedEagerTool.self).eagerSingleton { _ in ReplacedEagerTool("first") }
    try lets.inject(ReplacedEagerTool.self).eagerSingleton { _ in ReplacedEagerTool("second") }
    try lets.inject(ReplacedEagerTool.self).value(ReplacedEagerTool("value", counted: false))
    try lets.inject(ReplacedEagerTool.self, named: "backup").eagerSingleton { _ in ReplacedEagerTool("backup") }
    try Injection.commit(lets)
    #expect(ReplacedEagerTool.built.withLock { $0 } == ["backup"])
    #expect(try Injection.resolve(ReplacedEagerTool.self).source == "value")
    let rejecting = InjectionRules()
    try rejecting.inject(RejectedEagerTool.self).eagerSingleton { _ in RejectedEagerTool() }
    try rejecting.inject(RejectedEagerTool.self).reject()
    try Injection.commit(rejecting)
    #expect(RejectedEagerTool.built.load(ordering: .relaxed) == 0)
  }

  @Test func aNameTheBatchBindsUnbindsAndBindsAgainGetsTheLastBinding() throws {
    try Injection.inject(ReboundInBatchTool.self).value(ReboundInBatchTool("app"))
    let lets = InjectionRules()
    try lets.inject(ReboundInBatchTool.self, named: "backup").value(ReboundInBatchTool("first"))
    try lets.inject(ReboundInBatchTool.self, named: "backup").reject()
    try lets.inject(ReboundInBatchTool.self, named: "backup").value(ReboundInBatchTool("second"))
    try Injection.commit(lets)
    #expect(ReboundInBatchHost().backup.source == "second")
    #expect(try Injection.resolveAll(ReboundInBatchTool.self).map(\.source) == ["app", "second"])
  }

  @Test func aNameTheBatchBindsAndThenUnbindsGetsTheCommittedTypesBinding() throws {
    try Injection.inject(RenamedInBatchTool.self).value(RenamedInBatchTool("app"))
    let lets = InjectionRules()
    try lets.inject(RenamedInBatchTool.self, named: "backup").value(RenamedInBatchTool("batch backup"))
    try lets.inject(RenamedInBatchTool.self, named: "backup").reject()
    try Injection.commit(lets)
    #expect(RenamedInBatchHost().backup.source == "app")
    #expect(try Injection.resolve(RenamedInBatchTool.self, named: "backup").source == "app")
    #expect(try Injection.resolveAll(RenamedInBatchTool.self).map(\.source) == ["app"])
  }

  @Test func aNameTheBatchBindsThenUnbindsAfterBindingTheTypeGetsTheBatchsTypeBinding() throws {
    try Injection.inject(RetypedInBatchTool.self).value(RetypedInBatchTool("app"))
    let lets = InjectionRules()
    try lets.inject(RetypedInBatchTool.self, named: "backup").value(RetypedInBatchTool("batch backup"))
    try lets.inject(RetypedInBatchTool.self).value(RetypedInBatchTool("new"))
    try lets.inject(RetypedInBatchTool.self, named: "backup").reject()
    try Injection.commit(lets)
    #expect(RetypedInBatchHost().backup.source == "new")
    #expect(try Injection.resolve(RetypedInBatchTool.self, named: "backup").source == "new")
  }
}
