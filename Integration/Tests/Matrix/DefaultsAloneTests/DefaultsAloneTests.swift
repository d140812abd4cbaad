import DefaultsPlugin
import MatrixSupport
import Testing

// DefaultsPlugin alone (plus the kernel-only @Probe), on stores of the tests' own.

private final class Preferences {
  @Defaults("matrix.volume") var volume = 0.5
  @Defaults("matrix.name") var name: String?
  @Probe var probe: String?
}

private struct Frame: Codable, Equatable {
  var width = 0
}

private final class Layout {
  @Defaults var frame: Frame?
  @Probe var probe: String?
}

@Suite struct DefaultsAloneTests {
  @Test func readsAndWritesTheStoreBesideAProbe() throws {
    let store = InMemoryDefaultsStore(["matrix.volume": 0.8])
    try Injection.injectDefaults(in: Preferences.self, store: { _ in store })
    try Injection.probe("probed", in: Preferences.self)
    let preferences = Preferences()
    #expect(preferences.volume == 0.8 && preferences.name == nil && preferences.probe == "probed")
    preferences.name = "kim"
    #expect(store.object(forKey: "matrix.name") as? String == "kim")
    #expect(Injection.injectedPlugins(of: Preferences.self) == ["Defaults", "Probe"])

    try Injection.rejectProbe(in: Preferences.self)
    #expect(preferences.probe == nil && Preferences().name == "kim")
    try Injection.rejectDefaults(in: Preferences.self)
    #expect(Preferences().volume == 0.5)  // a plain stored property holding its initial value
  }

  @Test func refusesATypeItCannotStoreAndAppliesNothing() throws {
    #expect(throws: InjectionError.self) {
      try Injection.injectDefaults(in: Layout.self, store: { _ in InMemoryDefaultsStore() })
    }
    #expect(!Injection.isInjected(Layout.self, "frame"))
    try Injection.probe("still works", in: Layout.self)
    #expect(Layout().probe == "still works")
  }
}
