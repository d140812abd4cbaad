import Foundation
import InjectPlugin
import InjectionKernel
import InjectionTesting
import Testing

// The InjectionTesting README's examples and the root README's, compiled and run. Types are private
// to this file; the process-wide injections select them by type alone, as an app would.

private final class Clock: Sendable {
  let now: String
  init(now: String) { self.now = now }
}

private final class Report {
  @Inject var clock: Clock
  var stamp: String { "report of \(clock.now)" }
}

private final class Settings: Sendable {
  let theme: String
  init(theme: String) { self.theme = theme }
}

private protocol Analytics: AnyObject, Sendable {}
private final class Countly: Analytics {}
private final class Logger: Sendable {}

private final class ProfileViewModel {
  @Inject var settings: Settings
  @Inject var analytics: any Analytics
  @Inject var logger: Logger?
}

/// The process's value of `Clock`, injected once before any example reads it.
private let processClock: Void = {
  _ = try? Injection.inject(Clock.self).value(Clock(now: "now"))
}()

@Test(.injecting { lets in try lets.inject(Clock.self).value(Clock(now: "2024-01-01")) })
func stampsReports() {
  #expect(Report().stamp == "report of 2024-01-01")
}

@Suite(.injecting { lets in try lets.inject(Clock.self).value(Clock(now: "suite")) })
struct ReportTests {
  @Test func usesTheSuitesClock() {
    #expect(Report().stamp == "report of suite")
  }

  @Test(.injecting { lets in try lets.inject(Clock.self).value(Clock(now: "mine")) })
  func aTestsOwnOverrideWins() {
    #expect(Report().stamp == "report of mine")
  }
}

@Suite(.isolatedInjections)
struct SetupTests {
  @Test func rejectingEverythingStaysInThisTest() throws {
    try Injection.inject(Clock.self).value(Clock(now: "local"))
    try Injection.rejectAllInjections()
    #expect(!Injection.isInjected(Report.self, "clock"))
  }
}

@Suite(.serialized)  // the process-wide examples (snapshot, the root README) run one after another
struct ReadmeExamples {
  @Test func inCode() throws {
    processClock
    let report = Report()  // created before the scope
    try Injection.withOverrides({ lets in try lets.inject(Clock.self).value(Clock(now: "then")) }) {
      #expect(report.stamp == "report of then")
    }
    #expect(report.stamp == "report of now")
  }

  // Restoring puts back the whole process's state, which would undo what tests running beside it
  // commit: run in a child process of its own.
  @Test func snapshotAndRestore() async {
    await #expect(processExitsWith: .success) {
      processClock
      let saved = Injection.snapshot()
      try Injection.inject(Clock.self).value(Clock(now: "temporary"))
      Injection.restore(saved)
      #expect(Report().stamp == "report of now")
      precondition(Report().stamp == "report of now")
    }
  }

  @Test func rootOverview() throws {
    try Injection.inject(Settings.self).value(Settings(theme: "dark"))
    try Injection.inject((any Analytics).self).shared { Countly() }

    print(ProfileViewModel().settings.theme)  // "dark"
    #expect(ProfileViewModel().settings.theme == "dark")
    #expect(ProfileViewModel().logger == nil)
  }

  @Test func rootTesting() throws {
    processClock
    try Injection.withOverrides({ lets in
      try lets.inject(Clock.self).value(Clock(now: "2024-01-01"))
    }) {
      #expect(Report().stamp == "report of 2024-01-01")
    }
  }
}

@Test(.injecting { lets in try lets.inject(Clock.self).value(Clock(now: "on the thread")) })
func aThreadRunsInTheContextItWasGiven() {
  let seen = LockedState<[String]>([])
  let done = DispatchSemaphore(value: 0)
  @Sendable func deliver(_ stamp: String) {
    seen.withLock { $0.append(stamp) }
    done.signal()
  }
  let context = InjectionContext.current  // inside the scope
  Thread { context.run { deliver(Report().stamp) } }.start()  // the scope's clock

  Thread {
    _ = processClock  // committed from a thread in no scope: the process's, as the other examples expect
    deliver(Report().stamp)  // without the context: the process's clock
  }.start()
  done.wait()
  done.wait()
  #expect(Set(seen.withLock { $0 }) == ["report of on the thread", "report of now"])
  #expect(context.isActive)
}
