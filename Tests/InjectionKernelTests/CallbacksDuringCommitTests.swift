import Foundation
import InjectionKernel
import Testing

// Code of the user's that the kernel runs at a moment when calling it back cannot work — a commit inside
// `withConsistentReads`, a selection's `filter` that commits or asks the kernel something while the kernel
// commits — is told so at that call, naming what it was (found by review H82: the first ran its body
// again for ever, the second stopped with a message about builders and onCommit actions).

private final class ConsistentCommitHost: @unchecked Sendable {  // marked properties only
  @Tracked var value: Int
}

@Test func aCommitInsideWithConsistentReadsThrowsInsteadOfRunningTheBodyForever() async {
  // In a child process whose alarm ends a hang as a failure: before, the body ran again for ever.
  await #expect(processExitsWith: .success) {
    alarm(20)
    var runs = 0
    var thrown: (any Error)?
    Injection.withConsistentReads {
      runs += 1
      let rules = InjectionRules()
      TrackedPlugin.inject(runs, into: ConsistentCommitHost.self, rules: rules)
      do { try Injection.commit(rules) } catch { thrown = error }
    }
    precondition(runs == 1, "the body ran \(runs) times")
    guard case .commitInsideConsistentReads? = thrown as? InjectionError else {
      preconditionFailure("thrown: \(String(describing: thrown))")
    }
    // Outside it, the same commit applies.
    let rules = InjectionRules()
    TrackedPlugin.inject(7, into: ConsistentCommitHost.self, rules: rules)
    try Injection.commit(rules)
    precondition(ConsistentCommitHost().value == 7)
  }
}

private final class GetterCommitHost: @unchecked Sendable {  // marked properties only
  @Tracked var value: Int
}
private final class GetterCommitTarget: @unchecked Sendable {  // marked properties only
  @Tracked var value: Int
}

@Test func aGetterThatCommitsReadInsideWithConsistentReadsGetsTheError() async {
  await #expect(processExitsWith: .success) {
    alarm(20)
    let thrown = LockedState<String?>(nil)
    let rules = InjectionRules()
    rules.add(
      PropertyInjection<Int>(
        read: .getter { _, _, _ in
          let inner = InjectionRules()
          TrackedPlugin.inject(1, into: GetterCommitTarget.self, rules: inner)
          do { try Injection.commit(inner) } catch { thrown.withLock { $0 = "\(error)" } }
          return 3
        }, summary: "commits"),
      to: PropertySelection(plugin: TrackedPlugin.id).ofType(Int.self).declared(in: GetterCommitHost.self))
    try Injection.commit(rules)
    var runs = 0
    let value = Injection.withConsistentReads {
      runs += 1
      return GetterCommitHost().value
    }
    precondition(value == 3 && runs == 1, "value \(value), \(runs) runs")
    let message = thrown.withLock { $0 } ?? ""
    precondition(message.contains("inside Injection.withConsistentReads"), message)
  }
}

private final class FilterCommitHost: @unchecked Sendable {  // marked properties only
  @Tracked var value: Int
}
private final class FilterCommitOther: @unchecked Sendable {  // marked properties only
  @Tracked var value: Int
}

@Test func aFilterThatCommitsGetsATypedErrorNamingItsRule() throws {
  let thrown = LockedState<(any Error)?>(nil)
  let rules = InjectionRules()
  rules.add(
    PropertyInjection<Int>(read: .value(5), summary: "five"),
    to: PropertySelection(plugin: TrackedPlugin.id).ofType(Int.self).declared(in: FilterCommitHost.self).filter { _ in
      let inner = InjectionRules()
      TrackedPlugin.inject(1, into: FilterCommitOther.self, rules: inner)
      do { try Injection.commit(inner) } catch { thrown.withLock { $0 = error } }
      return true
    })
  try Injection.commit(rules)  // before: the process stopped, naming builders and onCommit actions
  #expect(FilterCommitHost().value == 5)
  let error = try #require(thrown.withLock { $0 } as? InjectionError)
  guard case .commitDuringCommit(let running) = error else {
    Issue.record("thrown: \(error)")
    return
  }
  #expect(
    running == "the filter of the rule (Tracked: type Swift.Int, in InjectionKernelTests.FilterCommitHost, filtered)")
  #expect("\(error)".contains("it would wait for the commit in progress on its own thread forever"))
}

private final class FilterAsksHost: @unchecked Sendable {  // marked properties only
  @Tracked var value: Int
}

@Test func aFilterThatAsksTheKernelWhileItCommitsStopsNamingTheFilter() async {
  let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
    let rules = InjectionRules()
    rules.add(
      PropertyInjection<Int>(read: .value(5), summary: "five"),
      to: PropertySelection(plugin: TrackedPlugin.id).ofType(Int.self).declared(in: FilterAsksHost.self).filter {
        Injection.isInjected($0)  // plans under the lock the commit holds
      })
    try Injection.commit(rules)
  }
  let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
  // Before: "The kernel's commit lock was asked for by the thread that holds it: … (a builder given to …)".
  #expect(
    message.contains(
      "The filter of the rule (Tracked: type Swift.Int, in InjectionKernelTests.FilterAsksHost, filtered) called "
        + "the library back while the kernel was committing"))
  #expect(message.contains("Decide from the PropertyDescriptor it is given"))
}

@Test func aRestoreInsideWithConsistentReadsStopsInsteadOfRunningTheBodyForever() async {
  let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
    alarm(20)
    let saved = Injection.snapshot()
    Injection.withConsistentReads { Injection.restore(saved) }  // before: the body ran for ever (review H84)
  }
  let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
  #expect(message.hasPrefix("Injection.restore(_:) was called inside Injection.withConsistentReads"))
}

private final class CommittedElsewhereHost: @unchecked Sendable {  // marked properties only
  @Tracked var value: Int?
}

@Test func aBodyThatACommitMeetsEveryTimeStopsSayingWhy() async {
  // The body hands a commit to another thread and waits for it, so one lands during every run (before: it
  // ran for ever, review H84).
  let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
    alarm(60)
    let asked = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    Thread {
      var round = 0
      while true {
        asked.wait()
        round += 1
        let rules = InjectionRules()
        TrackedPlugin.inject(Int?(round), into: CommittedElsewhereHost.self, rules: rules)
        _ = try? Injection.commit(rules)
        done.signal()
      }
    }.start()
    Injection.withConsistentReads {
      _ = CommittedElsewhereHost().value
      asked.signal()
      done.wait()
    }
  }
  let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
  #expect(message.contains("ran its body 10000 times and a commit landed during every run"))
}

private final class InnerCodeHost: @unchecked Sendable {  // marked properties only
  @Tracked var value: Int
}

@Test func appCodeNamedInsideAFilterIsTheOneTheStopNames() async {
  let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
    let rules = InjectionRules()
    rules.add(
      PropertyInjection<Int>(read: .value(5), summary: "five"),
      to: PropertySelection(plugin: TrackedPlugin.id).ofType(Int.self).declared(in: InnerCodeHost.self).filter {
        property in Injection.runningAppCode("the inner code") { Injection.isInjected(property) }
      })
    try Injection.commit(rules)
  }
  let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
  #expect(message.hasPrefix("The inner code called the library back"))  // before: the filter (review H84)
}
