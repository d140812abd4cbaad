import DefaultsPlugin
import Testing

private final class AssociatedSettings {}

extension AssociatedSettings {
  fileprivate final class Volume: AssociatedProperty<AssociatedSettings, Defaults<Int>> {}
  fileprivate var volume: Int {
    get { Volume[self] }
    set { Volume[self] = newValue }
  }
}

private final class OptionalAssociatedSettings {}

extension OptionalAssociatedSettings {
  fileprivate final class Theme: AssociatedProperty<OptionalAssociatedSettings, Defaults<String?>> {}
  fileprivate var theme: String? {
    get { Theme[self] }
    set { Theme[self] = newValue }
  }
}

@Suite struct AssociatedDefaultsTests {
  /// An associated property has no initial value: before, a non-optional one was accepted and its first
  /// read with the key absent stopped the program (review H55).
  @Test func aNonOptionalAssociatedPropertyIsRefusedAtTheCommit() throws {
    #expect {
      try Injection.injectDefaults(in: AssociatedSettings.self, store: { _ in InMemoryDefaultsStore() })
    } throws: { error in
      error as? InjectionError
        == .rejected(
          property: "DefaultsPluginTests.AssociatedSettings.volume: Swift.Int",
          reason: "an associated property has no initial value to read while its key is absent: declare its "
            + "value type optional (Int?), and read nil until the key is set")
    }
  }

  @Test func anOptionalAssociatedPropertyReadsNilUntilItsKeyIsSet() throws {
    let store = InMemoryDefaultsStore()
    try Injection.injectDefaults(in: OptionalAssociatedSettings.self, store: { _ in store })
    let settings = OptionalAssociatedSettings()
    #expect(settings.theme == nil)
    settings.theme = "dark"
    #expect(store.object(forKey: "theme") as? String == "dark")
    #expect(OptionalAssociatedSettings().theme == "dark")
  }
}
