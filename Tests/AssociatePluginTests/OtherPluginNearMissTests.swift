import AssociatePlugin
import InjectPlugin
import Testing

private final class NearMissPlayer {
  @Inject var level: Int?
}

extension NearMissPlayer {
  fileprivate final class Nickname: Associated<NearMissPlayer, String> {}
  fileprivate var nickname: String? {
    get { Nickname[self] }
    set { Nickname[self] = newValue }
  }
}

/// A selection naming a property that another plugin owns says so (before: "none comes close"; review H55).
@Test func aNameOwnedByAnotherPluginIsANearMissSayingWhichPlugin() throws {
  #expect {
    try Injection.inject(String?.self).declared(in: NearMissPlayer.self).named("nickname").value("ace")
  } throws: { error in
    guard case InjectionError.selectionMatchesNothing(_, let nearMisses) = error else { return false }
    return nearMisses == [
      "AssociatePluginTests.NearMissPlayer.nickname: Swift.Optional<Swift.String> — it is the Associate plugin's "
        + "property, not the Inject plugin's: use its verbs"
    ]
  }
}
