import DefaultsPlugin
import Foundation
import ImperativePlugin
import Testing

private final class RejectedSettings {
  @Defaults var theme = "light"
}

private final class PartlyRejectedA {
  @Defaults var level = 1
}

private final class PartlyRejectedB {
  @Defaults var level = 1
}

private final class ImperativeSettings {
  @Defaults("imperative.count") var count = 0
}

private final class SynchronizedSettings {
  @Defaults(.synchronized) var token: String?
  @ArchivedDefaults("frame", .synchronized) var frame: WindowFrame?
  @Defaults var lazyWrite: String?
}

private final class KeyedBeforeUseSettings {
  @Defaults("ui.keyedVolume") var volume = 0.5
}

private final class NoDefaultsHere {
  var plain = 0
}

@Suite struct LifecycleTests {
  @Test func rejectingMakesItAPlainStoredPropertyAgain() throws {
    let store = InMemoryDefaultsStore(["theme": "dark"])
    try Injection.injectDefaults(in: RejectedSettings.self, store: { _ in store })
    let settings = RejectedSettings()
    #expect(settings.theme == "dark")
    try Injection.rejectDefaults(in: RejectedSettings.self)
    #expect(settings.theme == "light")  // its initial value
    settings.theme = "blue"
    #expect(settings.theme == "blue")
    #expect(RejectedSettings().theme == "light")  // stored per instance again
    #expect(store.object(forKey: "theme") as? String == "dark")  // the store is left alone
    try Injection.injectDefaults(in: RejectedSettings.self, store: { _ in store })
    #expect(RejectedSettings().theme == "dark")
  }

  @Test func rejectingSomeClassesLeavesTheOthersOn() throws {
    let store = InMemoryDefaultsStore(["level": 5])
    try Injection.injectDefaults(in: PartlyRejectedA.self, PartlyRejectedB.self, store: { _ in store })
    try Injection.rejectDefaults(in: PartlyRejectedA.self)
    #expect(PartlyRejectedA().level == 1)
    #expect(PartlyRejectedB().level == 5)
  }

  @Test func namingAClassWithoutDefaultsPropertiesIsAMistake() throws {
    #expect {
      try Injection.injectDefaults(in: NoDefaultsHere.self)
    } throws: { error in
      (error as? InjectionError)
        == .selectionMatchesNothing(selection: "Defaults: in DefaultsPluginTests.NoDefaultsHere", nearMisses: [])
    }
  }

  @Test func theVerbsWorkInAnImperativeBlock() throws {
    let store = InMemoryDefaultsStore()
    let plan = try Injection.imperative { lets in
      lets.checkCompleteness(in: ImperativeSettings.self)
      lets.injectDefaults(in: ImperativeSettings.self, store: { _ in store })
    }
    #expect(plan.entries.map(\.property.name) == ["count"])
    ImperativeSettings().count = 3
    #expect(store.object(forKey: "imperative.count") as? Int == 3)
    #expect(
      Injection.report().split(separator: "\n").contains(
        "DefaultsPluginTests.ImperativeSettings.count: Swift.Int <- defaults (Defaults) — key \"imperative.count\" "
          + "in InMemoryDefaultsStore"))
  }

  @Test func theReportSaysADeclaredKeyIsNotKnownUntilAnInstanceIsUsed() throws {
    let store = InMemoryDefaultsStore()
    try Injection.injectDefaults(in: KeyedBeforeUseSettings.self, store: { _ in store })
    func line() -> Substring? {
      Injection.report().split(separator: "\n").first { $0.contains("KeyedBeforeUseSettings.volume") }
    }
    // The declaration's key comes from an instance's wrapper: before one is used, the report must not
    // present the property's name as the key.
    #expect(
      line()?.hasSuffix(
        "key \"volume\" unless the declaration names one (known once this property was read or written) in InMemoryDefaultsStore"
      )
        == true, "\(String(describing: line()))")
    KeyedBeforeUseSettings().volume = 0.8
    #expect(store.object(forKey: "ui.keyedVolume") as? Double == 0.8)
    #expect(
      line()?.hasSuffix("key \"ui.keyedVolume\" in InMemoryDefaultsStore") == true, "\(String(describing: line()))")
  }

  @Test func theSynchronizedOptionWritesThroughToDiskAtOnce() throws {
    let suite = TemporarySuite()
    defer { suite.remove() }
    try Injection.injectDefaults(in: SynchronizedSettings.self, store: { _ in suite.store })
    let settings = SynchronizedSettings()
    settings.lazyWrite = "later"
    #expect(suite.fileContents()["lazyWrite"] == nil)  // not synchronized: in memory until exit
    settings.token = "secret"
    settings.frame = WindowFrame(x: 1, y: 1, width: 1, height: 1)
    let file = suite.fileContents()
    #expect(file["token"] as? String == "secret")
    #expect(file["frame"] is Data)
    settings.token = nil
    #expect(suite.fileContents()["token"] == nil)
    #expect(settings.token == nil)  // and it reads back as removed
  }
}
