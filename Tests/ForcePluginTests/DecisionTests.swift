import ForcePlugin
import InjectPlugin
import Synchronization
import TestSupport
import Testing

// Each test uses its own `ForceInjector` and its own fixture classes, so tests run in parallel.

private final class Network: Sendable {
  let host: String
  init(host: String) { self.host = host }
}

private final class Session: Sendable {}

private final class MarkedHost {
  @Inject var injected: Network?
  var plain: Network?
  let constant = 1
  var count = 0
  lazy var computedOnce: Int = 42
}

private final class ProviderHost {
  var session: Session?
  var network: Network?
}

private class RejectBase {
  var network: Network?
  var name = ""
}

private final class RejectChild: RejectBase {
  var session: Session?
}

private final class NewestHost {
  var network: Network?
}

private class ScopeBase {
  var network: Network?
  var count = 0
}

private final class ScopeChild: ScopeBase {
  var session: Session?
}

private final class ScopeSibling: ScopeBase {}

private final class KeyedHost {
  var network: Network?
  var session: Session?
}

private final class KeyedLifetimeHost {
  var tracked: KeyedTracked?
}

private final class DeinitCounter: Sendable {
  let count = Atomic<Int>(0)
}

/// Counts its deinit on a counter shared with the test.
private final class KeyedTracked: Sendable {
  let deinits: DeinitCounter
  init(counting deinits: DeinitCounter) { self.deinits = deinits }
  deinit { deinits.count.add(1, ordering: .relaxed) }
}

private final class MismatchHost {
  var count = 0
  var label = "untouched"
}

private final class LazyMismatchHost {
  var count = 0
  var label = "untouched"
}

private final class AskedOnceHost {
  var first: Int = 0
  var second: String = ""
}

private final class EmptyOnlyHost {
  var preset: Network? = Network(host: "preset")
  var empty: Network?
  var number = 7
}

private final class ObservedHost: FillObserver {
  var network: Network?
  var reports: [FillReport] = []
  func didInjectDependencies(_ report: FillReport) { reports.append(report) }
}

private final class SelfFilling {
  var network: Network?
  init(injector: ForceInjector) throws {
    try injector.fill(self)
  }
}

/// Records what a decision closure was asked (closures are `@Sendable`).
private final class Asked: Sendable {
  private let names = Mutex<[String]>([])
  func record(_ property: ForceProperty) { names.withLock { $0.append(property.name) } }
  var all: [String] { names.withLock { $0 } }
}

@Suite struct DecisionClosure {
  @Test func seesUnmarkedStoredVarsOnly() throws {
    let injector = ForceInjector()
    let asked = Asked()
    try injector.forceInject { property in
      if property.isDeclared(in: MarkedHost.self) { asked.record(property) }
      return .skip
    }
    try injector.fill(MarkedHost())
    // Not `@Inject var injected`, not `let constant`, not the `lazy var`'s synthesized storage.
    #expect(asked.all.sorted() == ["count", "plain"])
  }

  @Test func seesDeclaringClassNameAndValueType() throws {
    let injector = ForceInjector()
    let seen = Mutex<[String]>([])
    try injector.forceInject(in: ProviderHost.self) { property in
      seen.withLock { $0.append("\(property.className).\(property.name): \(property.valueTypeName)") }
      #expect(ObjectIdentifier(property.declaringClass) == ObjectIdentifier(ProviderHost.self))
      return .skip
    }
    let names = seen.withLock { $0 }.sorted()
    #expect(names.count == 2)
    #expect(names.allSatisfy { $0.hasPrefix("ForcePluginTests.") })
    #expect(names[0].contains("ProviderHost.network: Swift.Optional<"))
    #expect(names[1].contains("ProviderHost.session: Swift.Optional<"))
  }

  @Test func valueIsTheSameInstanceInEveryFilledObject() throws {
    let injector = ForceInjector()
    let network = Network(host: "example.com")
    try injector.forceInject(in: ProviderHost.self) { $0.name == "network" ? .value(network) : .skip }
    let first = ProviderHost()
    let second = ProviderHost()
    try injector.fill(first)
    try injector.fill(second)
    #expect(first.network === network)
    #expect(second.network === network)
    #expect(first.session == nil)
  }

  @Test func providerGivesDistinctValuesPerInstance() throws {
    let injector = ForceInjector()
    try injector.forceInject(in: ProviderHost.self) { $0.name == "session" ? .provider { Session() } : .skip }
    let first = ProviderHost()
    let second = ProviderHost()
    try injector.fill(first)
    try injector.fill(second)
    let a = try #require(first.session)
    let b = try #require(second.session)
    #expect(a !== b)
  }

  @Test func rejectByPredicateHidesOlderDecisionsOnly() throws {
    let injector = ForceInjector()
    let network = Network(host: "a")
    try injector.forceInject(in: RejectBase.self) { property in
      switch property.name {
      case "network": return .value(network)
      case "name": return .value("filled")
      case "session": return .provider { Session() }
      default: return .skip
      }
    }
    injector.forceReject { $0.name == "network" }
    let child = RejectChild()
    let report = try injector.fill(child)
    #expect(child.network == nil)
    #expect(child.name == "filled")  // a superclass property, filled on a subclass instance
    #expect(child.session != nil)
    #expect(report.injectedNames == ["name", "session"])
    // A newer rule applies again.
    try injector.forceInject(in: RejectBase.self) { $0.name == "network" ? .value(network) : .skip }
    try injector.fill(child)
    #expect(child.network === network)
  }

  @Test func aRuleNamingASubclassCoversTheFieldsItsSuperclassesDeclare() throws {
    let injector = ForceInjector()
    let network = Network(host: "base")
    let names = Mutex<[String]>([])
    try injector.forceInject(in: ScopeChild.self) { property in
      names.withLock { $0.append(property.name) }
      switch property.name {
      case "network": return .value(network)
      case "session": return .provider { Session() }
      default: return .skip
      }
    }
    // Asked at once about every field the class declares or inherits.
    #expect(names.withLock { $0.sorted() } == ["count", "network", "session"])
    let child = ScopeChild()
    let report = try injector.fill(child)
    #expect(child.network === network)  // declared by the superclass
    #expect(child.session != nil)
    #expect(report.injectedNames == ["network", "session"])
    // Instances of the superclass and of a sibling are not the rule's (before, their inherited field was
    // filled too).
    let base = ScopeBase()
    let sibling = ScopeSibling()
    #expect(try injector.fill(base).injectedNames.isEmpty)
    #expect(try injector.fill(sibling).injectedNames.isEmpty)
    #expect(base.network == nil && sibling.network == nil)
    let inherited = try #require(Injection.storedProperties(of: ScopeBase.self).first { $0.name == "network" })
    let property = ForceProperty(descriptor: inherited, ownership: .strong)
    #expect(injector.decision(for: property).isSkip)
    #expect(!injector.decision(for: property, in: ScopeChild.self).isSkip)
    // A misfitting value for an inherited field is refused when the rule is added.
    #expect(throws: ForceError.self) {
      try injector.forceInject(in: ScopeChild.self) { $0.name == "count" ? .value("three") : .skip }
    }
  }

  @Test func rejectAllRemovesEveryRule() throws {
    let injector = ForceInjector()
    try injector.forceInject(in: NewestHost.self) { _ in .value(Network(host: "x")) }
    injector.forceRejectAll()
    let host = NewestHost()
    let report = try injector.fill(host)
    #expect(host.network == nil)
    #expect(!report.didInject)
  }

  @Test func newestDecidingRuleWins() throws {
    let injector = ForceInjector()
    let old = Network(host: "old")
    let new = Network(host: "new")
    try injector.forceInject(in: NewestHost.self) { _ in .value(old) }
    try injector.forceInject(in: NewestHost.self) { _ in .value(new) }
    try injector.forceInject(in: NewestHost.self) { _ in .skip }  // skipping leaves it to older rules
    let host = NewestHost()
    try injector.fill(host)
    #expect(host.network === new)
    let property = try #require(
      Injection.storedProperties(of: NewestHost.self).first { $0.name == "network" })
    let decision = injector.decision(for: ForceProperty(descriptor: property, ownership: .strong))
    guard case .value(let decided) = decision else {
      Issue.record("expected a value decision, got \(decision)")
      return
    }
    #expect(decided as? Network === new)
  }

  @Test func aKeyedRuleReplacesTheRuleWithTheSameKeyAndBecomesTheNewest() throws {
    let injector = ForceInjector()
    func filled() throws -> KeyedHost {
      let host = KeyedHost()
      try injector.fill(host)
      return host
    }
    let first = Network(host: "first")
    let second = Network(host: "second")
    let unkeyed = Network(host: "unkeyed")
    try injector.forceInject(in: KeyedHost.self, key: "network") { $0.name == "network" ? .value(first) : .skip }
    try injector.forceInject(in: KeyedHost.self) { $0.name == "network" ? .value(unkeyed) : .skip }
    #expect(try filled().network === unkeyed)
    // The keyed rule is replaced, not stacked: it becomes the newest and `first` is gone from the rules.
    try injector.forceInject(in: KeyedHost.self, key: "network") { $0.name == "network" ? .value(second) : .skip }
    #expect(try filled().network === second)
    // A replacement that skips leaves the property to the older, unkeyed rule, not to `first`.
    try injector.forceInject(in: KeyedHost.self, key: "network") { _ in .skip }
    #expect(try filled().network === unkeyed)
    // Other keys are independent.
    try injector.forceInject(in: KeyedHost.self, key: "session") {
      $0.name == "session" ? .provider { Session() } : .skip
    }
    let host = try filled()
    #expect(host.network === unkeyed && host.session != nil)
  }

  @Test func reconfiguringWithAKeyKeepsOneRuleAndReleasesTheValuesOfTheOldOnes() throws {
    let injector = ForceInjector()
    let deinits = DeinitCounter()
    let host = KeyedLifetimeHost()
    for round in 1...1000 {
      let value = KeyedTracked(counting: deinits)
      try injector.forceInject(in: KeyedLifetimeHost.self, key: "tracked") { _ in .value(value) }
      if round % 100 == 0 { try injector.fill(host) }  // fills hold the newest value only
    }
    // Rounds 1…999 were replaced: their values are released except the one the host's field still holds
    // (round 1000's, which the rule holds too).
    #expect(deinits.count.load(ordering: .relaxed) == 999)
    #expect(host.tracked != nil)
  }

  @Test func aRestoreReleasesTheValuesOfTheRulesItTakesBackAtOnce() async {
    // In a child process: a restore puts back the whole process's state. Before, the plans cached by the
    // last fill kept the rule's value alive until the class was filled again.
    await #expect(processExitsWith: .success) {
      let deinits = DeinitCounter()
      _ = ForceInjector.shared  // a participant in the snapshot (an injector made after it is not)
      let snapshot = Injection.snapshot()
      do {
        let value = KeyedTracked(counting: deinits)
        try Injection.forceInject(in: KeyedLifetimeHost.self) { _ in .value(value) }
      }
      _ = try Injection.fill(KeyedLifetimeHost())
      Injection.restore(snapshot)
      precondition(deinits.count.load(ordering: .relaxed) == 1, "the restored-away rule's value was kept")
    }
  }

  @Test func anInjectorMadeAfterASnapshotDropsEveryStalePlanAtItsNextFill() async {
    // In a child process: a restore puts back the whole process's state. Before, the plan of a class not
    // filled again kept the restored-away rule's value alive.
    await #expect(processExitsWith: .success) {
      let deinits = DeinitCounter()
      let snapshot = Injection.snapshot()
      let injector = ForceInjector()  // not part of the snapshot
      do {
        let value = KeyedTracked(counting: deinits)
        try injector.forceInject(in: KeyedLifetimeHost.self, KeyedHost.self) {
          $0.name == "tracked" ? .value(value) : .skip
        }
      }
      try injector.fill(KeyedLifetimeHost())
      Injection.restore(snapshot)  // the injector's rules are back to none
      try injector.fill(KeyedHost())  // another class: the stale plans go
      precondition(deinits.count.load(ordering: .relaxed) == 1, "a stale plan kept the value")
    }
  }

  @Test func scopedRuleWithAMisfittingValueThrowsWhenInjected() throws {
    let injector = ForceInjector()
    #expect(
      throws: ForceError.typeMismatch(
        property: "\(Injection.typeName(MismatchHost.self)).count: Swift.Int", expected: "Swift.Int",
        given: "Swift.String")
    ) {
      try injector.forceInject(in: MismatchHost.self) { $0.name == "count" ? .value("three") : .skip }
    }
    let host = MismatchHost()
    #expect(!(try injector.fill(host)).didInject)  // the rule was not added
  }

  @Test func unscopedMisfittingValueMakesTheFillThrowAndWriteNothing() throws {
    let injector = ForceInjector()
    try injector.forceInject { property in
      guard property.isDeclared(in: LazyMismatchHost.self) else { return .skip }
      return property.name == "label" ? .value("filled") : .value(3.5)  // 3.5 does not fit `count: Int`
    }
    let host = LazyMismatchHost()
    do {
      try injector.fill(host)
      Issue.record("the fill should have thrown")
    } catch let error as ForceError {
      #expect(error.description.contains("LazyMismatchHost.count: Swift.Int"))
      #expect(error.description.contains("Swift.Double"))
    }
    #expect(host.label == "untouched")  // nothing written, although `label` fits
  }

  @Test func closureIsAskedOncePerProperty() throws {
    let injector = ForceInjector()
    let asked = Asked()
    try injector.forceInject { property in
      guard property.isDeclared(in: AskedOnceHost.self) else { return .skip }
      asked.record(property)
      return property.name == "first" ? .value(1) : .value("two")
    }
    for _ in 0..<5 { try injector.fill(AskedOnceHost()) }
    #expect(asked.all.sorted() == ["first", "second"])
    let host = AskedOnceHost()
    try injector.fill(host)
    #expect(host.first == 1 && host.second == "two")
  }

  @Test func onlyIntoEmptyKeepsPresetValues() throws {
    let injector = ForceInjector()
    let network = Network(host: "decided")
    try injector.forceInject(in: EmptyOnlyHost.self) { property in
      property.name == "number" ? .value(9) : .value(network)
    }
    let host = EmptyOnlyHost()
    let report = try injector.fill(host, policy: .onlyIntoEmpty)
    #expect(host.preset?.host == "preset")
    #expect(host.empty === network)
    #expect(host.number == 7)  // a non-optional is never empty
    #expect(report.skipReason(for: "preset") == .notEmpty)
    #expect(report.skipReason(for: "number") == .notEmpty)
    try injector.fill(host)  // overwrite
    #expect(host.preset === network && host.number == 9)
  }

  @Test func observerIsToldOnlyWhenSomethingWasWritten() throws {
    let injector = ForceInjector()
    let host = ObservedHost()
    try injector.fill(host)
    #expect(host.reports.isEmpty)
    try injector.forceInject(in: ObservedHost.self) { $0.name == "network" ? .value(Network(host: "n")) : .skip }
    try injector.fill(host)
    #expect(host.reports.count == 1)
    #expect(host.reports.first?.injectedNames == ["network"])
  }

  @Test func anObjectFillsItselfInInit() throws {
    let injector = ForceInjector()
    let network = Network(host: "self")
    try injector.forceInject(in: SelfFilling.self) { _ in .value(network) }
    #expect(try SelfFilling(injector: injector).network === network)
  }
}

private final class DecidingFillsItsOwnClass {
  var name: String?
}

/// A decision closure that fills an instance of the class it decides for asks itself again: before, that
/// recursed until the stack overflowed, with no message (review H85).
@Test func aDecisionThatFillsItsOwnClassStopsNamingTheProperty() async {
  let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
    let injector = ForceInjector()
    try injector.forceInject { property in
      guard property.isDeclared(in: DecidingFillsItsOwnClass.self) else { return .skip }
      _ = try? injector.fill(DecidingFillsItsOwnClass())
      return .value("x")
    }
    try injector.fill(DecidingFillsItsOwnClass())
  }
  let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
  #expect(
    message.contains(
      "ForcePluginTests.DecidingFillsItsOwnClass.name: Swift.Optional<Swift.String> was asked of its force rule "
        + "again while the rule's decision closure was deciding it"))
}

private final class LooseReferenceHost {
  var object: AnyObject?
  var strongObject: AnyObject = LooseReferenceHost.Marker()
  var count: Int?
  final class Marker: Sendable {}
}

/// A value of a value type is not stored in an `AnyObject` field in a box Swift makes for it, and the
/// `nil` of an unrelated optional type is not a value for an optional field (review H85: both were
/// accepted; `weak` and `unowned` fields already refused the first).
@Test func valuesThatOnlyACastsBoxOrANilFitsAreRefused() throws {
  let injector = ForceInjector()
  #expect(throws: ForceError.self) {
    try injector.forceInject(in: LooseReferenceHost.self) { $0.name == "object" ? .value(42) : .skip }
  }
  #expect(throws: ForceError.self) {
    try injector.forceInject(in: LooseReferenceHost.self) { $0.name == "strongObject" ? .value("text") : .skip }
  }
  #expect(throws: ForceError.self) {
    try injector.forceInject(in: LooseReferenceHost.self) { $0.name == "count" ? .value(String?.none as Any) : .skip }
  }
  let box = ServiceBox()
  box.register(42, as: "object")
  let host = LooseReferenceHost()
  let report = box.fill(host)
  #expect(host.object == nil)
  guard case .typeMismatch = report.skipReason(for: "object") else {
    Issue.record("expected a type mismatch in \(report)")
    return
  }
  // What fits still does: an object, and the nil of the field's own type or a type-erased one.
  let marker = LooseReferenceHost.Marker()
  try injector.forceInject(in: LooseReferenceHost.self) { property in
    switch property.name {
    case "object": .value(marker)
    case "count": .value(Int?.none as Any)
    default: .skip
    }
  }
  host.count = 3
  try injector.fill(host)
  #expect(host.object === marker)
  #expect(host.count == nil)
}
