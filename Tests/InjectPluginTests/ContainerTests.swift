import Foundation
import InjectPlugin
import InjectionKernel
import Synchronization
import TestSupport
import Testing

// Container semantics. Each test has its own fixture types; tests that bind types alone or switch on
// the construction of unbound types run inside `withIsolatedInjections`, so nothing leaks between them.

/// Counts constructions of a fixture type (one counter per type: each test owns its types).
private final class WeaklyResolved: Sendable {}
private final class MixedShared: Sendable {}
private final class MixedSingleton: Sendable {}
private final class MixedSharedHost: @unchecked Sendable {  // marked properties only
  @Inject var shared: MixedShared
}
private final class ListedLogger: Sendable {
  let tag: String
  init(_ tag: String) { self.tag = tag }
}
private final class FilledByHost: Sendable {
  let base: Int
  init(base: Int) { self.base = base }
}
private final class FillingHost {
  let base = 7
  @Inject var filled: FilledByHost
}
private final class Births: Sendable {
  private let count = Atomic<Int>(0)
  func note() { count.add(1, ordering: .relaxed) }
  var total: Int { count.load(ordering: .relaxed) }
}

// MARK: Unmapped concrete types (Gummi: getObject without a rule)

private protocol CarEngine: AnyObject, Sendable {}
private final class CarFuel: Constructible, Sendable { init() {} }
private final class EmptyNameBadge: Sendable {}
private final class CarHybridEngine: CarEngine, Constructible, @unchecked Sendable {  // marked properties only
  @Inject var fuel: CarFuel
  init() {}
}
private final class CarWheel: Constructible, Sendable { init() {} }
private final class Car: Constructible, @unchecked Sendable {  // marked properties only
  @Inject var wheel1: CarWheel
  @Inject var wheel2: CarWheel
  @Inject var engine: any CarEngine
  init() {}
}

// MARK: Unmapped protocol

private protocol Unmapped {}

// MARK: Class mapping, singletons, instances

private protocol Vehicle: AnyObject, Sendable {}
private final class Bike: Vehicle, Constructible, Sendable { init() {} }
private final class Truck: Vehicle, Constructible, Sendable { init() {} }
private final class NotAVehicle: Constructible, Sendable { init() {} }
private final class Garage: Sendable {}
private final class Model: Constructible, Sendable { init() {} }

// MARK: Released singletons

/// Counts its live instances (used only by the release test).
private let liveDatabases = Atomic<Int>(0)
private final class Database: Sendable {
  init() { liveDatabases.add(1, ordering: .relaxed) }
  deinit { liveDatabases.subtract(1, ordering: .relaxed) }
}
private final class DatabaseHost: @unchecked Sendable {  // marked properties only
  @Inject var database: Database
}
private let liveModuleDatabases = Atomic<Int>(0)
private final class ModuleDatabase: Sendable {
  init() { liveModuleDatabases.add(1, ordering: .relaxed) }
  deinit { liveModuleDatabases.subtract(1, ordering: .relaxed) }
}
private final class DatabaseModule: InjectionModule {
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(ModuleDatabase.self).eagerSingleton { _ in ModuleDatabase() }
  }
}

// MARK: Struct owners of per-read bindings

private final class StructEngine: Constructible, Sendable { init() {} }
private final class StructShared: Sendable {}
private struct EngineHolder {
  @Inject var engine: StructEngine
  @Inject var shared: StructShared?
}

// MARK: A cycle through two threads

private final class ThreadCycleStart: Sendable {
  static let bothBuilding = Atomic<Int>(0)
}
private final class ThreadCycleX: Sendable {
  let other: ThreadCycleY?
  init(_ other: ThreadCycleY?) { self.other = other }
}
private final class ThreadCycleY: Sendable {
  let other: ThreadCycleX?
  init(_ other: ThreadCycleX?) { self.other = other }
}

// MARK: Names and the type alone

private final class NamedStore: Sendable {
  let id: String
  init(_ id: String) { self.id = id }
}
private final class EagerFailure: Sendable {}

private final class BackupStoreModule: InjectionModule {
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(NamedStore.self, named: "backup").value(NamedStore("module"))
  }
}

private final class NamedStoreHost: @unchecked Sendable {  // marked properties only
  @Inject var backup: NamedStore
  @Inject var main: NamedStore
}

// MARK: A cycle through a property read on another thread

private final class ReadCycleStart: Sendable {
  static let bothBuilding = Atomic<Int>(0)
}
private final class ReadCycleA: Sendable {
  let other: ReadCycleB?
  init(_ other: ReadCycleB?) { self.other = other }
}
private final class ReadCycleB: Sendable {
  let other: ReadCycleA?
  init(_ other: ReadCycleA?) { self.other = other }
}
private final class ReadCycleHost: @unchecked Sendable {  // marked properties only
  @Inject var a: ReadCycleA
  @Inject var b: ReadCycleB
}

// MARK: Circular singletons

private final class Husband: @unchecked Sendable {  // marked properties only
  @Inject var wife: Wife
}
private final class Wife: @unchecked Sendable {  // marked properties only
  @Inject var husband: Husband
}

// MARK: Factories

private final class Clock: Sendable { let now = 42 }
private final class Greeter: Sendable {
  let clock: Clock
  let name: String
  init(clock: Clock, name: String) {
    self.clock = clock
    self.name = name
  }
}

// MARK: Eager

private let eagerBirths = Births()
private final class EagerService: Constructible, Sendable {
  init() { eagerBirths.note() }
}
private let batchEagerBirths = Births()
private final class BatchEagerService: Sendable {
  init() { batchEagerBirths.note() }
}

// MARK: Completion

private final class Completed: Constructible, InjectionCompletion, @unchecked Sendable {  // `calls` is atomic
  @Inject var clock: CompletionClock
  let calls = Atomic<Int>(0)
  let sawClock = Atomic<Int>(0)
  init() {}
  func injectionDidComplete() {
    calls.add(1, ordering: .relaxed)
    sawClock.store(clock.value, ordering: .relaxed)
  }
}
private final class CompletionClock: Sendable { let value = 7 }

// MARK: Subclass chain

private final class ChainPart: Constructible, Sendable { init() {} }
private class ChainBase: @unchecked Sendable {  // marked properties only
  @Inject var first: ChainPart
  required init() {}
}
private class ChainMiddle: ChainBase, @unchecked Sendable {  // marked properties only
  @Inject var second: ChainPart
}
private final class ChainLeaf: ChainMiddle, Constructible, @unchecked Sendable {  // marked properties only
  @Inject var third: ChainPart
}

// MARK: Cycles

private final class LoopA: Sendable { init(_ b: LoopB) {} }
private final class LoopB: Sendable { init(_ c: LoopC) {} }
private final class LoopC: Sendable { init(_ a: LoopA) {} }
private final class SelfLoop: Sendable { init(_ other: SelfLoop) {} }

/// Singletons whose initializers read each other: a real cycle, found through property reads.
private struct StructBuilt: Sendable {}
private struct StructBuiltOwner {
  @Inject var built: StructBuilt
}
private struct StructOuterValue: Sendable { let inner: StructBuilt }
private final class StructOuterHost {
  @Inject var outer: StructOuterValue
}
private struct StructBuildFailure: Error, CustomStringConvertible {
  var description: String { "boom" }
}

private final class InitLoopA: @unchecked Sendable {  // marked properties only
  @Inject var b: InitLoopB
  init() { _ = b }
}
private final class InitLoopB: @unchecked Sendable {  // marked properties only
  @Inject var a: InitLoopA
  init() { _ = a }
}

/// Read by an exit test only.
private final class InitLoopCar {
  @Inject var a: InitLoopA
}

// MARK: Reads and resolves agree

private struct Theme: Sendable, Equatable { let name: String }
private final class AgreeHost {
  @Inject var theme: Theme
  @Inject var optionalTheme: Theme?
  @Inject var primary: Theme
  @Inject var counter: Int
}

// MARK: Weak-shared

private final class Session: Sendable {}

// MARK: Names and all bindings

private protocol Plugin: Sendable { var id: String { get } }
private struct AudioPlugin: Plugin, Constructible { let id = "audio"; init() {} }
private struct VideoPlugin: Plugin, Constructible { let id = "video"; init() {} }
private struct TextPlugin: Plugin, Constructible { let id = "text"; init() {} }

// MARK: Conversion checks

private final class SpareWheel: Constructible, Sendable {
  let label: String
  init() { label = "built" }
  init(label: String) { self.label = label }
}
private final class SpareCar: @unchecked Sendable {  // marked properties only
  @Inject var wheel: SpareWheel
  @Inject var spare: SpareWheel
}

private protocol Drawable {}
private protocol Sizable {}
private class Shape {}
private final class Square: Shape, Drawable, Sizable {}
private struct Point: Drawable {}

@Suite struct ContainerTests {
  @Test func anUnmappedConcreteTypeIsConstructedAndFilledWithDependenciesOfDependencies() throws {
    try Injection.withIsolatedInjections {
      try Injection.constructUnboundTypes()
      try Injection.inject((any CarEngine).self).to(CarHybridEngine.self)
      let car = try Injection.resolve(Car.self)
      #expect(car.wheel1 !== car.wheel2)  // each property got its own new wheel
      let engine = try #require(car.engine as? CarHybridEngine)
      _ = engine.fuel  // a dependency of a dependency, constructed too
      #expect(try Injection.resolve(Car.self) !== car)  // unbound types are built per resolve
    }
  }

  @Test func aNamedBindingMadeBeforeKeepsItsNameAndTheTypesOtherPropertiesAreBuilt() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject(SpareWheel.self, named: "spare").value(SpareWheel(label: "named"))
      try Injection.constructUnboundTypes()
      let car = SpareCar()
      #expect(car.wheel.label == "built")  // before, the name made the whole type count as bound: a stop
      #expect(car.spare.label == "named")
      #expect(try Injection.resolve(SpareWheel.self).label == "built")
      #expect(try Injection.resolve(SpareWheel.self, named: "spare").label == "named")
    }
  }

  @Test func unboundTypesAreNotConstructedUnlessSwitchedOn() throws {
    try Injection.withIsolatedInjections {
      #expect(throws: ResolutionError.self) { try Injection.resolve(CarWheel.self) }
      do {
        _ = try Injection.resolve(CarWheel.self)
      } catch let error as ResolutionError {
        #expect(error.description.contains("Injection.constructUnboundTypes()"))
      }
    }
  }

  @Test func anUnmappedProtocolIsATypedErrorNamingTheTypeAndTheRule() throws {
    do {
      _ = try Injection.resolve((any Unmapped).self)
      Issue.record("resolved an unbound protocol")
    } catch let error as ResolutionError {
      guard case .unbound(let type, let name, let hint) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(type == "InjectPluginTests.Unmapped")
      #expect(name == nil)
      #expect(hint.hasPrefix("Injection.inject((any Unmapped).self).value(…)"))
    }
    #expect(try Injection.resolve((any Unmapped)?.self) == nil)  // an optional is nil, as a read would be
  }

  @Test func anEmptyBindingNameIsRefusedAtTheCall() throws {
    // Before, "" bound a name that resolveAll listed as a second binding of the type alone.
    #expect {
      try Injection.inject(EmptyNameBadge.self, named: "").value(EmptyNameBadge())
    } throws: { error in
      guard case InjectionError.rejected(_, let reason) = error else { return false }
      return reason.hasPrefix("a binding name must not be empty")
    }
    #expect(try Injection.resolveAll(EmptyNameBadge?.self).isEmpty)
  }

  @Test func aClassMappingGivesANewInstancePerResolve() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject((any Vehicle).self).to(Bike.self)
      let first = try Injection.resolve((any Vehicle).self)
      let second = try Injection.resolve((any Vehicle).self)
      #expect(first is Bike)
      #expect(first !== second)
    }
  }

  @Test func singletonsAreIdentical() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject(Model.self).singleton(Model.self)
      #expect(try Injection.resolve(Model.self) === Injection.resolve(Model.self))
    }
  }

  @Test func aSingletonFactoryIsCalledOnceForResolvesAndReads() throws {
    final class Host { @Inject var clock: Clock }
    let built = Births()
    try Injection.withIsolatedInjections {
      try Injection.inject(Clock.self).singleton { _ in
        built.note()
        return Clock()
      }
      let resolved = try Injection.resolve(Clock.self)
      #expect(Host().clock === resolved)
      #expect(Host().clock === resolved)
      #expect(try Injection.resolve(Clock?.self) === resolved)
      #expect(built.total == 1)
    }
  }

  @Test func aReplacedRejectedOrRemovedSingletonIsReleased() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject(Database.self).singleton { _ in Database() }
      _ = try Injection.resolve(Database.self)
      #expect(liveDatabases.load(ordering: .relaxed) == 1)
      try Injection.inject(Database.self).singleton { _ in Database() }  // replaces it
      #expect(liveDatabases.load(ordering: .relaxed) == 0)
      for _ in 0..<50 {
        try Injection.inject(Database.self).singleton { _ in Database() }
        _ = DatabaseHost().database
      }
      #expect(liveDatabases.load(ordering: .relaxed) == 1)  // the newest binding's only
      try Injection.inject(Database.self).reject()
      #expect(liveDatabases.load(ordering: .relaxed) == 0)

      try Injection.addModule(DatabaseModule())
      #expect(liveModuleDatabases.load(ordering: .relaxed) == 1)  // eager: built at commit
      try Injection.removeModules(ofType: DatabaseModule.self)
      #expect(liveModuleDatabases.load(ordering: .relaxed) == 0)
    }
  }

  @Test func aStructOwnerReadsProviderAndWeakSharedBindings() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject(StructEngine.self).provider { _ in StructEngine() }
      let holder = EngineHolder()
      #expect(holder.engine !== holder.engine)  // a provider: a new value per read (a struct keeps none)
      try Injection.inject(StructEngine.self).to(StructEngine.self)
      _ = EngineHolder().engine
      let kept = StructShared()
      try Injection.inject(StructShared.self).weakShared { _ in kept }
      #expect(EngineHolder().shared === kept)
    }
  }

  @Test func singletonsNeedingEachOtherOnTwoThreadsGiveACycleErrorInsteadOfWaitingForever() throws {
    // Process-wide bindings (threads do not inherit scopes) of types only this test uses.
    let errors = LockedState<[ResolutionError]>([])
    // Waits (up to 5 s) until both factories run, so that each thread holds its own build lock when it
    // asks for the other value.
    let meetTheOtherFactory: @Sendable () -> Void = {
      ThreadCycleStart.bothBuilding.add(1, ordering: .acquiringAndReleasing)
      let deadline = Date().addingTimeInterval(5)
      while ThreadCycleStart.bothBuilding.load(ordering: .acquiring) < 2, Date() < deadline { usleep(100) }
    }
    let note: @Sendable (any Error) -> Void = { error in
      if let error = error as? ResolutionError { errors.withLock { $0.append(error) } }
    }
    try Injection.inject(ThreadCycleX.self).singleton { resolver in
      meetTheOtherFactory()
      do { return ThreadCycleX(try resolver.resolve(ThreadCycleY.self)) } catch {
        note(error)
        return ThreadCycleX(nil)
      }
    }
    try Injection.inject(ThreadCycleY.self).singleton { resolver in
      meetTheOtherFactory()
      do { return ThreadCycleY(try resolver.resolve(ThreadCycleX.self)) } catch {
        note(error)
        return ThreadCycleY(nil)
      }
    }
    let done = DispatchGroup()
    let resolves: [@Sendable () -> Void] = [
      { _ = try? Injection.resolve(ThreadCycleX.self) }, { _ = try? Injection.resolve(ThreadCycleY.self) },
    ]
    for resolve in resolves {
      done.enter()
      Thread {
        resolve()
        done.leave()
      }.start()
    }
    #expect(done.wait(timeout: .now() + 30) == .success, "the two threads waited for each other")
    let names = [Injection.typeName(ThreadCycleX.self), Injection.typeName(ThreadCycleY.self)]
    #expect(
      errors.value == [.cycle([names[0], names[1], names[0]])]
        || errors.value == [.cycle([names[1], names[0], names[1]])])
    // One value was built without the other; both are singletons from now on.
    let x = try Injection.resolve(ThreadCycleX.self)
    let y = try Injection.resolve(ThreadCycleY.self)
    #expect(x.other === y || y.other === x)
  }

  // As above, one side reading an @Inject property, whose shared value asks the binding. The resolving
  // side closes the cycle (it asks last) and throws; had the reading side closed it, the read would stop
  // with the chain — either way nobody waits forever. In a child process: a stop would end the test run.
  @Test func singletonsNeedingEachOtherThroughAPropertyReadOnTwoThreadsDoNotWaitForever() async {
    await #expect(processExitsWith: .success) {
      let errors = LockedState<[ResolutionError]>([])
      let meetTheOtherFactory: @Sendable () -> Void = {
        ReadCycleStart.bothBuilding.add(1, ordering: .acquiringAndReleasing)
        let deadline = Date().addingTimeInterval(5)
        while ReadCycleStart.bothBuilding.load(ordering: .acquiring) < 2, Date() < deadline { usleep(100) }
      }
      try Injection.inject(ReadCycleA.self).singleton { resolver in
        meetTheOtherFactory()
        usleep(300_000)  // the reading thread waits for this value first
        do { return ReadCycleA(try resolver.resolve(ReadCycleB.self)) } catch {
          if let error = error as? ResolutionError { errors.withLock { $0.append(error) } }
          return ReadCycleA(nil)
        }
      }
      try Injection.inject(ReadCycleB.self).singleton { _ in
        meetTheOtherFactory()
        return ReadCycleB(ReadCycleHost().a)
      }
      let done = DispatchGroup()
      let reads: [@Sendable () -> Void] = [{ _ = ReadCycleHost().a }, { _ = try? Injection.resolve(ReadCycleB.self) }]
      for read in reads {
        done.enter()
        Thread {
          read()
          done.leave()
        }.start()
      }
      precondition(done.wait(timeout: .now() + 30) == .success, "the two threads waited for each other")
      precondition(errors.value.count == 1, "one cycle error: \(errors.value)")
    }
  }

  @Test func anInstanceMappingIsReturnedUnchanged() throws {
    try Injection.withIsolatedInjections {
      let garage = Garage()
      try Injection.inject(Garage.self).value(garage)
      #expect(try Injection.resolve(Garage.self) === garage)
    }
  }

  @Test func circularSingletonsResolveToEachOther() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject(Husband.self).singleton { _ in Husband() }
      try Injection.inject(Wife.self).singleton { _ in Wife() }
      let husband = try Injection.resolve(Husband.self)
      #expect(husband.wife.husband === husband)
      #expect(try Injection.resolve(Wife.self).husband.wife === husband.wife)
    }
  }

  @Test func aFactoryReceivesTheResolverAndTheCallersArguments() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject(Clock.self).value(Clock())
      try Injection.inject(Greeter.self).provider { resolver in
        Greeter(clock: try resolver.resolve(Clock.self), name: try resolver.argument(0, as: String.self))
      }
      let greeter = try Injection.resolve(Greeter.self, arguments: "Ann")
      #expect(greeter.name == "Ann")
      #expect(greeter.clock === (try Injection.resolve(Clock.self)))
      #expect(throws: ResolutionError.missingArgument(index: 0, expected: "Swift.String", given: ["Swift.Int"])) {
        try Injection.resolve(Greeter.self, arguments: 5)
      }
    }
  }

  @Test func anEagerSingletonIsBuiltAtCommit() throws {
    try Injection.withIsolatedInjections {
      #expect(eagerBirths.total == 0)
      try Injection.inject(EagerService.self).eagerSingleton(EagerService.self)
      #expect(eagerBirths.total == 1)  // built by the commit, before anyone asked
      _ = try Injection.resolve(EagerService.self)
      #expect(eagerBirths.total == 1)

      let lets = InjectionRules()
      try lets.inject(BatchEagerService.self).eagerSingleton { _ in BatchEagerService() }
      #expect(batchEagerBirths.total == 0)  // recorded, not committed
      try Injection.commit(lets)
      #expect(batchEagerBirths.total == 1)
    }
  }

  @Test func unmapRemovesTheBinding() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject((any Vehicle).self).to(Truck.self)
      #expect(try Injection.resolve((any Vehicle).self) is Truck)
      try Injection.inject((any Vehicle).self).reject()
      #expect(throws: ResolutionError.self) { try Injection.resolve((any Vehicle).self) }
    }
  }

  @Test func mappingATypeThatIsNotTheBoundOneIsATypedErrorAtCommit() {
    Injection.withIsolatedInjections {
      #expect(
        throws: ResolutionError.notConvertible(
          implementation: "InjectPluginTests.NotAVehicle", boundType: "InjectPluginTests.Vehicle")
      ) {
        try Injection.inject((any Vehicle).self).to(NotAVehicle.self)
      }
      #expect(throws: ResolutionError.self) { try Injection.resolve((any Vehicle).self) }  // nothing committed
      let lets = InjectionRules()
      #expect(throws: ResolutionError.self) { try lets.inject((any Vehicle).self).singleton(NotAVehicle.self) }
      #expect(lets.changes.isEmpty)
    }
  }

  @Test func theCompletionHookRunsOnceWithInjectionsInPlace() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject(CompletionClock.self).value(CompletionClock())
      try Injection.inject(Completed.self).singleton(Completed.self)
      let completed = try Injection.resolve(Completed.self)
      _ = try Injection.resolve(Completed.self)
      #expect(completed.calls.load(ordering: .relaxed) == 1)
      #expect(completed.sawClock.load(ordering: .relaxed) == 7)
    }
  }

  @Test func aThreeLevelSubclassChainHasAllItsDeclaredPropertiesFilled() throws {
    try Injection.withIsolatedInjections {
      try Injection.constructUnboundTypes()
      let leaf = try Injection.resolve(ChainLeaf.self)
      #expect(leaf.first !== leaf.second)
      #expect(leaf.second !== leaf.third)
      #expect(Injection.isInjected(ChainBase.self, "first"))
      #expect(Injection.isInjected(ChainMiddle.self, "second"))
    }
  }

  @Test func aCycleAmongProvidersIsATypedErrorShowingTheChain() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject(LoopA.self).provider { LoopA(try $0.resolve(LoopB.self)) }
      try Injection.inject(LoopB.self).singleton { LoopB(try $0.resolve(LoopC.self)) }
      try Injection.inject(LoopC.self).provider { LoopC(try $0.resolve(LoopA.self)) }
      let chain = [
        "InjectPluginTests.LoopA", "InjectPluginTests.LoopB", "InjectPluginTests.LoopC", "InjectPluginTests.LoopA",
      ]
      #expect(throws: ResolutionError.cycle(chain)) { try Injection.resolve(LoopA.self) }
      do {
        _ = try Injection.resolve(LoopA.self)
      } catch let error as ResolutionError {
        #expect(error.description.contains("LoopA → InjectPluginTests.LoopB → InjectPluginTests.LoopC → "))
      }
      try Injection.inject(SelfLoop.self, named: "loop").singleton {
        SelfLoop(try $0.resolve(SelfLoop.self, named: "loop"))
      }
      #expect(
        throws: ResolutionError.cycle([
          "InjectPluginTests.SelfLoop named \"loop\"", "InjectPluginTests.SelfLoop named \"loop\"",
        ])
      ) { try Injection.resolve(SelfLoop.self, named: "loop") }
    }
  }

  @Test func aCycleThroughPropertyReadsInInitializersStopsWithTheChainInsteadOfHanging() async throws {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.inject(InitLoopA.self).singleton { _ in InitLoopA() }
      try Injection.inject(InitLoopB.self).singleton { _ in InitLoopB() }
      _ = try? Injection.resolve(InitLoopA.self)
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr.contains("InjectPluginTests.InitLoopA → InjectPluginTests.InitLoopB → InjectPluginTests.InitLoopA"))
  }

  @Test func aCycleHitByAPropertyReadStopsNamingThatProperty() async throws {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.inject(InitLoopA.self).singleton { _ in InitLoopA() }
      try Injection.inject(InitLoopB.self).singleton { _ in InitLoopB() }
      _ = InitLoopCar().a
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    // The user's read first, then the read that failed (before, the failing build was attributed to the
    // user's read, whose type is another).
    #expect(
      stderr.hasPrefix(
        "InjectPluginTests.InitLoopCar.a: InjectPluginTests.InitLoopA was read; building its value read "
          + "InjectPluginTests.InitLoopB.a: InjectPluginTests.InitLoopA, and building InjectPluginTests.InitLoopA "
          + "for that failed: "), "\(stderr)")
    #expect(stderr.contains("InjectPluginTests.InitLoopA → InjectPluginTests.InitLoopB → InjectPluginTests.InitLoopA"))
  }

  @Test func aBuildFailingInAStructOwnersReadNamesThatRead() async throws {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.inject(StructBuilt.self).singleton { _ in throw StructBuildFailure() }
      try Injection.inject(StructOuterValue.self).provider { _ in StructOuterValue(inner: StructBuiltOwner().built) }
      _ = StructOuterHost().outer
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    // Before, the failing build was attributed to the class's property, whose type is another.
    #expect(
      stderr.hasPrefix(
        "InjectPluginTests.StructOuterHost.outer: InjectPluginTests.StructOuterValue was read; building its value "
          + "read an @Inject InjectPluginTests.StructBuilt property of a struct or a static property, and building "
          + "InjectPluginTests.StructBuilt for that failed: boom"), "\(stderr)")
  }

  @Test func resolveReturnsWhatAnInjectPropertyOfTheTypeReads() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject(Theme.self).value(Theme(name: "dark"))
      try Injection.inject(Theme.self, named: "primary").value(Theme(name: "blue"))
      try Injection.inject(Int.self).getter { _, storage, original in (storage ?? 40) + 2 }
      let host = AgreeHost()
      #expect(try Injection.resolve(Theme.self) == host.theme)
      #expect(try Injection.resolve(Theme?.self) == host.optionalTheme)  // T reaches T?
      #expect(try Injection.resolve(Theme.self, named: "primary") == host.primary)
      #expect(host.primary.name == "blue")
      #expect(host.counter == 42)
      // A getter is called with the instance whose property it serves: no binding for a resolve, which has
      // none (before, it got a stand-in object, which a getter casting its target could not use: review H72).
      #expect {
        try Injection.resolve(Int.self)
      } throws: { error in
        guard case ResolutionError.unbound(let type, nil, let hint) = error else { return false }
        return type == "Swift.Int"
          && hint.hasSuffix(
            "(its rule, a getter, is called with the instance whose property it serves, so it reaches class "
              + "properties only)")
      }
      // A name nothing is bound to reads what the type alone gives, as a property with that name would.
      #expect(try Injection.resolve(Theme.self, named: "secondary").name == "dark")
    }
  }

  @Test func resolvingATypeWhoseRuleIsAnIfNilFactoryThrowsInsteadOfCallingItWithoutItsInstance() throws {
    try Injection.inject(FilledByHost.self).ifNil { target in FilledByHost(base: (target as! FillingHost).base) }
    #expect(FillingHost().filled.base == 7)
    #expect {
      try Injection.resolve(FilledByHost.self)
    } throws: { error in
      (error as? ResolutionError)?.description.contains("(its rule, an ifNil factory, is called with the instance")
        == true
    }
    #expect(try Injection.resolve(FilledByHost?.self) == nil)
  }

  @Test func aSingletonAndASharedValueThatNeedEachOtherOnTwoThreadsReportTheCycle() async {
    // Thread 2 builds the singleton, whose factory reads the shared value thread 1 is creating; thread 1's
    // factory then resolves the singleton. Before, both waited for ever: the container's and the shared
    // value's cycle checks each saw only their own locks (review H73). The resolve that would close the
    // cycle throws; the child process exits with 3 when it did and both threads finished.
    await #expect(processExitsWith: .exitCode(3)) {
      let sharedStarted = DispatchSemaphore(value: 0)
      let singletonWaits = DispatchSemaphore(value: 0)
      let cycle = LockedState<ResolutionError?>(nil)
      try Injection.inject(MixedShared.self).shared {
        sharedStarted.signal()
        singletonWaits.wait()
        usleep(300_000)  // thread 2 is waiting for this creation by now
        do { _ = try Injection.resolve(MixedSingleton.self) } catch let error as ResolutionError {
          cycle.withLock { $0 = error }
        } catch {}
        return MixedShared()
      }
      try Injection.inject(MixedSingleton.self).singleton { _ in
        sharedStarted.wait()
        singletonWaits.signal()
        _ = MixedSharedHost().shared
        return MixedSingleton()
      }
      let done = DispatchSemaphore(value: 0)
      Thread {
        _ = MixedSharedHost().shared
        done.signal()
      }.start()
      Thread {
        _ = try? Injection.resolve(MixedSingleton.self)
        done.signal()
      }.start()
      let finished = done.wait(timeout: .now() + 20) == .success && done.wait(timeout: .now() + 20) == .success
      guard finished, case .cycle? = cycle.withLock({ $0 }) else { exit(1) }
      exit(3)
    }
  }

  @Test func resolveAllLeavesOutANameWhoseRuleNeedsAnInstance() throws {
    // Before, a getter bound to one name made the whole call throw (review H73).
    try Injection.inject(ListedLogger.self).value(ListedLogger("main"))
    try Injection.inject(ListedLogger.self, named: "audit").getter { _, _, _ in ListedLogger("audit") }
    try Injection.inject(ListedLogger.self, named: "trace").value(ListedLogger("trace"))
    #expect(try Injection.resolveAll(ListedLogger.self).map(\.tag) == ["main", "trace"])
    // A setter alone is named in resolve's error too.
    try Injection.inject(ListedLogger.self, named: "trace").setter { _, _, _, _ in }
    #expect {
      try Injection.resolve(ListedLogger.self, named: "trace")
    } throws: { error in
      (error as? ResolutionError)?.description.contains("(its rule, a setter, is called with the instance") == true
    }
  }

  @Test func resolvingATypeInjectedWeaklyReturnsTheObjectWhileItLives() throws {
    var object: WeaklyResolved? = WeaklyResolved()
    try Injection.inject(WeaklyResolved?.self).weak(object!)
    #expect(try Injection.resolve(WeaklyResolved?.self) === object)
    object = nil
    #expect(try Injection.resolve(WeaklyResolved?.self) == nil)
  }

  @Test func resolveInsideAnOverrideScopeSeesTheScopesRules() throws {
    final class Marker: Sendable { let id: Int; init(_ id: Int) { self.id = id } }
    try Injection.withIsolatedInjections {
      try Injection.inject(Marker.self).value(Marker(1))
      try Injection.withOverrides({ lets in try lets.inject(Marker.self).value(Marker(2)) }) { () throws in
        #expect(try Injection.resolve(Marker.self).id == 2)
      }
      #expect(try Injection.resolve(Marker.self).id == 1)
    }
  }

  @Test func aWeakSharedObjectIsSharedWhileSomeoneHoldsIt() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject(Session.self).weakShared { _ in Session() }
      var held: Session? = try Injection.resolve(Session.self)
      #expect(try Injection.resolve(Session.self) === held)
      weak let old = held
      held = nil
      #expect(old == nil)
      let fresh = try Injection.resolve(Session.self)
      #expect(try Injection.resolve(Session.self) === fresh)
    }
  }

  @Test func namesTellBindingsApartAndResolveAllKeepsRegistrationOrder() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject((any Plugin).self, named: "video").to(VideoPlugin.self)
      try Injection.inject((any Plugin).self).to(TextPlugin.self)
      try Injection.inject((any Plugin).self, named: "audio").to(AudioPlugin.self)
      #expect(try Injection.resolve((any Plugin).self, named: "audio").id == "audio")
      let all = try Injection.resolveAll((any Plugin).self).map(\.id)
      #expect(all == ["video", "text", "audio"])
      try Injection.inject((any Plugin).self, named: "video").value(VideoPlugin())  // re-binding keeps its place
      try Injection.inject((any Plugin).self, named: "audio").reject()
      #expect(try Injection.resolveAll((any Plugin).self).map(\.id) == ["video", "text"])
    }
  }

  @Test func aNameStaysMoreSpecificThanTheTypeAloneWithinABatchAndAfterItsRejection() throws {
    try Injection.withIsolatedInjections {
      // In one batch, the named binding first: the later rule for the type alone does not override it.
      let lets = InjectionRules()
      try lets.inject(NamedStore.self, named: "backup").value(NamedStore("backup"))
      try lets.inject(NamedStore.self).value(NamedStore("main"))
      try Injection.commit(lets)
      #expect(try Injection.resolve(NamedStore.self, named: "backup").id == "backup")
      #expect(NamedStoreHost().backup.id == "backup")
      #expect(NamedStoreHost().main.id == "main")
      // A name rejected in the batch before the type's rule stays rejected by that batch, not re-bound.
      let again = InjectionRules()
      try again.inject(NamedStore.self, named: "backup").reject()
      try again.inject(NamedStore.self).value(NamedStore("main 2"))
      try Injection.commit(again)
      // A rejected name falls back to the type's binding, now and after the type is bound again.
      #expect(try Injection.resolve(NamedStore.self, named: "backup").id == "main 2")
      try Injection.inject(NamedStore.self).value(NamedStore("main 3"))
      #expect(try Injection.resolve(NamedStore.self, named: "backup").id == "main 3")
      #expect(NamedStoreHost().backup.id == "main 3")
    }
  }

  @Test func unbindingANameGivesItTheTypesBindingAgainWhoeverBoundIt() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject(NamedStore.self).value(NamedStore("main"))
      try Injection.inject(NamedStore.self, named: "backup").value(NamedStore("backup"))
      #expect(NamedStoreHost().backup.id == "backup")
      try Injection.inject(NamedStore.self, named: "backup").reject()
      // Before, the rejection hid the type's binding too: the read stopped and resolve threw `unbound`.
      #expect(NamedStoreHost().backup.id == "main")
      #expect(try Injection.resolve(NamedStore.self, named: "backup").id == "main")
      #expect(Injection.isInjected(NamedStoreHost.self, "backup"))
      #expect(try Injection.resolveAll(NamedStore.self).map(\.id) == ["main"])
      // A module's binding of the name is taken back too; the module stays loaded.
      let module = BackupStoreModule()
      try Injection.addModule(module)
      #expect(NamedStoreHost().backup.id == "module")
      try Injection.inject(NamedStore.self, named: "backup").reject()
      #expect(NamedStoreHost().backup.id == "main")
      try Injection.removeModule(module)
      #expect(NamedStoreHost().backup.id == "main")
      // Leaving the properties empty is a rejection of the selection.
      try Injection.inject(NamedStore.self).named("backup").reject()
      #expect(!Injection.isInjected(NamedStoreHost.self, "backup"))
      #expect(NamedStoreHost().main.id == "main")
    }
  }

  @Test func anEagerSingletonThatFailsAfterTheCommitSaysTheBatchWasApplied() throws {
    struct BuildFailed: Error {}
    try Injection.withIsolatedInjections {
      let lets = InjectionRules()
      try lets.inject(NamedStore.self).value(NamedStore("applied"))
      try lets.inject(EagerFailure.self).eagerSingleton { _ in throw BuildFailed() }
      do {
        try Injection.commit(lets)
        Issue.record("the eager singleton's error was not thrown")
      } catch let error as BatchAppliedError {
        #expect(error.underlying is BuildFailed)
        #expect(error.plan.entries.contains { $0.property.name == "main" })
        #expect(error.description.hasPrefix("The batch was applied"))
      }
      // Applied, as the error says (before, the factory's bare error suggested nothing was).
      #expect(NamedStoreHost().main.id == "applied")
    }
  }

  @Test func anEagerSingletonFailingInAScopesRulesThrowsItsOwnError() {
    struct BuildFailed: Error {}
    // The scope ends on the error, so nothing stays applied: no BatchAppliedError.
    #expect(throws: BuildFailed.self) {
      try Injection.withOverrides({ lets in
        try lets.inject(EagerFailure.self).eagerSingleton { _ in throw BuildFailed() }
      }) {}
    }
    #expect(throws: BuildFailed.self) {
      _ = try Injection.childInjector { lets in
        try lets.inject(EagerFailure.self).eagerSingleton { _ in throw BuildFailed() }
      }
    }
  }

  @Test func conversionChecksFollowTheRuntime() {
    #expect(Injection.isConvertible(Square.self, to: (any Drawable).self) == true)
    #expect(Injection.isConvertible(Square.self, to: (any Drawable & Sizable).self) == true)
    #expect(Injection.isConvertible(Square.self, to: (any Shape & Drawable).self) == true)
    #expect(Injection.isConvertible(Point.self, to: (any Shape & Drawable).self) == false)
    #expect(Injection.isConvertible(Point.self, to: (any Drawable)?.self) == true)
    #expect(Injection.isConvertible(Point.self, to: (any Sizable).self) == false)
    #expect(Injection.isConvertible(Point.self, to: AnyObject.self) == false)
    #expect(Injection.isConvertible(Square.self, to: AnyObject.self) == true)
    #expect(Injection.isConvertible(Square.self, to: Shape.self) == true)
    #expect(Injection.isConvertible(Shape.self, to: Square.self) == false)
    #expect(Injection.isConvertible(Point.self, to: Any.self) == true)
  }
}
