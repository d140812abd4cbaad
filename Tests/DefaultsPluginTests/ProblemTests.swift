import DefaultsPlugin
import Foundation
import ImperativePlugin
import Testing

private final class BadDataSettings {
  @Defaults("audio.volume") var volume = 0.5
  @ArchivedDefaults var frame = WindowFrame(x: 0, y: 0, width: 10, height: 10)
}

/// A value whose encoding fails when asked to (as a custom `encode(to:)` may).
private struct Refusing: Codable, Equatable {
  var refuse: Bool
  func encode(to encoder: any Encoder) throws {
    if refuse { throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "refused")) }
    var container = encoder.singleValueContainer()
    try container.encode(refuse)
  }
  init(refuse: Bool) { self.refuse = refuse }
  init(from decoder: any Decoder) throws { refuse = try decoder.singleValueContainer().decode(Bool.self) }
}

private final class ScopedProblemSettings {
  @Defaults var level = 0
}

private final class InheritedProblemSettings {
  @Defaults var level = 0
}

private final class NarrowNumberSettings {
  @Defaults var small: Int8 = 7
}

private final class UnencodableSettings {
  @ArchivedDefaults var value = Refusing(refuse: false)
}

@Suite struct ProblemTests {
  @Test func badStoredDataReadsAsTheDefaultIsReportedAndStaysUntilWritten() throws {
    let store = InMemoryDefaultsStore([
      "audio.volume": "loud",
      "frame": Data(#"{"x":1}"#.utf8),
    ])
    let problems = LockedState<[DefaultsProblem]>([])
    try Injection.imperative { lets in
      lets.skipChecks()
      lets.injectDefaults(in: BadDataSettings.self, store: { _ in store })
      lets.onDefaultsProblem { problem in
        if problem.property.contains("BadDataSettings") { problems.withLock { $0.append(problem) } }
      }
    }
    defer { try? Injection.onDefaultsProblem(nil) }
    let settings = BadDataSettings()
    #expect(settings.volume == 0.5)
    #expect(settings.volume == 0.5)  // reported once, not at every read
    #expect(settings.frame == WindowFrame(x: 0, y: 0, width: 10, height: 10))
    #expect(store.object(forKey: "audio.volume") as? String == "loud")  // not overwritten by reads
    #expect(
      problems.value == [
        DefaultsProblem(
          property: "DefaultsPluginTests.BadDataSettings.volume: Swift.Double", key: "audio.volume",
          store: "InMemoryDefaultsStore", kind: .wrongType(found: "String")),
        DefaultsProblem(
          property: "DefaultsPluginTests.BadDataSettings.frame: DefaultsPluginTests.WindowFrame", key: "frame",
          store: "InMemoryDefaultsStore",
          kind: .undecodable(
            reason: "No value associated with key CodingKeys(stringValue: \"y\", intValue: nil) (\"y\").")),
      ])
    let report = Injection.report().split(separator: "\n").first { $0.contains("BadDataSettings.volume") }.map(
      String.init)
    #expect(
      report
        == "DefaultsPluginTests.BadDataSettings.volume: Swift.Double <- defaults (Defaults) — key \"audio.volume\" in "
        + "InMemoryDefaultsStore; InMemoryDefaultsStore holds a value of type String under \"audio.volume\" that the "
        + "property's type cannot hold (another type, or a number out of its range); reads return the initial value "
        + "until the property is written")

    settings.volume = 0.9  // the next write replaces the bad data
    #expect(settings.volume == 0.9)
    #expect(
      Injection.report().split(separator: "\n").first { $0.contains("BadDataSettings.volume") }?.hasSuffix(
        "key \"audio.volume\" in InMemoryDefaultsStore") == true)
  }

  @Test func aValueThatCannotBeArchivedIsReportedAndLeavesTheKeyAlone() throws {
    let store = InMemoryDefaultsStore()
    let problems = LockedState<[DefaultsProblem]>([])
    try Injection.withOverrides({ lets in
      lets.injectDefaults(in: UnencodableSettings.self, store: { _ in store })
      lets.onDefaultsProblem { problem in problems.withLock { $0.append(problem) } }
    }) {
      let settings = UnencodableSettings()
      settings.value = Refusing(refuse: false)
      #expect(store.object(forKey: "value") as? Data == Data("false".utf8))
      settings.value = Refusing(refuse: true)
      #expect(store.object(forKey: "value") as? Data == Data("false".utf8))  // left as it was
      #expect(problems.value.map(\.kind) == [.unencodable(reason: "refused")])
      #expect(
        problems.value.first?.description
          == "DefaultsPluginTests.UnencodableSettings.value: DefaultsPluginTests.Refusing: a written value could "
          + "not be archived (refused); \"value\" in InMemoryDefaultsStore was left as it was")
    }
  }

  @Test func aNumberOutOfThePropertysRangeReadsAsTheInitialValueAndIsReported() throws {
    let store = InMemoryDefaultsStore(["small": 300])
    let problems = LockedState<[DefaultsProblem]>([])
    try Injection.withOverrides({ lets in
      lets.injectDefaults(in: NarrowNumberSettings.self, store: { _ in store })
      lets.onDefaultsProblem { problem in problems.withLock { $0.append(problem) } }
    }) {
      #expect(NarrowNumberSettings().small == 7)  // 300 does not fit an Int8: not truncated, not trapped
    }
    #expect(problems.value.map(\.kind) == [.wrongType(found: "Int")])
    #expect(
      problems.value.first?.reason
        == "InMemoryDefaultsStore holds a value of type Int under \"small\" that the property's type cannot hold "
        + "(another type, or a number out of its range); reads return the initial value until the property is written")
  }

  @Test func eachOverrideScopeHearsAboutItsOwnStoresProblems() throws {
    try Injection.withOverrides({ lets in lets.injectDefaults(in: ScopedProblemSettings.self) }) {
      var heard: [Int] = []
      for _ in 0..<3 {
        let counter = LockedState(0)
        try Injection.withOverrides({ lets in
          lets.useDefaultsStore(InMemoryDefaultsStore(["level": "bad"]))
          lets.onDefaultsProblem { _ in counter.withLock { $0 += 1 } }
        }) {
          #expect(ScopedProblemSettings().level == 0)
          #expect(ScopedProblemSettings().level == 0)  // once per scope, not at every read
          let line = Injection.report().split(separator: "\n").first { $0.contains("ScopedProblemSettings.level") }
          #expect(line?.contains("InMemoryDefaultsStore holds a value of type String under \"level\"") == true)
        }
        heard.append(counter.value)
      }
      #expect(heard == [1, 1, 1])  // before, only the first scope heard: the last problem was the process's
      // A scope with a clean store lists no problem, whatever the other scopes met.
      try Injection.withOverrides({ lets in lets.useDefaultsStore(InMemoryDefaultsStore()) }) {
        #expect(ScopedProblemSettings().level == 0)
        let line = Injection.report().split(separator: "\n").first { $0.contains("ScopedProblemSettings.level") }
        #expect(line?.hasSuffix("key \"level\" in InMemoryDefaultsStore") == true)
      }
    }
  }

  @Test func aScopeHearsAboutItsOwnStoresProblemAfterTheProcessMetTheSameOne() throws {
    // The process's store holds bad data and the problem is reported there; a scope's own store holding
    // the same bad data is another store: its handler hears about it.
    try Injection.withOverrides({ lets in
      lets.injectDefaults(in: InheritedProblemSettings.self, store: { _ in InMemoryDefaultsStore(["level": "bad"]) })
    }) {
      #expect(InheritedProblemSettings().level == 0)  // reported in this (outer) scope
      let heard = LockedState(0)
      try Injection.withOverrides({ lets in
        lets.useDefaultsStore(InMemoryDefaultsStore(["level": "bad"]))
        lets.onDefaultsProblem { _ in heard.withLock { $0 += 1 } }
      }) {
        #expect(InheritedProblemSettings().level == 0)
        #expect(InheritedProblemSettings().level == 0)
      }
      #expect(heard.value == 1)
    }
  }
}
