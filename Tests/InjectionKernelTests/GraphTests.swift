import InjectionKernel
import Testing

private final class GraphHost {
  @Tracked var port: Int
  @Tracked var title: String
  @Tracked var notInjected: Double
}

private class GraphBase {
  @Tracked var auditedEndpoint: String
}

private final class GraphAudit: GraphBase {}

private final class GraphPeer<Element> {
  @Tracked var tag: String
}

@Suite struct GraphTests {
  @Test func edgesNameClassPropertyServiceAndPlugin() throws {
    let rules = InjectionRules()
    TrackedPlugin.inject(8080, into: GraphHost.self, rules: rules)
    TrackedPlugin.inject("home", into: GraphHost.self, rules: rules)
    try Injection.commit(rules)

    let edges = Injection.graph().edges.filter { $0.className.hasSuffix(".GraphHost") }
    #expect(
      edges == [
        InjectionGraph.Edge(
          className: "InjectionKernelTests.GraphHost", property: "port", valueType: "Int",
          service: "tracked 8080", plugin: "Tracked"),
        InjectionGraph.Edge(
          className: "InjectionKernelTests.GraphHost", property: "title", valueType: "String",
          service: "tracked home", plugin: "Tracked"),
      ])
  }

  @Test func aSubclassesOwnInjectionIsDrawnFromTheSubclass() throws {
    // Only the subclass is injected: the base class's instances would stop at a read, so the edge must not
    // start at the base class (the report lists the subclass too).
    func injectAudit() throws {
      let audit = InjectionRules()
      TrackedPlugin.inject("https://audit", into: GraphAudit.self, rules: audit)
      try Injection.commit(audit)
    }
    try injectAudit()
    func edges() -> [String] {
      Injection.graph().edges.filter { $0.className.contains(".Graph") && $0.property == "auditedEndpoint" }
        .map { "\($0.className) \($0.service)" }
    }
    #expect(edges() == ["InjectionKernelTests.GraphAudit tracked https://audit"])
    #expect(!Injection.isInjected(GraphBase.self, "auditedEndpoint"))
    // The base injected as well (the subclass's rule newer): each class has its own edge, drawn once.
    let base = InjectionRules()
    TrackedPlugin.inject("https://base", into: GraphBase.self, rules: base)
    try Injection.commit(base)
    try injectAudit()
    #expect(
      edges() == [
        "InjectionKernelTests.GraphAudit tracked https://audit", "InjectionKernelTests.GraphBase tracked https://base",
      ])
  }

  @Test func dotGroupsServicesByPluginAndLabelsEachProperty() {
    let graph = InjectionGraph(edges: [
      .init(
        className: "App.Screen", property: "title", valueType: "String", service: "value \"x\"", plugin: "Inject"),
      .init(
        className: "App.Box<Swift.Int>", property: "cache", valueType: "[Swift.Int]", service: "lazy", plugin: "Lazy"),
      .init(className: "App.Screen", property: "clock", valueType: "App.Clock", service: "lazy", plugin: "Lazy"),
    ])
    #expect(graph.classNames == ["App.Box<Swift.Int>", "App.Screen"])
    #expect(graph.plugins == ["Inject", "Lazy"])
    #expect(
      graph.dot == """
        digraph injections {
          rankdir=LR;
          node [shape=box, fontname="Helvetica"];
          c0 [label="App.Box<Swift.Int>", style=rounded];
          c1 [label="App.Screen", style=rounded];
          subgraph cluster_0 {
            label="Inject";
            p0s0 [label="value \\"x\\"", shape=ellipse];
          }
          subgraph cluster_1 {
            label="Lazy";
            p1s0 [label="lazy", shape=ellipse];
          }
          c0 -> p1s0 [label="cache: [Swift.Int]"];
          c1 -> p1s0 [label="clock: App.Clock"];
          c1 -> p0s0 [label="title: String"];
        }
        """)
    #expect(graph.description == graph.dot)
  }

  @Test func mermaidEscapesQuotesAndAngleBrackets() {
    let graph = InjectionGraph(edges: [
      .init(
        className: "App.Box<Swift.Int>", property: "name", valueType: "Swift.String", service: "value \"x\"",
        plugin: "Inject")
    ])
    #expect(
      graph.mermaid == """
        flowchart LR
          c0("App.Box#lt;Swift.Int#gt;")
          subgraph p0["Inject"]
            p0s0(["value #quot;x#quot;"])
          end
          c0 -->|"name: Swift.String"| p0s0
        """)
  }

  @Test func genericSpecializationsAndUninjectedProperties() throws {
    let rules = InjectionRules()
    rules.add(
      PropertyInjection(read: .value("t"), summary: "tag"),
      to: PropertySelection(plugin: TrackedPlugin.id).declared(in: GraphPeer<Int>.self))
    try Injection.commit(rules)
    #expect(GraphPeer<Int>().tag == "t")
    let graph = Injection.graph()
    #expect(graph.edges.contains { $0.className.hasSuffix("GraphPeer<Swift.Int>") && $0.service == "tag" })
    #expect(!graph.edges.contains { $0.property == "notInjected" })
    #expect(graph.mermaid.contains("GraphPeer#lt;Swift.Int#gt;"))
  }
}
