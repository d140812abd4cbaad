import ForcePlugin
import ImperativePlugin
import Testing

// The entry points on the process-wide injector (`Injection.forceInject`, `Injection.fill`, the imperative
// verbs). Serialized, with the README's examples nested below: one test clears the shared injector.

private final class Gateway: Sendable {}

private final class EntryPointHost {
  var gateway: Gateway?
  var label = ""
}

private final class KeyedImperativeHost {
  var gateway: Gateway?
}

private final class BatchHost {
  var gateway: Gateway?
}

private final class ImperativeHost {
  var gateway: Gateway?
  var label = ""
}

@Suite(.serialized) struct SharedInjectorTests {
  @Test func injectionEntryPointsUseTheSharedInjector() throws {
    let gateway = Gateway()
    try Injection.forceInject(in: EntryPointHost.self) { $0.name == "gateway" ? .value(gateway) : .skip }
    let host = try Injection.fill(EntryPointHost())
    #expect(host.gateway === gateway)
    try Injection.forceReject { $0.isDeclared(in: EntryPointHost.self) }
    #expect(try Injection.fill(EntryPointHost()).gateway == nil)
  }

  @Test func imperativeVerbsApplyOnlyWhenTheBlockCommits() throws {
    let gateway = Gateway()
    struct Abort: Error {}
    #expect(throws: Abort.self) {
      try Injection.imperative { lets in
        lets.skipChecks()
        try lets.forceInject(in: ImperativeHost.self) { $0.name == "gateway" ? .value(gateway) : .skip }
        throw Abort()
      }
    }
    #expect(try Injection.fill(ImperativeHost()).gateway == nil)
    // A misfitting value in a scoped rule fails the block.
    #expect(throws: ForceError.self) {
      try Injection.imperative { lets in
        lets.skipChecks()
        try lets.forceInject(in: ImperativeHost.self) { $0.name == "label" ? .value(3) : .skip }
      }
    }
    try Injection.imperative { lets in
      lets.skipChecks()
      try lets.forceInject(in: ImperativeHost.self) { $0.name == "gateway" ? .value(gateway) : .skip }
    }
    #expect(try Injection.fill(ImperativeHost()).gateway === gateway)
    try Injection.imperative { lets in
      lets.skipChecks()
      lets.forceReject { $0.isDeclared(in: ImperativeHost.self) }
    }
    #expect(try Injection.fill(ImperativeHost()).gateway == nil)
    try Injection.imperative { lets in
      lets.skipChecks()
      try lets.forceInject(in: ImperativeHost.self) { $0.name == "label" ? .value("set") : .skip }
      lets.forceRejectAll()  // runs after the rule above was added: the block ends with no rules
    }
    #expect(try Injection.fill(ImperativeHost()).label == "")
  }

  @Test func keyedRulesReplaceTheirPredecessorsThroughTheEntryPointAndInBlocks() throws {
    let first = Gateway()
    let second = Gateway()
    let third = Gateway()
    try Injection.forceInject(in: KeyedImperativeHost.self, key: "gateway") { _ in .value(first) }
    try Injection.forceInject(in: KeyedImperativeHost.self, key: "gateway") { _ in .value(second) }
    #expect(try Injection.fill(KeyedImperativeHost()).gateway === second)
    struct Abort: Error {}
    #expect(throws: Abort.self) {  // a failed block replaces nothing
      try Injection.imperative { lets in
        lets.skipChecks()
        try lets.forceInject(in: KeyedImperativeHost.self, key: "gateway") { _ in .value(third) }
        throw Abort()
      }
    }
    #expect(try Injection.fill(KeyedImperativeHost()).gateway === second)
    try Injection.imperative { lets in
      lets.skipChecks()
      try lets.forceInject(in: KeyedImperativeHost.self, key: "gateway") { _ in .skip }
    }
    // The skipping replacement removed `second`'s rule, and `first`'s was already gone.
    #expect(try Injection.fill(KeyedImperativeHost()).gateway == nil)
  }

  @Test func entryPointsThatApplyAtOnceThrowInsideABatch() throws {
    struct Abort: Error {}
    // Each would apply apart from the batch, and stay although the block fails.
    #expect(throws: Abort.self) {
      try Injection.imperative { lets in
        lets.skipChecks()
        #expect(throws: InjectionError.commitWhileRecording) {
          try Injection.forceInject(in: BatchHost.self) { $0.name == "gateway" ? .value(Gateway()) : .skip }
        }
        #expect(throws: InjectionError.commitWhileRecording) { try Injection.forceReject { _ in true } }
        #expect(throws: InjectionError.commitWhileRecording) { try Injection.forceRejectAll() }
        #expect(throws: InjectionError.commitWhileRecording) {
          try ForceInjector.shared.forceInject(in: BatchHost.self) { $0.name == "gateway" ? .value(Gateway()) : .skip }
        }
        // An injector of one's own is no batch's business.
        try ForceInjector().forceInject(in: BatchHost.self) { _ in .skip }
        throw Abort()
      }
    }
    #expect(try Injection.fill(BatchHost()).gateway == nil)
    #expect(throws: InjectionError.commitWhileRecording) {
      try Injection.imperativeDryRun { _ in
        try Injection.forceInject(in: BatchHost.self) { $0.name == "gateway" ? .value(Gateway()) : .skip }
      }
    }
    #expect(try Injection.fill(BatchHost()).gateway == nil)
  }

  @Test func rejectAllClearsTheSharedInjector() throws {
    try Injection.forceInject(in: EntryPointHost.self) { $0.name == "label" ? .value("set") : .skip }
    #expect(try Injection.fill(EntryPointHost()).label == "set")
    try Injection.forceRejectAll()
    #expect(try Injection.fill(EntryPointHost()).label == "")
  }
}
