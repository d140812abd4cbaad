import AssociatePlugin
import Foundation
import ImperativePlugin
import InjectPlugin
import TestSupport
import Testing

/// Counts its live instances (each test has its own counter).
private typealias Payload = LiveObject

// MARK: Fixtures (one per test: tests run in parallel)

private final class Hero {}
extension Hero {
  final class Nickname: Associated<Hero, String> {}
  var nickname: String? {
    get { Nickname[self] }
    set { Nickname[self] = newValue }
  }
}

/// Owned by no class: left out of the catalog; only its own use stops the program.
private final class AnyOwnerTag: Associated<AnyObject, String> {}

/// Named nothing: left out of the catalog; only its own use stops the program.
private final class NamelessTag: Associated<Hero, Int> {
  override class var propertyName: String { "" }
}

private final class Villain {
  @Inject var lair: String?
}
extension Villain {
  final class Alias: Associated<Villain, String> {}
  final class Moniker: Associated<Villain, String> {
    override class var propertyName: String { "alias" }
  }
  final class Lair: Associated<Villain, String> {}
}

private final class Spelled {}
extension Spelled {
  final class URLCache: Associated<Spelled, Int> {}
  final class ID: Associated<Spelled, Int> {}
  final class Nickname: Associated<Spelled, String> {}
  final class X: Associated<Spelled, Int> {}
}

extension JSONEncoder {
  final class Purpose: Associated<JSONEncoder, String> {}
  var purpose: String? {
    get { Purpose[self] }
    set { Purpose[self] = newValue }
  }
}

extension Operation {
  final class Owner: Associated<Operation, String> {}
  var owner: String? {
    get { Owner[self] }
    set { Owner[self] = newValue }
  }
}

private class Mixer {}
extension Mixer {
  final class Volume: Associated<Mixer, Int> {}
  static let volumeSets = Counter()
  static var volume: Int? {
    get { Volume[self] }
    set {
      volumeSets.increment()
      Volume[self] = newValue
    }
  }
}
private final class LoudMixer: Mixer {}

private final class Orbit {}
extension Orbit {
  final class Moon: WeaklyAssociated<Orbit, Payload> {}
  final class Label: CopyAssociated<Orbit, NSString> {}
  final class Buffer: CopyAssociated<Orbit, NSMutableString> {}
}

private struct Budget: Sendable, Equatable {
  let amount: Int
}
private final class Ledger {}
extension Ledger {
  final class Budget_: AssociatedProperty<Ledger, Inject<Budget?>> {
    override class var propertyName: String { "budget" }
  }
  var budget: Budget? {
    get { Budget_[self] }
    set { Budget_[self] = newValue }
  }
  final class Retries: AssociatedProperty<Ledger, Inject<Int?>> {}
  var retries: Int? { Retries[self] }
}

private class GenericLedger<T> {}
extension GenericLedger {
  final class GenericLedgerNote: AssociatedProperty<GenericLedger<T>, Inject<T?>> {}
  var genericLedgerNote: T? { GenericLedgerNote[self] }
}

/// An owner that is not generic, with a declaration nested in a generic type.
private final class PlainNoteOwner {}
private class PlainNoteBox<T> {}
extension PlainNoteBox {
  final class PlainOwnersNote: AssociatedProperty<PlainNoteOwner, Inject<T?>> {}
}
extension PlainNoteOwner {
  func plainOwnersNote<T>(_: T.Type) -> T? { PlainNoteBox<T>.PlainOwnersNote[self] }
}

private final class Session: Sendable {}
private final class Screen {
  @Inject var session: Session
}
extension Screen {
  final class Backup: AssociatedProperty<Screen, Inject<Session>> {}
  var backup: Session { Backup[self] }
}

private final class Orphan: Sendable {}
private final class Forgotten {}
extension Forgotten {
  final class Needed: AssociatedProperty<Forgotten, Inject<Orphan>> {}
}

private final class Muted {}
extension Muted {
  final class Level: Associated<Muted, Int> {}
  var level: Int? {
    get { Level[self] }
    set { Level[self] = newValue }
  }
}

private final class Switched {}
extension Switched {
  final class Level: Associated<Switched, Int> {}
  var level: Int? {
    get { Level[self] }
    set { Level[self] = newValue }
  }
}

private class Player {}
private final class ProPlayer: Player {}
extension Player {
  final class Level: AssociatedProperty<Player, Inject<Int>> {}
  var level: Int {
    get { Level[self] }
    set { Level[self] = newValue }
  }
  final class Nickname: Associated<Player, String> {}
  var nickname: String? {
    get { Nickname[self] }
    set { Nickname[self] = newValue }
  }
}

@Suite struct AssociatePluginTests {
  @Test func aNameThatOnlyAGenericTypesAssociatedDeclarationHasIsNotATypo() throws {
    // Before, both rules threw "No marked property matches … and none comes close" until a specialization
    // had been used: the name was known only from the declaration's class, cataloged per specialization.
    try Injection.inject(Int?.self).named("genericLedgerNote").value(4)
    try Injection.inject(String?.self).declared(in: GenericLedger<String>.self).named("genericLedgerNote").value("s")
    #expect(GenericLedger<Int>().genericLedgerNote == 4)
    #expect(GenericLedger<String>().genericLedgerNote == "s")
    // Naming a class that is not generic, before the declaration's specialization is used.
    try Injection.inject(Double?.self).declared(in: PlainNoteOwner.self).named("plainOwnersNote").value(2.5)
    #expect(PlainNoteOwner().plainOwnersNote(Double.self) == 2.5)
    // Another specialization, once one is in use, is not "the name with another type".
    try Injection.inject(String?.self).declared(in: PlainNoteOwner.self).named("plainOwnersNote").value("s")
    #expect(PlainNoteOwner().plainOwnersNote(String.self) == "s")
    // A misspelt name is still a typo.
    #expect(throws: InjectionError.self) { try Injection.inject(Int?.self).named("genericLedgerNot").value(4) }
  }

  @Test func anExtensionPropertyOfAnAppClass() {
    let hero = Hero()
    let other = Hero()
    #expect(hero.nickname == nil)
    hero.nickname = "Ace"
    other.nickname = "Jack"
    #expect(hero.nickname == "Ace")
    #expect(other.nickname == "Jack")
    hero.nickname = nil
    #expect(hero.nickname == nil)
    #expect(Hero.Nickname.property.plugin == AssociatePlugin.id)
  }

  @Test func anExtensionPropertyOfAFoundationClass() {
    let encoder = JSONEncoder()
    encoder.purpose = "reports"
    #expect(encoder.purpose == "reports")
    #expect(JSONEncoder().purpose == nil)
    #expect(
      JSONEncoder.Purpose.property.description
        == "\(Injection.typeName(JSONEncoder.self)).purpose: Swift.Optional<Swift.String>")
    let operation = Operation()
    operation.owner = "queue"
    #expect(operation.owner == "queue")
    #expect(Operation().owner == nil)
  }

  @Test func aStaticPropertyWithASideEffectingSetter() {
    #expect(Mixer.volume == nil)
    Mixer.volume = 7
    #expect(Mixer.volumeSets.count == 1)
    #expect(Mixer.volume == 7)
    #expect(LoudMixer.volume == nil)  // another class object, another owner
    LoudMixer.volume = 11
    #expect(Mixer.volumeSets.count == 2)
    #expect(Mixer.volume == 7)
    Mixer.volume = nil
    #expect(Mixer.volumeSets.count == 3)
    #expect(Mixer.volume == nil)
    #expect(LoudMixer.volume == 11)
  }

  @Test func aWeakValueIsNilOnceItDies() {
    let live = Counter()
    let orbit = Orbit()
    var moon: Payload? = Payload(live)
    Orbit.Moon[orbit] = moon
    #expect(Orbit.Moon[orbit] === moon)
    moon = nil
    #expect(live.count == 0)
    #expect(Orbit.Moon[orbit] == nil)
  }

  @Test func aCopyValueIsADistinctObject() {
    let orbit = Orbit()
    let source = NSMutableString(string: "draft")
    Orbit.Label[orbit] = source
    let stored = Orbit.Label[orbit]
    #expect(stored !== source)
    source.append(" changed")
    #expect(stored == "draft")
    #expect(Orbit.Label[orbit] == "draft")
    // A mutable property keeps a mutable copy.
    Orbit.Buffer[orbit] = source
    #expect(Orbit.Buffer[orbit] !== source)
    Orbit.Buffer[orbit]?.append("!")
    #expect(Orbit.Buffer[orbit] == "draft changed!")
  }

  @Test func injectPluginReachesAnExtensionPropertyByType() throws {
    try Injection.inject(Budget.self).value(Budget(amount: 777))
    let ledger = Ledger()
    #expect(ledger.budget == Budget(amount: 777))
    ledger.budget = Budget(amount: 666)
    #expect(ledger.budget == Budget(amount: 666))
    ledger.budget = nil
    #expect(ledger.budget == Budget(amount: 777))
    #expect(Ledger().budget == Budget(amount: 777))
  }

  @Test func anAssociatedPropertyIsNamedAfterItsDeclarationInLowerCamelCase() {
    let names = Injection.declaredProperties(of: Spelled.self).map(\.name).sorted()
    #expect(names == ["id", "nickname", "urlCache", "x"])
  }

  @Test func injectPluginReachesAnExtensionPropertyByClassAndName() throws {
    #expect(Ledger().retries == nil)
    try Injection.inject(Int?.self).declared(in: Ledger.self).named("retries").value(3)
    #expect(Ledger().retries == 3)
    #expect(Injection.report().contains("Ledger.retries: Swift.Optional<Swift.Int>"))
    let declared = Injection.declaredProperties(of: Ledger.self).map(\.name).sorted()
    #expect(declared == ["budget", "retries"])
  }

  @Test func anImperativeBlockGivesAnExtensionPropertyTheObjectItGivesAStoredOne() throws {
    let session = Session()
    try Injection.imperative { lets in
      lets.checkCompleteness(in: Screen.self)
      try lets.inject(Session.self).declared(in: Screen.self).value(session)
    }
    let screen = Screen()
    #expect(screen.session === session)
    #expect(screen.backup === screen.session)
  }

  @Test func theCompletenessCheckListsAnExtensionPropertyLeftEmpty() throws {
    #expect(throws: InjectionError.self) {
      try Injection.imperative { lets in lets.checkCompleteness(in: Forgotten.self) }
    }
    let dryRun = try Injection.imperativeDryRun { lets in lets.checkCompleteness(in: Forgotten.self) }
    #expect(dryRun.missing.contains { $0.hasSuffix("Forgotten.needed: AssociatePluginTests.Orphan (Inject)") })
  }

  @Test func rejectAndInjectTurnThePropertiesOffAndOn() throws {
    let switched = Switched()
    switched.level = 1
    try Injection.rejectAssociate(in: Switched.self)
    #expect(Injection.isInjected(Switched.Level.property))
    #expect(Injection.report().contains("Switched.level: Swift.Optional<Swift.Int>"))
    try Injection.imperative { lets in
      lets.skipChecks()
      lets.injectAssociate(in: Switched.self)
    }
    #expect(!Injection.isInjected(Switched.Level.property))
    #expect(switched.level == 1)
  }

  @Test func aRuleNamingASubclassReachesItsOwnersOfAnExtensionProperty() throws {
    try Injection.inject(Int.self).declared(in: Player.self).named("level").value(4)
    try Injection.inject(Int.self).declared(in: ProPlayer.self).named("level").value(9)
    #expect(Player().level == 4)
    #expect(ProPlayer().level == 9)  // the subclass's own injection, as for an inherited stored property
    #expect(Injection.isInjected(ProPlayer.self, "level"))
    // Stored values stay per owner object whatever view applies.
    let pro = ProPlayer()
    pro.level = 12
    #expect(pro.level == 12)
    #expect(ProPlayer().level == 9)
  }

  @Test func rejectingAnExtensionPropertyForASubclassStopsItsOwnersOnly() async {
    await #expect(processExitsWith: .failure) {
      try Injection.rejectAssociate(in: ProPlayer.self)
      let player = Player()
      player.nickname = "ok"  // the declaring class's owners are unaffected
      precondition(player.nickname == "ok")
      ProPlayer().nickname = "stops"
    }
  }

  @Test func aDeclarationOwnedByNoClassStopsAtItsOwnUseOnly() async {
    // Before, declaring it anywhere in the process stopped the first pass, whatever called it (review H58):
    // this whole suite's process would not run.
    #expect(!Injection.markedProperties().contains { $0.name == "anyOwnerTag" })
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      AnyOwnerTag[Hero()] = "tag"
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        "AssociatePluginTests.AnyOwnerTag declares an associated property of Swift.AnyObject, which is not a class: "
          + "an associated property's owner is a class (Associated<Player, Value>), not a protocol or AnyObject"))
  }

  @Test func aDeclarationWithAnEmptyNameStopsAtItsOwnUse() async {
    // Before, it was cataloged as `Module.Hero.: Swift.Optional<Swift.Int>`, which no selection can name
    // (review H58).
    #expect(!Injection.markedProperties().contains { $0.name.isEmpty })
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      NamelessTag[Hero()] = 1
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("AssociatePluginTests.NamelessTag declares an associated property with an empty name"))
  }

  @Test func twoDeclarationsOfOneNameStopAtTheirFirstUseNamingBoth() async {
    // Before, both were cataloged and worked, and a selection by the name reached both (review H71 #8).
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      Villain.Moniker[Villain()] = "Dr. No"
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        "AssociatePluginTests.Villain.alias: Swift.Optional<Swift.String> is declared twice, by the associated "
          + "declaration AssociatePluginTests.Villain.Moniker and by the associated declaration "
          + "AssociatePluginTests.Villain.Alias"))
  }

  @Test func aDeclarationNamedLikeAMarkedStoredPropertyStopsAtItsFirstUse() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Villain.Lair[Villain()]
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        "AssociatePluginTests.Villain.lair: Swift.Optional<Swift.String> is declared twice, by the associated "
          + "declaration AssociatePluginTests.Villain.Lair and by a marked stored property"))
  }

  @Test func aRejectedPropertyStopsNamingItselfAndTheCallThatTurnsItOn() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.rejectAssociate(in: Muted.self)
      _ = Muted().level
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        "AssociatePluginTests.Muted.level: Swift.Optional<Swift.Int> was used while associate-backed properties "
          + "are rejected; call Injection.injectAssociate() to turn them on"))
  }
}

private final class CopiesAsAString: NSObject, NSCopying, @unchecked Sendable {  // immutable
  func copy(with zone: NSZone? = nil) -> Any { NSString(string: "a string") }
}
private final class CopyingOwner {}
extension CopyingOwner {
  final class Note: CopyAssociated<CopyingOwner, CopiesAsAString> {}
}

/// A copy of another type stops naming that type (review H85: the message named only the type it is not).
@Test func aCopyOfAnotherTypeStopsNamingTheCopysType() async {
  let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
    CopyingOwner.Note[CopyingOwner()] = CopiesAsAString()
  }
  let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
  #expect(message.contains("AssociatePluginTests.CopiesAsAString is a "))
  #expect(message.contains("String, no AssociatePluginTests.CopiesAsAString"))
}
