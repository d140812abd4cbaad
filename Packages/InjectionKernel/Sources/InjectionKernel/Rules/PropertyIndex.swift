/// The cataloged properties of one commit, indexed so that each selection of a large batch looks only at
/// the properties that could match it (same plugin, and the same name or value type when it names one).
struct PropertyIndex: Sendable {
  let all: [PropertyDescriptor]
  private var byPlugin: [PluginID: [PropertyDescriptor]] = [:]
  private var byName: [PluginID: [String: [PropertyDescriptor]]] = [:]
  private var byType: [PluginID: [ObjectIdentifier: [PropertyDescriptor]]] = [:]

  init(_ properties: [PropertyDescriptor]) {
    all = properties
    for property in properties {
      guard let plugin = property.plugin else { continue }
      byPlugin[plugin, default: []].append(property)
      byName[plugin, default: [:]][property.name, default: []].append(property)
      byType[plugin, default: [:]][ObjectIdentifier(property.valueType), default: []].append(property)
    }
  }

  /// The properties `selection` selects.
  func matches(_ selection: PropertySelection) -> [PropertyDescriptor] {
    candidates(for: selection).filter(selection.matches)
  }

  /// The properties of `plugin` named `name`.
  func properties(of plugin: PluginID, named name: String) -> [PropertyDescriptor] {
    byName[plugin]?[name] ?? []
  }

  /// The properties of `plugin`.
  func properties(of plugin: PluginID) -> [PropertyDescriptor] { byPlugin[plugin] ?? [] }

  private func candidates(for selection: PropertySelection) -> [PropertyDescriptor] {
    if !selection.names.isEmpty {
      return selection.names.sorted().flatMap { properties(of: selection.plugin, named: $0) }
    }
    if let valueType = selection.valueType {
      return byType[selection.plugin]?[ObjectIdentifier(valueType)] ?? []
    }
    return properties(of: selection.plugin)
  }
}
