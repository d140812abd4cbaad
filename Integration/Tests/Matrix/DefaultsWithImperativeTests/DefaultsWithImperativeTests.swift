import DefaultsPlugin
import ImperativePlugin
import MatrixSupport
import Testing

// DefaultsPlugin with ImperativePlugin: settings and @Probe in one block, on a store of the test's own.

private final class Settings {
  @Defaults("theme") var theme = "light"
  @Defaults var fontSize: Int?
  @Probe var probe: String?
}

private struct Window: Codable {
  var width = 0
}

private final class Misdeclared {
  @Defaults var window: Window?
  @Probe var probe: String?
}

@Suite struct DefaultsWithImperativeTests {
  @Test func oneBlockTurnsDefaultsAndProbeOn() throws {
    let store = InMemoryDefaultsStore()
    try Injection.imperative { lets in
      lets.checkCompleteness(in: Settings.self)
      lets.injectDefaults(in: Settings.self, key: { "app.\($0.name)" }, store: { _ in store })
      lets.probe("probed", in: Settings.self)
    }
    let settings = Settings()
    #expect(settings.theme == "light" && settings.probe == "probed")
    settings.fontSize = 14
    #expect(store.object(forKey: "app.fontSize") as? Int == 14)
    #expect(Settings().fontSize == 14)

    try Injection.imperative { lets in
      lets.skipChecks()
      lets.rejectDefaults(in: Settings.self)
    }
    #expect(Settings().fontSize == nil && settings.probe == "probed")
  }

  @Test func aPropertyTheStoreCannotHoldFailsTheBlock() throws {
    #expect(throws: InjectionError.self) {
      try Injection.imperative { lets in
        lets.skipChecks()
        lets.probe("never", in: Misdeclared.self)
        lets.injectDefaults(in: Misdeclared.self, store: { _ in InMemoryDefaultsStore() })
      }
    }
    #expect(Misdeclared().probe == nil)
  }
}
