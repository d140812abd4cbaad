import DefaultsPlugin
import Foundation
import Testing

// Each test has its own fixture classes and its own store (a temporary suite or an in-memory store).

private final class DeluxeSettings {
  @Defaults var number: Int?
  @Defaults var text: String?
}

private final class VolumeSettings {
  @Defaults("ui.volume") var volume = 0.5
  @Defaults var muted = false
}

private final class NamedKeySettings {
  @Defaults var first: String?
  @Defaults("explicit") var second: String?
}

private final class SharedNameA {
  @Defaults var username: String?
}

private final class SharedNameB {
  @Defaults var username: String?
}

private final class CompletenessSettings {
  @Defaults("completeness.count") var count = 0
  @Defaults var note: String?
}

@Suite struct DefaultsTests {
  /// DeluxeInjection's testDefaults: keys absent at first, writes land under the property names, `nil`
  /// removes them.
  @Test func writesLandUnderThePropertyNameAndNilRemovesTheKey() throws {
    let suite = TemporarySuite()
    defer { suite.remove() }
    try Injection.injectDefaults(in: DeluxeSettings.self, store: { _ in suite.store })
    let settings = DeluxeSettings()
    #expect(suite.defaults.object(forKey: "number") == nil)
    #expect(suite.defaults.object(forKey: "text") == nil)
    #expect(settings.number == nil)
    #expect(settings.text == nil)

    settings.number = 777
    settings.text = "abc"
    #expect(suite.defaults.integer(forKey: "number") == 777)
    #expect(suite.defaults.string(forKey: "text") == "abc")
    #expect(DeluxeSettings().number == 777)  // every instance reads the setting
    #expect(DeluxeSettings().text == "abc")

    settings.number = nil
    settings.text = nil
    #expect(suite.defaults.object(forKey: "number") == nil)
    #expect(suite.defaults.object(forKey: "text") == nil)
    #expect(settings.number == nil)
  }

  @Test func anExplicitKeyAndAnInitialValueThatIsTheDefault() throws {
    let store = InMemoryDefaultsStore()
    try Injection.injectDefaults(in: VolumeSettings.self, store: { _ in store })
    let settings = VolumeSettings()
    #expect(settings.volume == 0.5)  // the key is absent: the initial value
    #expect(settings.muted == false)
    #expect(store.keys.isEmpty)  // reading the default stores nothing
    settings.volume = 0.8
    settings.muted = true
    #expect(store.object(forKey: "ui.volume") as? Double == 0.8)
    #expect(store.object(forKey: "muted") as? Bool == true)
    #expect(VolumeSettings().volume == 0.8)
    store.removeObject(forKey: "ui.volume")
    #expect(settings.volume == 0.5)
  }

  @Test func keyAndStoreClosuresSeeTheProperty() throws {
    let stores = [InMemoryDefaultsStore(name: "first store"), InMemoryDefaultsStore(name: "second store")]
    try Injection.injectDefaults(
      in: NamedKeySettings.self, key: { "\($0.className).\($0.name)" },
      store: { $0.name == "first" ? stores[0] : stores[1] })
    let settings = NamedKeySettings()
    settings.first = "one"
    settings.second = "two"
    #expect(stores[0].keys == ["DefaultsPluginTests.NamedKeySettings.first"])
    #expect(stores[1].keys == ["explicit"])  // a key in the declaration wins over the key closure
    #expect(stores[1].object(forKey: "explicit") as? String == "two")
  }

  @Test func twoClassesWithTheSamePropertyNameShareOneSetting() throws {
    let store = InMemoryDefaultsStore()
    try Injection.injectDefaults(in: SharedNameA.self, SharedNameB.self, store: { _ in store })
    SharedNameA().username = "kim"
    #expect(SharedNameB().username == "kim")
  }

  @Test func aCompletenessCheckDoesNotListDefaultsPropertiesThatReadTheirInitialValue() throws {
    // A @Defaults property always holds its initial value (or is optional): a read never stops.
    let dry = try Injection.imperativeDryRun { lets in lets.checkCompleteness(in: CompletenessSettings.self) }
    #expect(dry.missing.isEmpty)
    #expect(dry.error == nil)
    try Injection.imperative { lets in lets.checkCompleteness(in: CompletenessSettings.self) }
    #expect(CompletenessSettings().count == 0)
  }
}
