import LazyPlugin
import MatrixSupport
import Testing

// LazyPlugin alone (plus the kernel-only @Probe).

private final class Feed {
  @Lazy var items: [String]
  @Lazy var cursor: Int?
  @Probe var probe: String?
}

private final class Unbuildable {
  final class Engine {
    init(power: Int) {}
  }
  @Lazy var engine: Engine
  @Probe var probe: String?
}

@Suite struct LazyAloneTests {
  @Test func createsOnFirstReadBesideAProbe() throws {
    try Injection.injectLazy(in: Feed.self)
    try Injection.probe("probed", in: Feed.self)
    let feed = Feed()
    feed.items.append("first")
    #expect(feed.items == ["first"] && feed.cursor == 0 && feed.probe == "probed")
    #expect(Injection.injectedPlugins(of: Feed.self) == ["Lazy", "Probe"])

    try Injection.rejectProbe(in: Feed.self)
    #expect(feed.probe == nil && feed.items == ["first"])
    try Injection.rejectLazy(in: Feed.self)
    #expect(Feed().cursor == nil)  // a plain stored property again
    try Injection.probe("again", in: Feed.self)
    #expect(Feed().probe == "again")
  }

  @Test func refusesATypeNothingCanBuildAndAppliesNothing() throws {
    #expect(throws: InjectionError.self) { try Injection.injectLazy(in: Unbuildable.self) }
    #expect(!Injection.isInjected(Unbuildable.self, "engine"))
    try Injection.probe("still works", in: Unbuildable.self)
    #expect(Unbuildable().probe == "still works")
  }
}
