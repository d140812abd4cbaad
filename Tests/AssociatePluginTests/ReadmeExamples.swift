import AssociatePlugin
import Foundation
import ImperativePlugin
import InjectPlugin
import Testing

// The README's examples, compiled and run. Types are private to this file.

private final class Player {}
private final class Trainer {}
private struct ScoreRules: Sendable {
  let winningScore: Int
}

extension Player {
  final class Nickname: Associated<Player, String> {}
  var nickname: String? {
    get { Nickname[self] }
    set { Nickname[self] = newValue }
  }
}

extension Player {
  final class Coach: WeaklyAssociated<Player, Trainer> {}
  var coach: Trainer? {
    get { Coach[self] }
    set { Coach[self] = newValue }
  }

  final class Motto: CopyAssociated<Player, NSString> {}
  var motto: NSString? {
    get { Motto[self] }
    set { Motto[self] = newValue }
  }
}

extension Player {
  final class Roster: Associated<Player, [String]> {}
  static var roster: [String] {
    get { Roster[self] ?? [] }
    set { Roster[self] = newValue }
  }
}

extension Player {
  final class Scoring: AssociatedProperty<Player, Inject<ScoreRules?>> {}
  var scoring: ScoreRules? {
    get { Scoring[self] }
    set { Scoring[self] = newValue }
  }
}

@Suite(.serialized)  // the last example turns Player's properties off and on: the others must not run meanwhile
struct ReadmeExamples {
  @Test func declaration() {
    let player = Player()
    player.nickname = "Ace"
    #expect(player.nickname == "Ace")
    #expect(Player().nickname == nil)
    #expect(Player.Nickname.property.description.hasSuffix("Player.nickname: Swift.Optional<Swift.String>"))
  }

  @Test func policies() {
    let player = Player()
    var trainer: Trainer? = Trainer()
    player.coach = trainer
    #expect(player.coach === trainer)
    trainer = nil
    #expect(player.coach == nil)
    let motto = NSMutableString(string: "never give up")
    player.motto = motto
    #expect(player.motto !== motto)
    #expect(player.motto == "never give up")
  }

  @Test func classObject() {
    Player.roster.append("Ace")
    #expect(Player.roster == ["Ace"])
  }

  @Test func injecting() throws {
    try Injection.inject(ScoreRules.self).value(ScoreRules(winningScore: 777))
    let player = Player()
    #expect(player.scoring?.winningScore == 777)
    player.scoring = ScoreRules(winningScore: 666)
    #expect(player.scoring?.winningScore == 666)
    player.scoring = nil  // the owner's own value is gone: the injection applies again
    #expect(player.scoring?.winningScore == 777)
  }

  @Test func turningOffAndOn() throws {
    // Turned off, a property carries the stopping injection (using one would end this process).
    let whileRejected = try Injection.imperativeDryRun { lets in
      lets.skipChecks()
      lets.rejectAssociate(in: Player.self)
    }
    #expect(whileRejected.plan.description.contains("Player.nickname"))
    try Injection.imperative { lets in
      lets.skipChecks()
      lets.rejectAssociate(in: Player.self)
    }
    try Injection.injectAssociate(in: Player.self)
    #expect(!Injection.isInjected(Player.Nickname.property))
    let player = Player()
    player.nickname = "Ace"
    #expect(player.nickname == "Ace")
  }
}
