/// The wiring as a graph: which class's properties get which service from which plugin.
///
/// Each injected property is one ``Edge`` from the class whose instances get it (the declaring class,
/// or a subclass with an injection of its own for an inherited property) to a *service* — what the
/// injection hands out, as its summary says (`value Demo.Settings`, `lazy`, `defaults`) — and each
/// service belongs to the plugin that owns the property. ``dot`` renders it for Graphviz
/// (`dot -Tpng`), ``mermaid`` for Markdown viewers that draw Mermaid diagrams.
///
/// ```swift
/// print(Injection.graph().mermaid)
/// ```
public struct InjectionGraph: Sendable, Hashable, CustomStringConvertible {
  /// One injected property: `className.property: valueType` gets `service` from `plugin`.
  public struct Edge: Sendable, Hashable {
    /// The class whose instances get the injection, `Module.Owner`: the declaring class, or a subclass
    /// that has an injection of its own for a property it inherits.
    public let className: String
    /// The property's name.
    public let property: String
    /// The property's value type as written in source (`Int?`, `[String]`).
    public let valueType: String
    /// What the injection hands out: its summary.
    public let service: String
    /// The plugin owning the property's marker (`-` for an unmarked property).
    public let plugin: String

    /// An edge; ``Injection/graph()`` builds them from the injected properties.
    public init(className: String, property: String, valueType: String, service: String, plugin: String) {
      self.className = className
      self.property = property
      self.valueType = valueType
      self.service = service
      self.plugin = plugin
    }
  }

  /// Every injected property, sorted by class, then property.
  public let edges: [Edge]

  /// A graph of `edges`, sorted.
  public init(edges: [Edge]) {
    self.edges = edges.sorted { ($0.className, $0.property) < ($1.className, $1.property) }
  }

  /// The classes, in order of first appearance.
  public var classNames: [String] { unique(edges.map(\.className)) }

  /// The plugins, in order of first appearance.
  public var plugins: [String] { unique(edges.map(\.plugin)).sorted() }

  /// The services of `plugin`, sorted.
  public func services(of plugin: String) -> [String] {
    unique(edges.filter { $0.plugin == plugin }.map(\.service)).sorted()
  }

  /// The graph in Graphviz's DOT language: classes on the left, each plugin's services in a cluster,
  /// one labelled arrow per property.
  public var dot: String {
    var lines = ["digraph injections {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
    for (index, name) in classNames.enumerated() {
      lines.append("  c\(index) [label=\"\(dotEscaped(name))\", style=rounded];")
    }
    for (pluginIndex, plugin) in plugins.enumerated() {
      lines.append("  subgraph cluster_\(pluginIndex) {")
      lines.append("    label=\"\(dotEscaped(plugin))\";")
      for service in services(of: plugin) {
        lines.append("    \(serviceID(plugin, service)) [label=\"\(dotEscaped(service))\", shape=ellipse];")
      }
      lines.append("  }")
    }
    for edge in edges {
      lines.append(
        "  \(classID(edge.className)) -> \(serviceID(edge.plugin, edge.service)) "
          + "[label=\"\(dotEscaped("\(edge.property): \(edge.valueType)"))\"];")
    }
    lines.append("}")
    return lines.joined(separator: "\n")
  }

  /// The graph as a Mermaid flowchart (in Markdown, a code block marked `mermaid` renders it on GitHub).
  public var mermaid: String {
    var lines = ["flowchart LR"]
    for (index, name) in classNames.enumerated() {
      lines.append("  c\(index)(\"\(mermaidEscaped(name))\")")
    }
    for plugin in plugins {
      lines.append("  subgraph \(pluginID(plugin))[\"\(mermaidEscaped(plugin))\"]")
      for service in services(of: plugin) {
        lines.append("    \(serviceID(plugin, service))([\"\(mermaidEscaped(service))\"])")
      }
      lines.append("  end")
    }
    for edge in edges {
      lines.append(
        "  \(classID(edge.className)) -->|\"\(mermaidEscaped("\(edge.property): \(edge.valueType)"))\"| "
          + serviceID(edge.plugin, edge.service))
    }
    return lines.joined(separator: "\n")
  }

  /// The DOT text.
  public var description: String { dot }

  private func classID(_ name: String) -> String { "c\(classNames.firstIndex(of: name) ?? 0)" }

  private func pluginID(_ plugin: String) -> String { "p\(plugins.firstIndex(of: plugin) ?? 0)" }

  private func serviceID(_ plugin: String, _ service: String) -> String {
    "\(pluginID(plugin))s\(services(of: plugin).firstIndex(of: service) ?? 0)"
  }
}

private func unique(_ names: [String]) -> [String] {
  var seen: Set<String> = []
  return names.filter { seen.insert($0).inserted }
}

/// Text inside a DOT double-quoted string (the kernel does not import Foundation).
private func dotEscaped(_ text: String) -> String {
  var escaped = ""
  for character in text {
    switch character {
    case "\\": escaped += "\\\\"
    case "\"": escaped += "\\\""
    case "\n": escaped += "\\n"
    default: escaped.append(character)
    }
  }
  return escaped
}

/// Text inside a Mermaid quoted label: quotes and angle brackets as Mermaid's entity codes (a `<`
/// would otherwise start HTML).
private func mermaidEscaped(_ text: String) -> String {
  var escaped = ""
  for character in text {
    switch character {
    case "\"": escaped += "#quot;"
    case "<": escaped += "#lt;"
    case ">": escaped += "#gt;"
    case "\n": escaped += " "
    default: escaped.append(character)
    }
  }
  return escaped
}

extension Injection {
  /// The injection graph of what is injected now (as the calling task sees it): which class's
  /// properties get which service from which plugin. Render it with ``InjectionGraph/dot`` or
  /// ``InjectionGraph/mermaid``; ``report()`` says the same as text.
  public static func graph() -> InjectionGraph {
    InjectionGraph(
      edges: injectedProperties().compactMap { property in
        guard let injection = injection(for: property) else { return nil }
        // A subclass's own injection of an inherited property is drawn from that subclass, as the report
        // lists it: its instances get it, the declaring class's do not.
        return InjectionGraph.Edge(
          className: property.isSubclassView ? typeName(property.viewingClass) : property.className,
          property: property.name,
          valueType: Injection.sourceSpelling(of: property.valueType), service: injection.summary,
          plugin: property.plugin?.name ?? "-")
      })
  }
}
