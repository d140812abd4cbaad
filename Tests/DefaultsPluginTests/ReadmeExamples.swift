import DefaultsPlugin
import Foundation
import ImperativePlugin
import Testing

// The README's examples, compiled, and run against in-memory stores: a test never writes a user's
// settings, so statements that would use `UserDefaults.standard` are compiled in functions the tests do
// not call, and run with an override store instead.

private final class Preferences {
  @Defaults var username: String?
  @Defaults("ui.volume") var volume = 0.5
  @Defaults(.synchronized) var sessionToken: String?
  @ArchivedDefaults var window: WindowFrame?
}

/// An app's start-up, compiled (it would write `UserDefaults.standard` and a suite under `/var/lib`).
private func appStartUp(syncedStore: any DefaultsStore) throws {
  try Injection.injectDefaults()
  try Injection.imperative { lets in
    lets.skipChecks()
    lets.injectDefaults(
      key: { "app.\($0.name)" },
      store: { $0.className.hasPrefix("Sync.") ? syncedStore : UserDefaultsStore.standard })
  }
  let settings = UserDefaultsStore(suiteName: "/var/lib/notes/settings")!  // /var/lib/notes/settings.plist
  try Injection.injectDefaults(store: { _ in settings })
  try Injection.onDefaultsProblem { problem in
    print("settings: \(problem)")
  }
}

/// Observing, compiled (the loop never ends).
private func observe(_ preferences: Preferences) async {
  for await volume in preferences.$volume.values {
    print("volume is now \(volume)")
  }
}

@Suite struct ReadmeExamples {
  @Test func overview() throws {
    _ = appStartUp
    _ = observe
    try Injection.withOverrides({ lets in
      lets.injectDefaults(in: Preferences.self)
      lets.useDefaultsStore(InMemoryDefaultsStore())
    }) {
      let preferences = Preferences()
      #expect(preferences.volume == 0.5)  // "ui.volume" is absent: the initial value
      preferences.username = "kim"  // stored under "username"
      preferences.volume = 0.8  // stored under "ui.volume"
      #expect(Preferences().username == "kim")  // every instance reads the setting
      preferences.username = nil  // removes the key
      #expect(Preferences().username == nil)
    }
  }

  @Test func testing() throws {
    try Injection.withOverrides({ lets in
      lets.injectDefaults(in: Preferences.self)
      lets.useDefaultsStore(InMemoryDefaultsStore())
    }) {
      let preferences = Preferences()
      preferences.volume = 0.2
      #expect(preferences.volume == 0.2)
    }
  }
}
