import InjectionKernel
import Synchronization
import TestSupport
import Testing

/// Counts its live instances (each test has its own counter).
private typealias Token = LiveObject

private final class NoteHost {}
extension NoteHost {
  final class Note: AssociatedProperty<NoteHost, Tracked<String?>> {}
  var note: String? {
    get { Note[self] }
    set { Note[self] = newValue }
  }
}

private final class CatalogHost {}
extension CatalogHost {
  final class URLLabel: AssociatedProperty<CatalogHost, Tracked<String?>> {}
}

private final class InjectedHost {}
extension InjectedHost {
  final class Greeting: AssociatedProperty<InjectedHost, Tracked<String>> {}
  var greeting: String {
    get { Greeting[self] }
    set { Greeting[self] = newValue }
  }
}

private final class LifetimeHost {}
extension LifetimeHost {
  final class Held: AssociatedProperty<LifetimeHost, Tracked<Token?>> {}
}

private class BaseOwner {}
private final class DerivedOwner: BaseOwner {}
extension BaseOwner {
  final class Held: AssociatedProperty<BaseOwner, Tracked<Token?>> {}
}

/// Reads and writes its own associated property in its deinit.
private final class DeinitHost {
  let seen: LockedState<[String?]>
  init(_ seen: LockedState<[String?]>) { self.seen = seen }
  deinit {
    let before = Note[self]
    Note[self] = "written in deinit"
    let after = Note[self]
    seen.withLock { $0 += [before, after] }
  }
  final class Note: AssociatedProperty<DeinitHost, Tracked<String?>> {}
}

/// Gets its first association ever in its deinit (its class is not hooked when the deinit starts).
private final class LateHost {
  let seen: LockedState<[String?]>
  init(_ seen: LockedState<[String?]>) { self.seen = seen }
  deinit {
    let before = Note[self]
    Note[self] = "late"
    seen.withLock { $0 += [before, Note[self]] }
  }
  final class Note: AssociatedProperty<LateHost, Tracked<String?>> {}
}

private final class ReuseHost {}
extension ReuseHost {
  final class Tag: AssociatedProperty<ReuseHost, Tracked<Int?>> {}
}

private final class FailingHost {
  let id: Int
  init?(id: Int, fail: Bool) {
    self.id = id
    Tag[self] = id
    if fail { return nil }
  }
  final class Tag: AssociatedProperty<FailingHost, Tracked<Int?>> {}
}

private final class WeakHost {}
extension WeakHost {
  final class Friend: AssociatedProperty<WeakHost, Tracked<Token?>> {
    override class var holdsWeakly: Bool { true }
  }
}

private final class GenericOwner<Element> {}
extension GenericOwner {
  final class Count: AssociatedProperty<GenericOwner<Element>, Tracked<Int?>> {}
}

private final class StaticHost {}
extension StaticHost {
  final class Level: AssociatedProperty<StaticHost, Tracked<Int?>> {}
  static var level: Int? {
    get { Level[self] }
    set { Level[self] = newValue }
  }
}

private final class SharedHost: Sendable {}
extension SharedHost {
  final class Value: AssociatedProperty<SharedHost, Tracked<Token?>> {}
}

private final class ChurnHost {}
extension ChurnHost {
  final class Held: AssociatedProperty<ChurnHost, Tracked<Token?>> {}
}

@Suite struct AssociatedStorageTests {
  @Test func eachOwnerHasItsOwnValue() {
    let first = NoteHost()
    let second = NoteHost()
    #expect(first.note == nil)
    first.note = "first"
    second.note = "second"
    #expect(first.note == "first")
    #expect(second.note == "second")
    first.note = nil
    #expect(first.note == nil)
    #expect(second.note == "second")
  }

  @Test func theCatalogListsADeclarationBeforeAnyAccess() throws {
    let declared = Injection.declaredProperties(of: CatalogHost.self)
    let label = try #require(declared.first { $0.name == "urlLabel" })
    #expect(label.plugin == TrackedPlugin.id)
    #expect(ObjectIdentifier(label.valueType) == ObjectIdentifier(String?.self))
    #expect(label.description.hasSuffix("CatalogHost.urlLabel: Swift.Optional<Swift.String>"))
    #expect(Injection.properties(of: TrackedPlugin.self).contains(label))
    #expect(CatalogHost.URLLabel.property == label)
  }

  @Test func rulesReachAnAssociatedProperty() throws {
    let rules = InjectionRules()
    TrackedPlugin.inject("hello", into: InjectedHost.self, rules: rules)
    try Injection.commit(rules)
    let host = InjectedHost()
    #expect(host.greeting == "hello")
    host.greeting = "own"
    #expect(host.greeting == "own")
    #expect(InjectedHost().greeting == "hello")
    #expect(Injection.isInjected(InjectedHost.Greeting.property))
  }

  @Test func valuesAreReleasedWhenTheirOwnerDies() {
    let live = Counter()
    var owner: LifetimeHost? = LifetimeHost()
    LifetimeHost.Held[owner!] = Token(live)
    #expect(live.count == 1)
    LifetimeHost.Held[owner!] = Token(live)  // the replaced value is released at once
    #expect(live.count == 1)
    owner = nil
    #expect(live.count == 0)
  }

  @Test func aSubclassInstanceReleasesItsValuesToo() {
    let live = Counter()
    var owner: DerivedOwner? = DerivedOwner()
    BaseOwner.Held[owner!] = Token(live)
    var base: BaseOwner? = BaseOwner()
    BaseOwner.Held[base!] = Token(live)
    #expect(live.count == 2)
    owner = nil
    #expect(live.count == 1)
    base = nil
    #expect(live.count == 0)
  }

  @Test func aDeinitReadsAndWritesItsOwnersValues() {
    let seen = LockedState<[String?]>([])
    var host: DeinitHost? = DeinitHost(seen)
    DeinitHost.Note[host!] = "alive"
    host = nil
    #expect(seen.value == ["alive", "written in deinit"])
    // A later object (possibly at the same address) starts empty.
    for _ in 0..<100 {
      let next = DeinitHost(LockedState([]))
      #expect(DeinitHost.Note[next] == nil)
      DeinitHost.Note[next] = "alive"
    }
  }

  @Test func aFirstAssociationMadeInADeinitIsReadBackAndNeverSeenByLaterObjects() {
    let seen = LockedState<[String?]>([])
    for _ in 0..<50 { _ = LateHost(seen) }
    #expect(seen.value == Array(repeating: [nil, "late"], count: 50).flatMap { $0 })
  }

  @Test func aNewObjectAtADeadOwnersAddressSeesNothing() {
    var addresses: Set<UInt> = []
    var reused = 0
    for index in 0..<20_000 {
      let owner = ReuseHost()
      let address = UInt(bitPattern: Unmanaged.passUnretained(owner).toOpaque())
      if !addresses.insert(address).inserted { reused += 1 }
      #expect(ReuseHost.Tag[owner] == nil)
      ReuseHost.Tag[owner] = index
    }
    // The address sanitizer's allocator never hands a freed address out again.
    #expect(reused > 0 || addressSanitizerIsActive, "the allocator reused no address: the test proved nothing")
  }

  @Test func aValueAttachedInAFailingInitializerIsNeverSeenByLaterObjects() {
    var survivors: [FailingHost] = []
    for index in 0..<2_000 {
      #expect(FailingHost(id: index, fail: true) == nil)
      let host = FailingHost(id: -index, fail: false)!
      #expect(FailingHost.Tag[host] == -index)
      survivors.append(host)
    }
    #expect(survivors.count == 2_000)
  }

  @Test func aWeakValueIsNilOnceItDies() {
    let live = Counter()
    let host = WeakHost()
    var friend: Token? = Token(live)
    WeakHost.Friend[host] = friend
    #expect(WeakHost.Friend[host] === friend)
    friend = nil
    #expect(live.count == 0)
    #expect(WeakHost.Friend[host] == nil)
  }

  @Test func genericOwnersHaveOnePropertyPerSpecialization() {
    let ints = GenericOwner<Int>()
    let strings = GenericOwner<String>()
    GenericOwner<Int>.Count[ints] = 1
    GenericOwner<String>.Count[strings] = 2
    #expect(GenericOwner<Int>.Count[ints] == 1)
    #expect(GenericOwner<String>.Count[strings] == 2)
    #expect(GenericOwner<Int>.Count.property != GenericOwner<String>.Count.property)
  }

  @Test func aStaticPropertyLivesOnTheClassObject() {
    #expect(StaticHost.level == nil)
    StaticHost.level = 3
    #expect(StaticHost.level == 3)
    #expect(StaticHost.Level[StaticHost.self] == 3)
    StaticHost.level = nil
    #expect(StaticHost.level == nil)
  }

  @Test func concurrentReadsAndWritesOfOneOwnerSeeTheOldOrTheNewValue() {
    let live = Counter()
    let owner = SharedHost()
    let tokens = (0..<4).map { Token(live, id: $0) }
    SharedHost.Value[owner] = tokens[0]
    whileWriting(
      readers: 4,
      {
        for round in 0..<2_000 { SharedHost.Value[owner] = tokens[round % 4] }
      },
      read: {
        let read = SharedHost.Value[owner]
        precondition(read != nil && tokens.contains { $0 === read })
      })
    #expect(live.count == 4)
  }

  @Test func ownersComeAndGoOnManyThreads() {
    let live = Counter()
    concurrently(threads: 8) { thread in
      var kept: [ChurnHost] = []
      for index in 0..<5_000 {
        let owner = ChurnHost()
        precondition(ChurnHost.Held[owner] == nil)
        ChurnHost.Held[owner] = Token(live, id: index)
        precondition(ChurnHost.Held[owner]?.id == index)
        if index % 10 == 0 { kept.append(owner) }
        if kept.count > 50 { kept.removeFirst(25) }
      }
    }
    // Every value died with its owner (the tables' size is checked by AssociatePlugin's million-owner
    // test; owners of tests running beside this one would blur it here).
    #expect(live.count == 0)
  }
}
