import DefaultsPlugin
import Foundation
import Testing

private final class ChosenKeySettings {
  @Defaults var volume = 5
}

private final class EmptyDeclaredKeySettings {
  @Defaults("") var volume = 5
}

private final class EmptyArchivedKeySettings {
  @ArchivedDefaults("") var frame: WindowFrame?
}

/// No store keeps a value under `""`: an empty key is a mistake where it is written.
@Suite struct EmptyKeyTests {
  @Test func anEmptyKeyChosenByTheRuleIsRefusedAtTheCommit() throws {
    let store = InMemoryDefaultsStore()
    #expect {
      try Injection.injectDefaults(in: ChosenKeySettings.self, key: { _ in "" }, store: { _ in store })
    } throws: { error in
      error as? InjectionError
        == .rejected(
          property: "DefaultsPluginTests.ChosenKeySettings.volume: Swift.Int",
          reason: "the rule's key closure chose an empty key, under which no store keeps a value")
    }
    let property = try Injection.property(named: "volume", of: ChosenKeySettings.self)
    #expect(!Injection.isInjected(property))  // nothing applied
  }

  @Test func anEmptyKeyInADeclarationStopsTheProgramNamingIt() async {
    let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = EmptyDeclaredKeySettings()
    }
    let message = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        #"DefaultsPluginTests/EmptyKeyTests.swift:10: Fatal error: @Defaults(""): a key cannot be empty"#))
  }

  @Test func anEmptyKeyInAnArchivedDeclarationStopsTheProgramToo() async {
    let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = EmptyArchivedKeySettings()
    }
    let message = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        #"DefaultsPluginTests/EmptyKeyTests.swift:14: Fatal error: @ArchivedDefaults(""): a key cannot be empty"#))
  }
}

private final class KeyClosureAsks {
  @Defaults var nickname: String?
}

/// A key closure runs while the kernel commits: one that asks the kernel something needing the commit
/// lock stops naming it (review H82: the stop spoke of builders and onCommit actions).
@Test func aKeyClosureThatCallsTheKernelBackStopsNamingIt() async {
  let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
    try Injection.injectDefaults(
      in: KeyClosureAsks.self,
      key: { property in
        _ = Injection.isInjected(property)
        return "asks.\(property.name)"
      }, store: { _ in InMemoryDefaultsStore() })
  }
  let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
  #expect(message.contains("The key closure given to injectDefaults(key:) called the library back while the kernel"))
}
