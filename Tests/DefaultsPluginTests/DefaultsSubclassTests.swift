import DefaultsPlugin
import Foundation
import Testing

// A subclass can keep an inherited `@Defaults` property in a store of its own.

private class PlayerSettings {
  @Defaults("player.volume") var volume = 0.5
}
private final class GuestPlayerSettings: PlayerSettings {}
private final class KioskPlayerSettings: PlayerSettings {}

@Suite struct DefaultsSubclassTests {
  @Test func aSubclassRuleGivesTheSubclassItsOwnStoreWithTheDeclaredKey() throws {
    let shared = InMemoryDefaultsStore()
    let guest = InMemoryDefaultsStore()
    try Injection.injectDefaults(in: PlayerSettings.self, store: { _ in shared })
    try Injection.injectDefaults(in: GuestPlayerSettings.self, store: { _ in guest })
    PlayerSettings().volume = 0.3
    GuestPlayerSettings().volume = 0.9
    #expect(shared.object(forKey: "player.volume") as? Double == 0.3)
    #expect(guest.object(forKey: "player.volume") as? Double == 0.9)
    #expect(PlayerSettings().volume == 0.3)
    #expect(KioskPlayerSettings().volume == 0.3)  // another subclass keeps the base's store
    #expect(GuestPlayerSettings().volume == 0.9)

    try Injection.rejectDefaults(in: GuestPlayerSettings.self)
    // Off for the subclass's instances (a plain stored property with its initial value), although it
    // inherits the property; other subclasses keep the base's store. Before, the base's store showed
    // through for the subclass.
    let guestSettings = GuestPlayerSettings()
    #expect(guestSettings.volume == 0.5)
    guestSettings.volume = 0.1
    #expect(guestSettings.volume == 0.1)
    #expect(shared.object(forKey: "player.volume") as? Double == 0.3)
    #expect(guest.object(forKey: "player.volume") as? Double == 0.9)
    #expect(KioskPlayerSettings().volume == 0.3)
  }
}
