import Foundation
import InjectionKernel
import TestSupport
import Testing

// `Injection.withConsistentReads` promises values from one configuration; a plugin's state that its
// actions change when a batch commits (`onCommit`) is part of it (found by review H68: the version moved
// before those actions, and reads mixed two registries).

/// A registry a getter reads, replaced by each batch's action.
private let consistentRegistry = ScopedState<[String: Int]>(["left": 0, "right": 0])

private final class ConsistentPair: @unchecked Sendable {  // marked properties only
  @Tracked var left: Int
  @Tracked var right: Int
}

@Test func readsInsideWithConsistentReadsSeeOnePluginStateAcrossCommitActions() throws {
  let rules = InjectionRules()
  for name in ["left", "right"] {
    rules.add(
      PropertyInjection<Int>(read: .getter { _, _, _ in consistentRegistry.value[name] ?? -1 }, summary: name),
      to: PropertySelection(plugin: TrackedPlugin.id).ofType(Int.self).declared(in: ConsistentPair.self).named(name))
  }
  try Injection.commit(rules)
  let pair = ConsistentPair()
  let torn = Counter()
  whileWriting(readers: 2) {
    for round in 1...2_000 {
      let batch = InjectionRules()
      batch.onCommit {
        consistentRegistry.replace(with: ["left": round, "right": round - 1])
        usleep(20)  // a plugin's action that takes a moment
        consistentRegistry.replace(with: ["left": round, "right": round])
      }
      _ = try? Injection.commit(batch)
    }
  } read: {
    let (left, right) = Injection.withConsistentReads { (pair.left, pair.right) }
    if left != right { torn.increment() }
  }
  #expect(torn.count == 0)
}

private final class ReadInCommitAction: @unchecked Sendable {  // marked properties only
  @Tracked var value: Int
}

@Test func withConsistentReadsInsideACommitActionReadsTheCommitsConfiguration() async {
  // Before, it waited for the commit its own thread was running, forever (review H69). In a child process
  // whose alarm ends a hang as a failure.
  await #expect(processExitsWith: .success) {
    alarm(20)
    let rules = InjectionRules()
    TrackedPlugin.inject(1, into: ReadInCommitAction.self, rules: rules)
    let seen = LockedState(0)
    rules.onCommit { seen.withLock { $0 = Injection.withConsistentReads { ReadInCommitAction().value } } }
    try Injection.commit(rules)
    precondition(seen.withLock { $0 } == 1)
  }
}

private final class ScopedPairLeft: @unchecked Sendable {  // marked properties only
  @Tracked var value: Int
}
private final class ScopedPairRight: @unchecked Sendable {  // marked properties only
  @Tracked var value: Int
}

@Test func withConsistentReadsInsideAnOverrideScopeSeesOneOfItsCommits() async throws {
  // Before, a scope's commits did not move the configuration version (review H69: 131 torn pairs in
  // 463,000 reads). Probabilistic: a reader and a writer task of one scope.
  let left = ScopedPairLeft()
  let right = ScopedPairRight()
  let torn = try await Injection.withOverrides({ lets in
    TrackedPlugin.inject(0, into: ScopedPairLeft.self, rules: lets)
    TrackedPlugin.inject(0, into: ScopedPairRight.self, rules: lets)
  }) { () async -> Int in
    let done = Counter()
    async let writes: Void = {
      for round in 1...5_000 {
        let rules = InjectionRules()
        TrackedPlugin.inject(round, into: ScopedPairLeft.self, rules: rules)
        TrackedPlugin.inject(round, into: ScopedPairRight.self, rules: rules)
        _ = try? Injection.commit(rules)
      }
      done.increment()
    }()
    async let reads: Int = {
      var torn = 0
      while done.count == 0 {
        let (first, second) = Injection.withConsistentReads { (left.value, right.value) }
        if first != second { torn += 1 }
      }
      return torn
    }()
    await writes
    return await reads
  }
  #expect(torn == 0)
}
