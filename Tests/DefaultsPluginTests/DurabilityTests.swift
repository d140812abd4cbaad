import DefaultsPlugin
import Foundation
import Testing

private final class DurableSettings {
  @Defaults var lastOpened: String?
  @Defaults("launches") var launchCount = 0
  @ArchivedDefaults var frame: WindowFrame?
}

@Suite struct DurabilityTests {
  /// A process writes through `@Defaults` properties (not synchronized, nothing called at the end) and
  /// exits normally; the file holds the values, and a second process reads them through its properties.
  @Test func valuesSurviveTheProcessAndASecondProcessReadsThem() async throws {
    let suite = TemporarySuite()
    defer { suite.remove() }
    let path = suite.path
    await #expect(processExitsWith: .success) { [path = path as String] in
      let store = UserDefaultsStore(suiteName: path)!
      try Injection.injectDefaults(in: DurableSettings.self, store: { _ in store })
      let settings = DurableSettings()
      settings.lastOpened = "notes.txt"
      settings.launchCount += 1
      settings.frame = WindowFrame(x: 4, y: 3, width: 2, height: 1)
      exit(0)  // a normal exit: no synchronize() by the caller
    }
    let file = suite.fileContents()
    #expect(file["lastOpened"] as? String == "notes.txt")
    #expect(file["launches"] as? Int == 1)

    await #expect(processExitsWith: .exitCode(0)) { [path = path as String] in
      let store = UserDefaultsStore(suiteName: path)!
      try Injection.injectDefaults(in: DurableSettings.self, store: { _ in store })
      let settings = DurableSettings()
      let ok =
        settings.lastOpened == "notes.txt" && settings.launchCount == 1
        && settings.frame == WindowFrame(x: 4, y: 3, width: 2, height: 1)
      exit(ok ? 0 : 3)
    }
  }
}
