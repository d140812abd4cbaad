import DefaultsPlugin
import ForcePlugin
import ImperativePlugin
import InjectPlugin
import InjectionTesting
import LazyPlugin
import MatrixSupport
import Testing

// Every first-party plugin together with InjectionTesting: one class carries a marker of each, one block
// configures them, a test trait overrides them for one test only.

private final class Mailer: Sendable {
  let from: String
  init(from: String) { self.from = from }
}

private final class Inbox {
  @Inject var mailer: Mailer
  @Lazy var drafts: [String]
  @Defaults("inbox.signature") var signature = "—"
  @Probe var probe: String?
  var legacyFolder: String?  // unmarked: filled by ForcePlugin
}

private final class Outbox {
  @Inject var mailer: Mailer
  @Lazy var queue: [String]
  @Defaults("outbox.retries") var retries = 1
  @Probe var probe: String?
}

private func configureInbox(store: InMemoryDefaultsStore) throws {
  try Injection.imperative { lets in
    lets.checkCompleteness(in: Inbox.self)
    try lets.inject(Mailer.self).declared(in: Inbox.self).value(Mailer(from: "me@example.org"))
    lets.injectLazy(in: Inbox.self)
    lets.injectDefaults(in: Inbox.self, store: { _ in store })
    lets.probe("probed", in: Inbox.self)
    try lets.forceInject(in: Inbox.self) { $0.name == "legacyFolder" ? .value(Optional("Archive") as Any) : .skip }
  }
}

@Suite struct AllPluginsWithTestingTests {
  @Test func everyPluginOnOneClassInOneBlock() throws {
    let store = InMemoryDefaultsStore()
    try configureInbox(store: store)
    let inbox = try Injection.fill(Inbox())
    inbox.drafts.append("hello")
    inbox.signature = "Kim"
    #expect(inbox.mailer.from == "me@example.org" && inbox.drafts == ["hello"])
    #expect(store.object(forKey: "inbox.signature") as? String == "Kim")
    #expect(inbox.probe == "probed" && inbox.legacyFolder == "Archive")
    #expect(Injection.injectedPlugins(of: Inbox.self) == ["Inject", "Lazy", "Defaults", "Probe"])
    #expect(Injection.graph().mermaid.contains("drafts: [String]"))

    // Rejecting one plugin leaves the others in place.
    try Injection.rejectLazy(in: Inbox.self)
    #expect(Injection.injectedPlugins(of: Inbox.self) == ["Inject", "Defaults", "Probe"])
    #expect(inbox.mailer.from == "me@example.org" && Inbox().signature == "Kim" && inbox.probe == "probed")
  }

  @Test(
    .injecting { lets in
      try lets.inject(Mailer.self).declared(in: Outbox.self).value(Mailer(from: "test@example.org"))
      lets.injectLazy(in: Outbox.self)
      lets.injectDefaults(in: Outbox.self)
      lets.useDefaultsStore(InMemoryDefaultsStore(["outbox.retries": 5]))
      lets.probe("test", in: Outbox.self)
    })
  func aTraitOverridesEveryPluginForOneTest() {
    let outbox = Outbox()
    outbox.queue.append("report")
    #expect(outbox.mailer.from == "test@example.org" && outbox.queue == ["report"])
    #expect(outbox.retries == 5 && outbox.probe == "test")
  }

  @Test func aMistakeInOnePluginsRuleAppliesNothingOfTheBlock() {
    final class Unrelated {}
    #expect(throws: InjectionError.self) {
      try Injection.imperative { lets in
        lets.skipChecks()
        lets.probe("never", in: Outbox.self)
        lets.injectLazy(in: Outbox.self)
        try lets.inject(Mailer.self).declared(in: Unrelated.self).value(Mailer(from: "x"))
      }
    }
    #expect(!Injection.isInjected(Outbox.self, "probe") && !Injection.isInjected(Outbox.self, "queue"))
  }
}
