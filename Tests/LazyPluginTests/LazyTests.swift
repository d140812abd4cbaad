import Foundation
import ImperativePlugin
import InjectionKernel
import LazyPlugin
import Synchronization
import TestSupport
import Testing

// Each test turns on only its own classes (`injectLazy(in:)`), so tests run in parallel.

private final class ImageCache: LazyConstructible, Sendable {
  let limit: Int
  init() { limit = 16 }
  init(limit: Int) { self.limit = limit }
}

private final class Parser: LazyConstructible, Sendable {
  let strict: Bool
  init() { strict = false }
  init(strict: Bool) { self.strict = strict }
}

private final class FirstReadHost {
  @Lazy var items: [String]
  @Lazy var index: [String: Int]
  @Lazy var cache: ImageCache
  @Lazy var parser: Parser?
}

private final class PlainBeforeHost {
  @Lazy var optional: [Int]?
}

private final class ResetHost {
  @Lazy var parser: Parser?
  @Lazy var onceParser: Parser?
}

private final class ScopedNilFirstHost {
  @Lazy var parser: Parser?
}

private final class NilFirstHost {
  @Lazy var parser: Parser?
  @Lazy var onceParser: Parser?
}

/// Used only by the per-type factory test: a per-type factory applies to every `@Lazy` of its type.
private final class FactoryCache: LazyConstructible, Sendable {
  let limit: Int
  init() { limit = 16 }
  init(limit: Int) { self.limit = limit }
}

private final class TypeFactoryHost {
  @Lazy var cache: FactoryCache
  @Lazy var maybe: FactoryCache?
}

private final class PropertyFactoryHost {
  @Lazy var strict: Parser
  @Lazy var lenient: Parser
}

/// Counts its live instances; used only by the re-registration test.
private final class CapturedConfig: Sendable {
  static let live = Atomic<Int>(0)
  let round: Int
  init(_ round: Int) {
    self.round = round
    Self.live.add(1, ordering: .relaxed)
  }
  deinit { Self.live.subtract(1, ordering: .relaxed) }
}

/// Constructible, so that other tests' `injectLazy()` of every `@Lazy` property does not fail on it.
private final class ReRegisteredParser: LazyConstructible, Sendable {
  let config: CapturedConfig
  init() { config = CapturedConfig(-1) }
  init(_ config: CapturedConfig) { self.config = config }
}

private final class ReRegisteringHost {
  @Lazy var parser: ReRegisteredParser
}

private final class RejectHost {
  @Lazy var names: [String]?
}

private final class CountedValue: LazyConstructible, Sendable {
  static let created = Atomic<Int>(0)
  init() { Self.created.add(1, ordering: .relaxed) }
}

private final class ConcurrentHost: @unchecked Sendable {  // shared read-only across threads
  @Lazy var value: CountedValue
}

private final class DeinitHost {
  @Lazy var log: [String]
  let onDeinit: @Sendable ([String]) -> Void
  init(onDeinit: @escaping @Sendable ([String]) -> Void) { self.onDeinit = onDeinit }
  deinit { onDeinit(log) }
}

/// A non-final class builds through `required init()`; a subclass is built as itself.
private class Model: LazyConstructible {
  required init() {}
  var kind: String { "model" }
}

private final class DetailModel: Model {
  override var kind: String { "detail" }
}

private final class ModelHost {
  @Lazy var model: Model
  @Lazy var detail: DetailModel
}

/// Nothing can build this type: no `init()`, no factory.
private struct Unbuildable {
  let id: Int
}

private final class UnbuildableHost {
  @Lazy var thing: Unbuildable
}

@Suite struct LazyTests {
  @Test func firstReadCreatesTheRightTypeAndValuesPersist() throws {
    try Injection.injectLazy(in: FirstReadHost.self)
    let host = FirstReadHost()
    #expect(host.items.isEmpty)
    host.items.append("a")
    #expect(host.items == ["a"])
    #expect(host.index.isEmpty)
    #expect(host.cache.limit == 16)
    #expect(host.cache === host.cache)
    #expect(host.parser != nil)
    #expect(host.parser === host.parser)
  }

  @Test func beforeInjectionAReadIsPlain() throws {
    let host = PlainBeforeHost()
    #expect(host.optional == nil)
    host.optional = [1]
    #expect(host.optional == [1])
  }

  @Test func nilResetRecreatesButOnceDoesNot() throws {
    let rules = InjectionRules()
    rules.injectLazy(in: ResetHost.self)
    rules.lazy(Parser?.self).declared(in: ResetHost.self).named("onceParser").once()
    try Injection.commit(rules)
    let host = ResetHost()
    let first = host.parser
    host.parser = nil
    #expect(host.parser != nil)
    #expect(host.parser !== first)
    #expect(host.onceParser != nil)
    host.onceParser = nil
    #expect(host.onceParser == nil)
  }

  @Test func aFactorysNilIsCreatedAgainAtTheNextReadAsAnAssignedNil() throws {
    // Before, a factory's `nil` counted as a value made: the factory never ran again for that instance,
    // while an assigned `nil` was created again (review H59).
    let calls = Counter()
    let rules = InjectionRules()
    rules.lazy(Parser?.self).declared(in: NilFirstHost.self).create { _ in
      calls.increment()
      return calls.count == 3 ? Parser(strict: true) : nil  // the third call only
    }
    rules.lazy(Parser?.self).declared(in: NilFirstHost.self).named("onceParser").once()
    try Injection.commit(rules)
    let host = NilFirstHost()
    #expect(host.parser == nil)
    #expect(host.parser == nil)
    #expect(host.parser?.strict == true)  // the third read's factory call made one
    #expect(calls.count == 3)
    _ = host.parser
    #expect(calls.count == 3)  // made: kept
    let onceHost = NilFirstHost()
    #expect(onceHost.onceParser == nil)
    #expect(onceHost.onceParser == nil)  // a once-only fill ran: it stays done
    #expect(calls.count == 4)
  }

  @Test func aFactorysNilInAnOverrideScopeIsCreatedAgainAtTheNextRead() throws {
    // Before, the scope kept the factory's nil for the instance (review H65), as the process did before.
    let calls = Counter()
    try Injection.withOverrides({ lets in
      lets.lazy(Parser?.self).declared(in: ScopedNilFirstHost.self).create { _ in
        calls.increment()
        return nil
      }
    }) {
      let host = ScopedNilFirstHost()
      for _ in 0..<3 { #expect(host.parser == nil) }
    }
    #expect(calls.count == 3)
  }

  @Test func perTypeFactoryOverridesTheDefault() throws {
    let rules = InjectionRules()
    rules.injectLazy(FactoryCache.self) { FactoryCache(limit: 64) }
    rules.injectLazy(in: TypeFactoryHost.self)
    try Injection.commit(rules)
    let host = TypeFactoryHost()
    #expect(host.cache.limit == 64)
    #expect(host.maybe?.limit == 64)
  }

  @Test func perPropertyFactoryWins() throws {
    let rules = InjectionRules()
    rules.lazy(Parser.self).declared(in: PropertyFactoryHost.self).named("strict").create { _ in Parser(strict: true) }
    rules.injectLazy(in: PropertyFactoryHost.self)
    try Injection.commit(rules)
    let host = PropertyFactoryHost()
    #expect(host.strict.strict)
    #expect(!host.lenient.strict)
  }

  @Test func rejectRestoresPlainBehaviour() throws {
    try Injection.injectLazy(in: RejectHost.self)
    let host = RejectHost()
    #expect(host.names == [])
    let rules = InjectionRules()
    rules.reject(PropertySelection(plugin: LazyPlugin.id).declared(in: RejectHost.self))
    try Injection.commit(rules)
    host.names = nil
    #expect(host.names == nil)
    #expect(RejectHost().names == nil)
  }

  @Test func exactlyOneCreationPerInstanceUnderConcurrentFirstReads() throws {
    try Injection.injectLazy(in: ConcurrentHost.self)
    let hosts = (0..<200).map { _ in ConcurrentHost() }
    let before = CountedValue.created.load(ordering: .relaxed)
    concurrently(threads: 8) { _ in
      for host in hosts.shuffled() { _ = host.value }
    }
    #expect(CountedValue.created.load(ordering: .relaxed) - before == hosts.count)
  }

  @Test func classesWithRequiredInitAreBuilt() throws {
    try Injection.injectLazy(in: ModelHost.self)
    let host = ModelHost()
    #expect(host.model.kind == "model")
    #expect(host.detail.kind == "detail")
  }

  @Test func readInsideDeinitWorks() throws {
    try Injection.injectLazy(in: DeinitHost.self)
    let seen = Atomic<Int>(-1)
    do {
      let host = DeinitHost { log in seen.store(log.count, ordering: .relaxed) }
      _ = host
    }
    #expect(seen.load(ordering: .relaxed) == 0)
  }

  @Test func nonConstructibleTypeIsReportedWhenInjecting() throws {
    let rules = InjectionRules()
    rules.injectLazy()
    #expect {
      try Injection.plan(rules)
    } throws: { error in
      guard case .rejected(let property, let reason) = error as? InjectionError else { return false }
      return property.hasSuffix("UnbuildableHost.thing: LazyPluginTests.(unknown context).Unbuildable")
        || (property.contains("UnbuildableHost.thing") && reason.contains("LazyConstructible"))
    }
    #expect(!Injection.isInjected(UnbuildableHost.self, "thing"))
  }

  @Test func reRegisteringAFactoryReleasesTheOneItReplaces() throws {
    // In a scope of its own: a test running beside it that enters a scope would copy the process's
    // factories, this test's among them, and keep them until its scope ends.
    try Injection.withOverrides({ _ in }) {
      for round in 0..<100 {  // per type
        let config = CapturedConfig(round)
        try Injection.imperative { lets in
          lets.checkCompleteness(in: ReRegisteringHost.self)
          lets.injectLazy(ReRegisteredParser.self) { ReRegisteredParser(config) }
          lets.injectLazy(in: ReRegisteringHost.self)
        }
      }
      #expect(CapturedConfig.live.load(ordering: .relaxed) == 1)  // the newest factory's only
      #expect(ReRegisteringHost().parser.config.round == 99)
      for round in 100..<200 {  // per property
        let config = CapturedConfig(round)
        try Injection.imperative { lets in
          lets.checkCompleteness(in: ReRegisteringHost.self)
          lets.lazy(ReRegisteredParser.self).declared(in: ReRegisteringHost.self).named("parser")
            .create { _ in ReRegisteredParser(config) }
        }
      }
      #expect(ReRegisteringHost().parser.config.round == 199)
      // The newest per-type and per-property factories; none of the 198 they replaced.
      #expect(CapturedConfig.live.load(ordering: .relaxed) == 2)
    }
  }

  @Test func theMissingValueHintAsksForAFactoryWhenInjectLazyAloneWouldRefuse() throws {
    let thing = try Injection.property(named: "thing", of: UnbuildableHost.self)
    #expect(
      thing.missingValueMessage.contains(
        "inject it with a factory, Injection.injectLazy(Unbuildable.self) { … } (Unbuildable does not conform "
          + "to LazyConstructible)"))
    let cache = try Injection.property(named: "cache", of: FirstReadHost.self)
    #expect(cache.missingValueMessage.contains("inject it with Injection.injectLazy(), or assign"))
  }
}

private final class CrossThreadCycleNode: @unchecked Sendable {  // marked properties are atomic
  @Lazy var first: [String]
  @Lazy var second: [String]
}

/// How many of the two fills have begun: each waits for the other before reading the other's property,
/// so that both hold their own field's lock when they do.
private let crossThreadFillsBegun = Atomic<Int>(0)

private func waitingForBothFills() {
  crossThreadFillsBegun.add(1, ordering: .acquiringAndReleasing)
  while crossThreadFillsBegun.load(ordering: .acquiring) < 2 { sched_yield() }
}

@Suite struct LazyCycleTests {
  @Test func factoriesOnTwoThreadsThatNeedEachOthersValueStopInsteadOfWaitingForever() async {
    // Each fill holds its property's lock and waits for the other's: before, both threads waited forever.
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.imperative { lets in
        lets.skipChecks()
        lets.lazy([String].self).declared(in: CrossThreadCycleNode.self).named("first").create { node in
          waitingForBothFills()
          return (node as! CrossThreadCycleNode).second + ["first"]
        }
        lets.lazy([String].self).declared(in: CrossThreadCycleNode.self).named("second").create { node in
          waitingForBothFills()
          return (node as! CrossThreadCycleNode).first + ["second"]
        }
      }
      let node = CrossThreadCycleNode()
      let threads = [Thread { _ = node.first }, Thread { _ = node.second }]
      for thread in threads { thread.start() }
      for thread in threads { while !thread.isFinished { usleep(10_000) } }  // the stop ends the process first
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("a cycle across threads"))
    #expect(message.contains("LazyPluginTests.CrossThreadCycleNode."))
  }
}
