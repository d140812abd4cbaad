import Foundation
import InjectPlugin
import InjectionKernel
import Synchronization
import TestSupport
import Testing

// Each test has its own fixture types, selected by declaring class, so tests can run in parallel.

private final class Settings: Sendable {
  let theme: String
  init(theme: String) { self.theme = theme }
}

private protocol Analytics: AnyObject, Sendable { var name: String { get } }
private final class Countly: Analytics { let name = "countly" }

private final class ValueHost {
  @Inject var settings: Settings
  @Inject var note: String?
}

private final class ExistentialHost {
  @Inject var analytics: any Analytics
}

private class NameBase {
  @Inject var first: Int
  @Inject var second: Int
}

private final class NameSub: NameBase {
  @Inject var third: Int
}

private final class PredicateHost {
  @Inject var alpha: [String]
  @Inject var beta: [String]
}

private final class GetterHost {
  @Inject var counter: Int
}

private final class SetterHost {
  @Inject var recorded: String
}

private final class SharedHost: @unchecked Sendable {  // read-only across threads
  @Inject var service: SharedService
}

private final class SharedService: Sendable {
  static let created = Atomic<Int>(0)
  init() { Self.created.add(1, ordering: .relaxed) }
}

private final class Delegate: Sendable {}

private final class RaceBox: Sendable {
  let id: Int
  init(_ id: Int) { self.id = id }
}

private final class RaceHost: @unchecked Sendable {  // marked properties are atomic
  @Inject var value: RaceBox?
}

private final class WeakHost: @unchecked Sendable {  // marked properties are atomic
  @Inject var delegate: Delegate?
}

private protocol Coach: AnyObject, Sendable {}
private final class HeadCoach: Coach {}
private final class NotACoach: Sendable {}

/// Only `anOverrideByAConcreteTypeThatReachesNoPropertyNamesTheDeclaredTypeItsValuesFit` binds it.
private final class FittingCoach: Coach {}

private final class FittingValueHost: @unchecked Sendable {  // marked properties are atomic
  @Inject var coach: any Coach
}

private final class WeakMismatchHost: @unchecked Sendable {  // marked properties are atomic
  @Inject var coach: (any Coach)?
  @Inject var count: Int?
}

private struct NilInitialValue: Sendable, Equatable { let id: Int }
private final class NilInitialServiceBox: Sendable { let id: Int; init(_ id: Int) { self.id = id } }

private final class NilInitialHost: @unchecked Sendable {  // marked properties are atomic
  @Inject var value: NilInitialValue? = nil
  @Inject var box: NilInitialServiceBox? = nil
  @Inject var unwrapped: NilInitialValue! = nil
  @Inject var doubled: NilInitialValue?? = .some(nil)  // holds a value: the optional's nil
}

private final class MismatchHost {
  @Inject var number: Int
  @Inject var text: String
}

private final class RejectHost {
  @Inject var a: Double?
  @Inject var b: Float?
}

private final class IfNilHost {
  @Inject var items: [Int]?
  @Inject var once: [Int]?
}

private final class GenericHost<T> {
  @Inject var value: T
}

private final class ReinjectHost: @unchecked Sendable {  // read-only across threads
  @Inject var pair: ReinjectPair
}

private struct ReinjectPair: Sendable {
  let left: Int
  let right: Int
}

private struct StaticSettings: Sendable { let level: Int }

/// Swift 6 accepts a wrapped `static var` only on a global-actor-isolated type.
@MainActor private final class StaticHost {
  @Inject static var shared: StaticSettings
}

/// `Sendable`: its `@Inject` property's type is (before, the wrapper made that a compile error).
private struct StructOwner: Sendable {
  @Inject var config: StaticSettings
}

private final class StructHint: Sendable { let id = 4 }

/// The distinct object identities threads saw.
private final class IdentityLog: @unchecked Sendable {  // `seen` is guarded by `lock`
  private let lock = NSLock()
  private var seen: Set<ObjectIdentifier> = []
  func record(_ id: ObjectIdentifier) { lock.withLock { _ = seen.insert(id) } }
  var distinct: Int { lock.withLock { seen.count } }
}

private final class CyclingShared: Sendable {
  let note: String
  init(_ note: String) { self.note = note }
}
private final class OptionalTraceID: Sendable {}
private final class OptionalTraceHost: @unchecked Sendable {  // marked properties only
  @Inject var traceID: OptionalTraceID?
}
private final class FillingSharedTool: Sendable {}
private final class FillingSharedHost: @unchecked Sendable {  // marked properties only
  @Inject var tool: FillingSharedTool?
}
private final class SharedNeedingFill: Sendable {}
private final class SharedNeedingFillHost: @unchecked Sendable {  // marked properties only
  @Inject var shared: SharedNeedingFill
}
private final class CrossThreadA: @unchecked Sendable {  // marked properties only
  @Inject var b: CrossThreadB
}
private final class CrossThreadB: @unchecked Sendable {  // marked properties only
  @Inject var a: CrossThreadA
}
private final class CyclingHostA: @unchecked Sendable {  // marked properties only
  @Inject var shared: CyclingShared
}
private final class CyclingHostB: @unchecked Sendable {  // marked properties only
  @Inject var shared: CyclingShared
}

@Suite struct InjectTests {
  @Test func valueReachesExistingInstancesAndPerInstanceSetWins() throws {
    let existing = ValueHost()
    try Injection.inject(Settings.self).declared(in: ValueHost.self).value(Settings(theme: "dark"))
    try Injection.inject(String?.self).declared(in: ValueHost.self).value("injected")
    #expect(existing.settings.theme == "dark")
    #expect(ValueHost().settings.theme == "dark")
    existing.note = "mine"
    #expect(existing.note == "mine")
    #expect(ValueHost().note == "injected")
    existing.note = nil  // nil brings the injected value back
    #expect(existing.note == "injected")
  }

  @Test func selectsByExistential() throws {
    let host = ExistentialHost()
    try Injection.inject((any Analytics).self).declared(in: ExistentialHost.self).value(Countly())
    #expect(host.analytics.name == "countly")
  }

  @Test func selectsByDeclaringClassWithSubclassAndByName() throws {
    let plan = try #require(
      try Injection.inject(Int.self).declared(in: NameBase.self).named("second", "third").value(2))
    #expect(plan.entries.map(\.property.name).sorted() == ["second", "third"])
    let sub = NameSub()
    #expect(sub.second == 2)
    #expect(sub.third == 2)
    #expect(!Injection.isInjected(NameBase.self, "first"))
  }

  @Test func selectsByPredicate() throws {
    try Injection.inject([String].self).declared(in: PredicateHost.self).filter { $0.name.hasPrefix("b") }.value(["b"])
    let host = PredicateHost()
    #expect(host.beta == ["b"])
    #expect(!Injection.isInjected(PredicateHost.self, "alpha"))
  }

  @Test func getterReceivesStorageAndOriginal() throws {
    let host = GetterHost()
    host.counter = 40
    try Injection.inject(Int.self).declared(in: GetterHost.self).getter { _, storage, original in
      original.get(storage) + 2
    }
    #expect(host.counter == 42)
  }

  @Test func setterSeesEveryWrite() throws {
    let host = SetterHost()
    try Injection.inject(String.self).declared(in: SetterHost.self).setter { _, storage, newValue, original in
      original.set(&storage, newValue.uppercased())
    }
    host.recorded = "hello"
    #expect(host.recorded == "HELLO")
  }

  @Test func sharedValueIsCreatedOnceUnderConcurrentFirstReads() throws {
    let hosts = (0..<64).map { _ in SharedHost() }
    try Injection.inject(SharedService.self).declared(in: SharedHost.self).shared { SharedService() }
    // Every read must return the same object: the first one seen is recorded, others compared to it.
    let identities = IdentityLog()
    concurrently(threads: 8) { _ in
      for host in hosts.shuffled() { identities.record(ObjectIdentifier(host.service)) }
    }
    #expect(identities.distinct == 1)
    #expect(SharedService.created.load(ordering: .relaxed) == 1)
  }

  @Test func weakValueIsReleasedWhenItsLastOwnerLetsGo() throws {
    let host = WeakHost()
    var delegate: Delegate? = Delegate()
    weak let observer = delegate
    try Injection.inject(Delegate?.self).declared(in: WeakHost.self).weak(delegate!)
    #expect(host.delegate === delegate)
    // Another thread reads it once and then does nothing else: the library keeps nothing for it.
    let readElsewhere = Counter()
    concurrently(threads: 1) { _ in if host.delegate != nil { readElsewhere.increment() } }
    #expect(readElsewhere.count == 1)
    delegate = nil
    #expect(observer == nil)
    #expect(host.delegate == nil)
  }

  @Test func aWeakObjectOfTheWrongTypeIsRefusedAtTheCall() throws {
    let wrong = NotACoach()
    for attempt in [
      { try Injection.inject((any Coach)?.self).declared(in: WeakMismatchHost.self).weak(wrong) },
      { try Injection.inject(Int?.self).declared(in: WeakMismatchHost.self).weak(wrong) },
    ] as [() throws -> InjectionPlan?] {
      #expect {
        _ = try attempt()
      } throws: { error in
        guard case InjectionError.typeMismatch(_, _, let given) = error else { return false }
        return given == Injection.typeName(NotACoach.self)
      }
    }
    #expect(!Injection.isInjected(WeakMismatchHost.self, "coach"))
    #expect(!Injection.isInjected(WeakMismatchHost.self, "count"))
    // An object of a conforming class is taken, behind the existential.
    let coach = HeadCoach()
    try Injection.inject((any Coach)?.self).declared(in: WeakMismatchHost.self).weak(coach)
    #expect(WeakMismatchHost().coach === coach)
  }

  @Test func aValueThatFitsButIsGivenAsItsOwnTypeIsRefusedSayingWhichTypeToGive() throws {
    // Before, the message said the property holds `any Coach` as if a HeadCoach did not fit it (review H55).
    #expect {
      try Injection.inject(valueOf: HeadCoach.self, anyTypeIn: FittingValueHost.self).named("coach").value(HeadCoach())
    } throws: { error in
      error as? InjectionError
        == .rejected(
          property: "InjectPluginTests.FittingValueHost.coach: InjectPluginTests.Coach",
          reason: "a value of HeadCoach fits it, but an injection gives values of the property's own type: inject "
            + "(any Coach).self (with InjectPlugin's inject(valueOf:anyTypeIn:), valueOf: (any Coach).self); the "
            + "value converts where it is passed")
    }
    try Injection.inject(valueOf: (any Coach).self, anyTypeIn: FittingValueHost.self).named("coach").value(HeadCoach())
    #expect(FittingValueHost().coach is HeadCoach)
  }

  @Test func anOverrideGetterByTypeAloneThatReachesOnlyOptionalPropertiesThrows() throws {
    // A getter of `T` does not reach `T?` properties; in a test's override that reached nothing and the test
    // read `nil` with no error, though an override that reaches no property it fits fails (review H71).
    #expect {
      try Injection.withOverrides({ lets in
        try lets.inject(OptionalTraceID.self).getter { _, _, _ in OptionalTraceID() }
      }) {}
    } throws: { error in
      guard case InjectionError.selectionMatchesNothing(_, let nearMisses) = error else { return false }
      return nearMisses.contains(
        "InjectPluginTests.OptionalTraceHost.traceID: Swift.Optional<InjectPluginTests.OptionalTraceID> — its "
          + "type is OptionalTraceID?, which a rule of this kind for OptionalTraceID does not reach: select "
          + "OptionalTraceID?.self")
    }
    try Injection.withOverrides({ lets in
      try lets.inject(OptionalTraceID?.self).getter { _, _, _ in OptionalTraceID() }
    }) {
      #expect(OptionalTraceHost().traceID != nil)
    }
  }

  @Test func anOverrideByAConcreteTypeThatReachesNoPropertyNamesTheDeclaredTypeItsValuesFit() throws {
    // A test overriding `any Coach` with its mock's type silently ran against the real one (reviews H55, H57).
    #expect {
      try Injection.withOverrides({ lets in try lets.inject(FittingCoach.self).value(FittingCoach()) }) {}
    } throws: { error in
      guard case InjectionError.selectionMatchesNothing(_, let nearMisses) = error else { return false }
      return nearMisses.contains(
        "InjectPluginTests.FittingValueHost.coach: InjectPluginTests.Coach — its type is any Coach, which "
          + "FittingCoach values fit: select (any Coach).self")
    }
    // Elsewhere it stays a binding for resolve: in a child injector, and in the process.
    let childBound = FittingCoach()
    let child = try Injection.childInjector { lets in try lets.inject(FittingCoach.self).value(childBound) }
    #expect(try child.resolve(FittingCoach.self) === childBound)
    let bound = FittingCoach()
    try Injection.inject(FittingCoach.self).value(bound)
    #expect(try Injection.resolve(FittingCoach.self) === bound)
  }

  @Test func anOptionalDeclaredWithANilInitialValueReceivesInjections() throws {
    // `= nil` is the same declaration as no initial value: before, the nil was stored as the instance's
    // own value, and every injection read nil while `isInjected` and the report said otherwise.
    try Injection.inject(NilInitialValue.self).value(NilInitialValue(id: 1))
    try Injection.inject(NilInitialServiceBox.self).value(NilInitialServiceBox(2))
    let host = NilInitialHost()
    #expect(host.value == NilInitialValue(id: 1))
    #expect(host.box?.id == 2)
    #expect(host.unwrapped == NilInitialValue(id: 1))
    #expect(host.doubled == .some(nil))  // `.some(nil)` is a stored value
  }

  @Test func aWriteRacingReadsOfOneInstanceReturnsTheOldOrTheNewValue() throws {
    try Injection.inject(RaceBox?.self).declared(in: RaceHost.self).value(RaceBox(-1))
    let host = RaceHost()
    let bad = Counter()
    whileWriting(readers: 4) {
      for k in 0..<20_000 { host.value = RaceBox(k) }
    } read: {
      if let id = host.value?.id, id < -1 || id >= 20_000 { bad.increment() }
    }
    #expect(bad.count == 0)
    #expect(host.value?.id == 19_999)
  }

  @Test func wrongTypeThrowsAndChangesNothing() throws {
    let host = MismatchHost()
    host.number = 1
    #expect(throws: InjectionError.self) {
      try Injection.inject(valueOf: Int.self, anyTypeIn: MismatchHost.self).value(5)
    }
    #expect(host.number == 1)
    #expect(!Injection.isInjected(MismatchHost.self, "number"))
  }

  @Test func rejectAndRejectAllRestorePlainBehaviour() throws {
    let host = RejectHost()
    try Injection.inject(Double?.self).declared(in: RejectHost.self).value(1.5)
    try Injection.inject(Float?.self).declared(in: RejectHost.self).value(2.5)
    #expect(host.a == 1.5)
    try Injection.inject(Double?.self).declared(in: RejectHost.self).reject()
    #expect(host.a == nil)
    #expect(host.b == 2.5)
    // rejectAll is verified on a batch plan (committing it would also clear other tests' injections).
    let rules = InjectionRules()
    rules.rejectAll()
    let plan = try Injection.plan(rules)
    #expect(plan.entries.contains { $0.property.declaringClass == RejectHost.self && $0.injection == nil })
  }

  @Test func ifNilRecreatesAfterResetAndOnceDoesNot() throws {
    let made = Atomic<Int>(0)
    try Injection.inject([Int]?.self).declared(in: IfNilHost.self).named("items").ifNil { _ in
      made.add(1, ordering: .relaxed)
      return [1]
    }
    try Injection.inject([Int]?.self).declared(in: IfNilHost.self).named("once").ifNilOnce { _ in [2] }
    let host = IfNilHost()
    #expect(host.items == [1])
    host.items = nil
    #expect(host.items == [1])
    #expect(made.load(ordering: .relaxed) == 2)
    #expect(host.once == [2])
    host.once = nil
    #expect(host.once == nil)
  }

  @Test func genericClassSpecializations() throws {
    try Injection.inject(Int.self).declared(in: GenericHost<Int>.self).value(8)
    #expect(GenericHost<Int>().value == 8)
  }

  @MainActor @Test func staticAndStructPropertiesGetTypeKeyedValues() throws {
    try Injection.inject(StaticSettings.self).value(StaticSettings(level: 3))
    #expect(StaticHost.shared.level == 3)
    var owner = StructOwner()
    #expect(owner.config.level == 3)
    let copy = owner
    owner.config = StaticSettings(level: 9)
    #expect(owner.config.level == 9)
    #expect(copy.config.level == 3)  // value semantics
  }

  @Test func aSendableStructOwnerCrossesIntoAnotherTask() async throws {
    var owner = StructOwner()
    owner.config = StaticSettings(level: 12)
    let sent = owner
    #expect(await Task.detached { sent.config.level }.value == 12)
  }

  @Test func reinjectionUnderConcurrentReadersNeverTears() throws {
    let hosts = (0..<4).map { _ in ReinjectHost() }
    try Injection.inject(ReinjectPair.self).declared(in: ReinjectHost.self).value(ReinjectPair(left: 0, right: 0))
    let torn = Counter()
    whileWriting(readers: 8) {
      for round in 1...2000 {
        _ = try? Injection.inject(ReinjectPair.self).declared(in: ReinjectHost.self)
          .value(ReinjectPair(left: round, right: -round))
      }
    } read: {
      for host in hosts {
        let pair = host.pair
        if pair.left != -pair.right { torn.increment() }
      }
    }
    #expect(torn.count == 0)
    #expect(hosts[0].pair.left == 2000)
  }

  @Test func aSharedValueWhoseFactoryReadsAnotherClassesPropertyOfItStopsWithTheCycle() async {
    // The factory reads the same injection through another class, whose first read builds that class's
    // answer: it stops naming the cycle (before, it waited forever for its own creation's lock).
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.inject(CyclingShared.self).shared { CyclingShared(CyclingHostB().shared.note) }
      _ = CyclingHostA().shared
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("was read while it was being created, on the same thread"))
  }

  @Test func aSharedValueAndAFillThatNeedEachOtherOnTwoThreadsStopWithTheCycle() async {
    // Thread 1 fills an ifNil property whose factory reads a shared value; thread 2 creates that shared
    // value, whose factory reads the property thread 1 is filling. Before, both waited for ever: the shared
    // value's creation lock and the fill's field lock had separate cycle checks (review H73).
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let fillStarted = DispatchSemaphore(value: 0)
      let creationStarted = DispatchSemaphore(value: 0)
      let host = FillingSharedHost()
      try Injection.inject(FillingSharedTool?.self).ifNil { _ in
        fillStarted.signal()
        creationStarted.wait()
        _ = SharedNeedingFillHost().shared
        return FillingSharedTool()
      }
      try Injection.inject(SharedNeedingFill.self).shared {
        creationStarted.signal()
        fillStarted.wait()
        _ = host.tool
        return SharedNeedingFill()
      }
      let done = DispatchSemaphore(value: 0)
      Thread {
        _ = host.tool
        done.signal()
      }.start()
      Thread {
        _ = SharedNeedingFillHost().shared
        done.signal()
      }.start()
      _ = done.wait(timeout: .now() + 20)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("a cycle across threads"))
  }

  @Test func sharedValuesWhoseCreationsNeedEachOtherOnTwoThreadsStopWithTheCycle() async {
    // Thread 1 creates A, whose factory reads B; thread 2 creates B, whose factory reads A. Before, both
    // waited for the other's creation forever (found by review H71); now the thread that closes the
    // cycle stops, naming it. The body returns (and the process exits normally) if both are still
    // waiting after 20 seconds.
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let aStarted = DispatchSemaphore(value: 0)
      let bStarted = DispatchSemaphore(value: 0)
      try Injection.inject(CrossThreadA.self).shared {
        aStarted.signal()
        bStarted.wait()
        _ = CrossThreadA().b
        return CrossThreadA()
      }
      try Injection.inject(CrossThreadB.self).shared {
        bStarted.signal()
        aStarted.wait()
        _ = CrossThreadB().a
        return CrossThreadB()
      }
      let done = DispatchSemaphore(value: 0)
      Thread {
        _ = CrossThreadB().a
        done.signal()
      }.start()
      Thread {
        _ = CrossThreadA().b
        done.signal()
      }.start()
      _ = done.wait(timeout: .now() + 20)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("was read while another thread was creating it"))
    #expect(message.contains("a cycle across threads, which would wait for ever."))
  }
}
