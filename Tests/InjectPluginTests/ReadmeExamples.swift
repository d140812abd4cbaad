import Foundation
import InjectPlugin
import InjectionKernel
import Testing

// The README's examples, compiled and run. Types are private to this file.

private final class Settings: Sendable {
  let theme: String
  init(theme: String) { self.theme = theme }
}

private protocol Analytics: AnyObject, Sendable {}
private final class ConsoleAnalytics: Analytics {}
private final class Logger: Sendable {}

private final class ProfileViewModel {
  @Inject var settings: Settings
  @Inject var analytics: any Analytics
  @Inject var logger: Logger?
}

private final class Downloader {
  @Inject var retries: Int
  @Inject var timeout: Int
  @Inject var mirrorHosts: [String]
}

/// Not `Sendable`, but synchronized inside: the caller vouches for it.
private final class LegacyCache {
  private let lock = NSLock()
  private var entries: [String: String] = [:]
  subscript(key: String) -> String? {
    get { lock.withLock { entries[key] } }
    set { lock.withLock { entries[key] = newValue } }
  }
}

private struct Owner: Sendable {
  let name: String
}

private final class Account: @unchecked Sendable {  // mutable state: marked properties only (atomic)
  @Inject var limit: Int
  @Inject var owner: Owner?
  let id: Int
  init(id: Int) { self.id = id }
}

private final class CacheUser {
  @Inject var cache: LegacyCache
}

private class Service {
  @Inject var endpoint: String
}
private final class AuditService: Service {}

@MainActor private final class AppConfig {
  @Inject static var settings: Settings
}

@Suite(.serialized)  // the examples select by type alone, like an app would; they run one after another
struct ReadmeExamples {
  @Test func overview() throws {
    let early = ProfileViewModel()
    try Injection.inject(Settings.self).value(Settings(theme: "dark"))
    try Injection.inject((any Analytics).self).shared { ConsoleAnalytics() }
    #expect(early.settings.theme == "dark")
    #expect(ProfileViewModel().analytics === early.analytics)
    #expect(early.logger == nil)
  }

  @Test func selectingGetterRejectingAndBatches() throws {
    try Injection.inject(Int.self).declared(in: Downloader.self).named("retries").value(3)
    try Injection.inject([String].self).filter { $0.name.hasSuffix("Hosts") }.value(["example.com"])
    let downloader = Downloader()
    #expect(downloader.retries == 3)
    #expect(downloader.mirrorHosts == ["example.com"])

    downloader.timeout = 10
    try Injection.inject(Int.self).declared(in: Downloader.self).named("timeout").getter { _, storage, original in
      original.get(storage) * 2
    }
    #expect(downloader.timeout == 20)

    try Injection.inject(Int.self).declared(in: Downloader.self).named("retries").reject()
    #expect(!Injection.isInjected(Downloader.self, "retries"))

    let lets = InjectionRules()
    try lets.inject(Settings.self).value(Settings(theme: "light"))
    try lets.inject(Int.self).declared(in: Downloader.self).named("retries").value(5)
    try Injection.commit(lets)
    #expect(downloader.retries == 5)
    #expect(ProfileViewModel().settings.theme == "light")
  }

  @Test func rulesForLaterClasses() throws {
    try Injection.inject(Int.self).named("retries").mayMatchLater().value(3)
    #expect(Downloader().retries == 3)
    try Injection.inject(Int.self).declared(in: Downloader.self).named("retries").reject()
  }

  @Test func sharingAcrossThreads() throws {
    try Injection.inject(LegacyCache.self).value(UncheckedSendable(LegacyCache()))
    try Injection.inject(LegacyCache.self).shared { UncheckedSendable(LegacyCache()) }
    CacheUser().cache["greeting"] = "hello"
    #expect(CacheUser().cache["greeting"] == "hello")  // one cache, shared by every instance

    try Injection.inject(Int.self).declared(in: Account.self).value(10)
    let account = Account(id: 1)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      account.owner = Owner(name: "ann")
      done.signal()
    }
    thread.start()
    done.wait()
    #expect(account.owner?.name == "ann")
    #expect(account.limit == 10)
  }

  @Test func subclasses() throws {
    try Injection.inject(String.self).declared(in: Service.self).value("https://api")
    try Injection.inject(String.self).declared(in: AuditService.self).value("https://audit")
    #expect(Service().endpoint == "https://api")
    #expect(AuditService().endpoint == "https://audit")

    try Injection.inject(String.self).declared(in: AuditService.self).reject()
    #expect(AuditService().endpoint == "https://api")
  }

  @MainActor @Test func staticProperty() throws {
    try Injection.inject(Settings.self).value(Settings(theme: "static"))
    #expect(AppConfig.settings.theme == "static")
  }

  /// `rejectAllInjections()` is shown in the README; committing it here would clear other suites'
  /// injections while they run, so the example is compiled but its effect checked on a plan.
  @Test func rejectAllIsCompiled() throws {
    let compiled: () throws -> InjectionPlan = { try Injection.rejectAllInjections() }
    _ = compiled
    let rules = InjectionRules()
    rules.rejectAll()
    #expect(try Injection.plan(rules).entries.allSatisfy { $0.injection == nil })
  }
}

// The container section's types.

private protocol Engine: Sendable {}
private struct HybridEngine: Engine, Constructible {}
private struct ElectricEngine: Engine, Constructible {}

private final class Database: Sendable {
  let path: String
  init(path: String) { self.path = path }
  func close() {}
}

private final class Garage {
  @Inject var database: Database
}

private final class Clock: Sendable {}
private final class Greeter: Sendable {
  let clock: Clock
  let name: String
  init(clock: Clock, name: String) {
    self.clock = clock
    self.name = name
  }
}

private protocol Codec: Sendable { var name: String { get } }
private struct AudioCodec: Codec, Constructible { let name = "audio" }
private struct VideoCodec: Codec, Constructible { let name = "video" }

private final class Wheel: Constructible, Sendable {}
private final class Car: Constructible, InjectionCompletion, @unchecked Sendable {  // marked properties only
  @Inject var wheel: Wheel
  private(set) var isReady = false  // set once, before the container hands the car out
  init() {}
  func injectionDidComplete() { isReady = true }
}

private final class GameModule: InjectionModule {
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(Database.self).singleton { _ in Database(path: "game.db") }
  }
  func unload() { (try? Injection.resolve(Database.self))?.close() }  // its binding still applies here
}

@Suite struct ReadmeContainerExamples {
  /// The container examples bind types alone, like an app would: inside an isolated scope, so other
  /// suites running in parallel never see them.
  @Test func container() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject((any Engine).self).to(HybridEngine.self)
      try Injection.inject(Database.self).singleton { _ in Database(path: "main.db") }
      try Injection.inject(Database.self, named: "backup").singleton { _ in Database(path: "backup.db") }
      #expect(try Injection.resolve((any Engine).self) is HybridEngine)
      #expect(try Injection.resolve(Database.self, named: "backup").path == "backup.db")
      #expect(try Injection.resolve(Database.self) === Garage().database)

      try Injection.inject(Clock.self).value(Clock())
      try Injection.inject(Greeter.self).provider { resolver in
        Greeter(clock: try resolver.resolve(Clock.self), name: try resolver.argument(0, as: String.self))
      }
      let greeter = try Injection.resolve(Greeter.self, arguments: "Ann")
      #expect(greeter.name == "Ann")

      try Injection.inject((any Codec).self, named: "audio").to(AudioCodec.self)
      try Injection.inject((any Codec).self, named: "video").to(VideoCodec.self)
      #expect(try Injection.resolveAll((any Codec).self).map(\.name) == ["audio", "video"])

      try Injection.constructUnboundTypes()
      let car = try Injection.resolve(Car.self)  // a new Car, its wheel built on its first read
      #expect(car.isReady)
      _ = car.wheel

      try Injection.addModule(GameModule())
      #expect(try Injection.resolve(Database.self).path == "game.db")
      try Injection.removeModules(ofType: GameModule.self)
      #expect(try Injection.resolve(Database.self).path == "main.db")

      let child = try Injection.childInjector { lets in
        try lets.inject((any Engine).self).to(ElectricEngine.self)
      }
      #expect(try child.resolve((any Engine).self) is ElectricEngine)
      #expect(try child.resolve(Database.self).path == "main.db")
      #expect(try Injection.resolve((any Engine).self) is HybridEngine)
    }
  }
}
