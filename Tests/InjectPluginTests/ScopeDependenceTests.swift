import Foundation
import InjectPlugin
import TestSupport
import Testing

// A value made inside an override scope is the scope's own when what made it read the scope's overrides:
// what its factory read, on its thread — not what other tasks of the scope read meanwhile (found by review
// H66: a sibling `async let` reading an override made the app's singleton, built at the same time, the
// test's own, and the app built it again after the test).

private struct SiblingClock: Sendable { let now: String }
private final class SiblingReport: @unchecked Sendable {  // marked properties only
  @Inject var clock: SiblingClock
}
private final class SiblingConnection: Sendable {
  init(builds: Counter) {
    builds.increment()
    usleep(50_000)  // opening takes a while: the sibling task reads the scope's override meanwhile
  }
}
private final class SiblingRepository: @unchecked Sendable {  // marked properties only
  @Inject var connection: SiblingConnection
}

@Test func anAppSingletonBuiltWhileASiblingTaskReadsAnOverrideStaysTheApps() async throws {
  let builds = Counter()
  try Injection.inject(SiblingClock.self).value(SiblingClock(now: "app"))
  try Injection.inject(SiblingConnection.self).singleton { _ in SiblingConnection(builds: builds) }
  let inScope = try await Injection.withOverrides({ lets in
    try lets.inject(SiblingClock.self).value(SiblingClock(now: "test"))
  }) {
    async let stamps = (0..<100).map { _ in
      usleep(500)
      return SiblingReport().clock.now
    }
    let connection = SiblingRepository().connection  // its factory reads no override
    #expect(await stamps.allSatisfy { $0 == "test" })
    return connection
  }
  #expect(SiblingRepository().connection === inScope)
  #expect(builds.count == 1)
}

private struct TaskClock: Sendable { let now: String }
private final class TaskStampedService: Sendable {
  let stamp: String
  init(stamp: String) { self.stamp = stamp }
}
private final class TaskStampedReport: @unchecked Sendable {  // marked properties only
  @Inject var service: TaskStampedService
}

/// Runs `body` in a task (which inherits the calling task's task-locals) and waits for it, blocking.
private func waitingForATask<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
  let result = LockedState<T?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task {
    result.withLock { $0 = body() }
    done.signal()
  }
  done.wait()
  return result.withLock { $0! }
}

@Test func aSingletonWhoseFactoryReadsAnOverrideInATaskItWaitsForStaysInTheScope() throws {
  // Counting per thread missed the task's read: the test's override reached the app (review H69).
  try Injection.inject(TaskClock.self).value(TaskClock(now: "app"))
  try Injection.inject(TaskStampedService.self).singleton { _ in
    TaskStampedService(stamp: waitingForATask { (try? Injection.resolve(TaskClock.self).now) ?? "none" })
  }
  let inScope = try Injection.withOverrides({ lets in try lets.inject(TaskClock.self).value(TaskClock(now: "test")) }) {
    try Injection.resolve(TaskStampedService.self).stamp
  }
  #expect(inScope == "test")
  #expect(try Injection.resolve(TaskStampedService.self).stamp == "app")
  #expect(TaskStampedReport().service.stamp == "app")
}
