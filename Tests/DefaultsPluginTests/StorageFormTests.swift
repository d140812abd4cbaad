import DefaultsPlugin
import Foundation
import ImperativePlugin
import Testing

struct WindowFrame: Codable, Equatable, Sendable {
  var x, y, width, height: Double
}

private final class ArchivedSettings {
  @ArchivedDefaults var frame: WindowFrame?
  @ArchivedDefaults("layout.frames") var frames = [WindowFrame(x: 0, y: 0, width: 1, height: 1)]
}

private final class PointSettings {
  @Defaults var frame: WindowFrame?
}

private final class Opaque {}

private final class OpaqueSettings {
  @Defaults var handle: Opaque?
}

private final class LegacyDictionarySettings {
  @Defaults var prefs: [String: Any]?
}

private final class SeveralRefusedSettings {
  @Defaults var frame: WindowFrame?
  @Defaults var handle: Opaque?
  @Defaults var count = 0
}

private final class PropertyListSettings {
  @Defaults var flag = false
  @Defaults var small: Int8 = 0
  @Defaults var huge: UInt64 = 0
  @Defaults var ratio: Float = 0
  @Defaults var when: Date?
  @Defaults var link: URL?
  @Defaults var blob: Data?
  @Defaults var names: [String] = []
  @Defaults var scores: [String: Int] = [:]
  @Defaults var nested: [[String: [Double]]] = []
}

/// A generic class whose specialization a non-generic subclass fixes: cataloged by the pass, unused.
private class GenericPrefs<Value> {
  @Defaults var stored: Value?
}

private final class FramePrefs: GenericPrefs<WindowFrame> {}

private final class ForeignSettings {
  @Defaults var count = 0
  @Defaults var tags: [String] = []
  @Defaults var limits: [String: Double] = [:]
}

@Suite struct StorageFormTests {
  @Test func archivedCodableValuesRoundTripAsJSONData() throws {
    let suite = TemporarySuite()
    defer { suite.remove() }
    try Injection.injectDefaults(in: ArchivedSettings.self, store: { _ in suite.store })
    let settings = ArchivedSettings()
    #expect(settings.frame == nil)
    #expect(settings.frames == [WindowFrame(x: 0, y: 0, width: 1, height: 1)])
    settings.frame = WindowFrame(x: 1, y: 2, width: 3, height: .infinity)
    settings.frames = []
    #expect(ArchivedSettings().frame == WindowFrame(x: 1, y: 2, width: 3, height: .infinity))
    #expect(ArchivedSettings().frames == [])
    let data = try #require(suite.defaults.data(forKey: "frame"))
    #expect(String(decoding: data, as: UTF8.self) == #"{"height":"+Infinity","width":3,"x":1,"y":2}"#)
    #expect(suite.defaults.data(forKey: "layout.frames") == Data("[]".utf8))
    settings.frame = nil
    #expect(suite.defaults.object(forKey: "frame") == nil)
  }

  @Test func aCodableTypeThatIsNotAPropertyListTypeIsRefusedAtInjection() throws {
    #expect {
      try Injection.injectDefaults(in: PointSettings.self, store: { _ in InMemoryDefaultsStore() })
    } throws: { error in
      error as? InjectionError
        == .rejected(
          property: "DefaultsPluginTests.PointSettings.frame: Swift.Optional<DefaultsPluginTests.WindowFrame>",
          reason: "@Defaults stores property-list types as themselves (Bool, integers, floating point, String, "
            + "Data, Date, URL, and arrays and string-keyed dictionaries of them), and WindowFrame? is not one. "
            + "Declare it @ArchivedDefaults to store its Codable form.")
    }
    let property = try Injection.property(named: "frame", of: PointSettings.self)
    #expect(!Injection.isInjected(property))  // nothing applied
  }

  @Test func aSpecializationThatASubclassFixesIsRefusedWhenTheRuleIsCommitted() throws {
    // Before, `FramePrefs`'s inherited property stayed a plain stored property, silently: the
    // specialization was checked on first use, after the commit, with no call left to throw from.
    let refused =
      "DefaultsPluginTests.GenericPrefs<DefaultsPluginTests.WindowFrame>.stored: "
      + "Swift.Optional<DefaultsPluginTests.WindowFrame>"
    #expect {
      _ = try Injection.imperativeDryRun { lets in
        lets.injectDefaults(store: { _ in InMemoryDefaultsStore() })
      }
    } throws: { error in
      "\(error)".contains(refused)
    }
  }

  @Test func aTypeThatIsNotCodableEitherIsRefusedWithAnotherHint() throws {
    #expect {
      try Injection.injectDefaults(in: OpaqueSettings.self, store: { _ in InMemoryDefaultsStore() })
    } throws: { error in
      "\(error)".hasPrefix("Refused for DefaultsPluginTests.OpaqueSettings.handle: Swift.Optional<")
        && "\(error)".hasSuffix(
          "is not one. Make it Codable and declare it @ArchivedDefaults, or store a property-list type.")
    }
  }

  @Test func aDictionaryOfAnyIsRefusedWithAHintThatCanBeFollowed() throws {
    // Before, it said to make [String: Any] Codable, which it cannot be (review H67).
    #expect {
      try Injection.injectDefaults(in: LegacyDictionarySettings.self, store: { _ in InMemoryDefaultsStore() })
    } throws: { error in
      "\(error)".hasSuffix(
        "Store a collection of one property-list type ([String: String], [String: Int], …), or a Codable type of "
          + "your own declared @ArchivedDefaults.")
    }
  }

  @Test func oneRefusalNamesEveryRefusedProperty() throws {
    // Before, only the first was named: fixing it and committing again met the next.
    #expect {
      try Injection.injectDefaults(in: SeveralRefusedSettings.self, store: { _ in InMemoryDefaultsStore() })
    } throws: { error in
      let text = "\(error)"
      return text.contains("DefaultsPluginTests.SeveralRefusedSettings.frame: Swift.Optional<")
        && text.contains("The same rule also refused:\n  DefaultsPluginTests.SeveralRefusedSettings.handle: ")
        && !text.contains("SeveralRefusedSettings.count")
    }
    let property = try Injection.property(named: "count", of: SeveralRefusedSettings.self)
    #expect(!Injection.isInjected(property))  // nothing applied
  }

  @Test func propertyListTypesAreStoredAsThemselves() throws {
    let suite = TemporarySuite()
    defer { suite.remove() }
    try Injection.injectDefaults(in: PropertyListSettings.self, store: { _ in suite.store })
    let settings = PropertyListSettings()
    let when = Date(timeIntervalSince1970: 1_000_000)
    settings.flag = true
    settings.small = -8
    settings.huge = .max
    settings.ratio = 0.25
    settings.when = when
    settings.link = URL(string: "https://example.org/a?b=c")
    settings.blob = Data([1, 2, 3])
    settings.names = ["a", "b"]
    settings.scores = ["kim": 3]
    settings.nested = [["x": [1.5]]]
    // Any other UserDefaults user reads them.
    let defaults = suite.defaults
    #expect(defaults.bool(forKey: "flag"))
    #expect(defaults.integer(forKey: "small") == -8)
    #expect(defaults.object(forKey: "huge") as? UInt64 == .max)
    #expect(defaults.float(forKey: "ratio") == 0.25)
    #expect(defaults.object(forKey: "when") as? Date == when)
    #expect(defaults.string(forKey: "link") == "https://example.org/a?b=c")
    #expect(defaults.data(forKey: "blob") == Data([1, 2, 3]))
    #expect(defaults.stringArray(forKey: "names") == ["a", "b"])
    #expect(defaults.dictionary(forKey: "scores")?["kim"] as? Int == 3)
    // And the properties read them back.
    let again = PropertyListSettings()
    #expect(again.flag && again.small == -8 && again.huge == .max && again.ratio == 0.25)
    #expect(again.when == when && again.link?.host == "example.org" && again.blob == Data([1, 2, 3]))
    #expect(again.names == ["a", "b"] && again.scores == ["kim": 3] && again.nested == [["x": [1.5]]])
  }

  @Test func valuesWrittenByAnotherUserDefaultsUserAreRead() throws {
    let suite = TemporarySuite()
    defer { suite.remove() }
    try Injection.injectDefaults(in: ForeignSettings.self, store: { _ in suite.store })
    suite.defaults.set(42, forKey: "count")
    suite.defaults.set(["x", "y"], forKey: "tags")
    suite.defaults.set(["cpu": 0.5], forKey: "limits")
    let settings = ForeignSettings()
    #expect(settings.count == 42)
    #expect(settings.tags == ["x", "y"])
    #expect(settings.limits == ["cpu": 0.5])
  }
}
