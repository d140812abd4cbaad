import DefaultsPlugin
import Foundation
import InjectionTesting
import Testing

private final class ScopedSettings: @unchecked Sendable {  // only its @Defaults property is shared
  @Defaults("scoped.value") var value = 0
}

private final class ForeignStoreSettings {
  @Defaults var note: String?
}

private final class TraitSettings {
  @Defaults("trait.theme") var theme = "light"
}

/// The suite `TraitSettings`' rule names: only `theTestingTraitKeepsATestOffTheRulesStore` uses it.
private let traitSuite = TemporarySuite("trait")

@Suite struct OverrideTests {
  /// InjectionTesting's trait: the test's rule names a real suite, the override store wins.
  @Test(
    .injecting { lets in
      lets.injectDefaults(in: TraitSettings.self, store: { _ in traitSuite.store })
      lets.useDefaultsStore(InMemoryDefaultsStore())
    })
  func theTestingTraitKeepsATestOffTheRulesStore() {
    defer { traitSuite.remove() }
    let settings = TraitSettings()
    settings.theme = "dark"
    #expect(settings.theme == "dark")
    #expect(traitSuite.defaults.object(forKey: "trait.theme") == nil)
  }

  /// Many tasks, each in its own override scope with its own in-memory store, use one class at once:
  /// each sees only its own store; nothing reaches the rule's store.
  @Test func eachScopeKeepsItsOwnStoreWhileOthersRunInParallel() async throws {
    let real = InMemoryDefaultsStore(name: "the rule's store")
    try Injection.injectDefaults(in: ScopedSettings.self, store: { _ in real })
    let shared = ScopedSettings()
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for index in 1...16 {
        group.addTask {
          let own = InMemoryDefaultsStore()
          return try await Injection.withOverrides({ lets in lets.useDefaultsStore(own) }) {
            #expect(shared.value == 0)
            for step in 0..<50 {
              shared.value = index * 100 + step
              await Task.yield()
              guard shared.value == index * 100 + step else { return false }
            }
            return own.object(forKey: "scoped.value") as? Int == index * 100 + 49
          }
        }
      }
      for try await sawOnlyItsOwn in group { #expect(sawOnlyItsOwn) }
    }
    #expect(real.keys.isEmpty)
    #expect(shared.value == 0)
  }

  /// The override wins over a rule's store closure, so a test never writes the settings a rule names.
  @Test func theOverrideWinsOverTheRulesStore() throws {
    let suite = TemporarySuite()
    defer { suite.remove() }
    let memory = InMemoryDefaultsStore()
    try Injection.withOverrides({ lets in
      lets.injectDefaults(in: ForeignStoreSettings.self, store: { _ in suite.store })
      lets.useDefaultsStore(memory)
    }) {
      ForeignStoreSettings().note = "from a test"
    }
    #expect(memory.object(forKey: "note") as? String == "from a test")
    #expect(suite.defaults.object(forKey: "note") == nil)
    #expect(!Injection.isInjected(ForeignStoreSettings.self, "note"))  // the scope's injection ended too
  }
}
