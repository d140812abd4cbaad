/// The cataloged properties of one commit, indexed so that each selection of a large batch looks only at
/// the properties that could match it (declared in a named class or its subclasses, or of the same plugin
/// with the same name or value type).
struct PropertyIndex: Sendable {
  let all: [PropertyDescriptor]
  /// Each plugin's properties, in the order plugins were met. A process has a handful of plugins, so a
  /// linear search (one string comparison each) beats hashing the plugin's name, and an index keyed by
  /// `PluginID` would cost its first commit a runtime conformance lookup (a scan of every conformance
  /// record of every loaded image).
  private var plugins: [PluginID] = []
  private var byPlugin: [PluginProperties] = []
  /// Properties by each class that declares them or is a superclass of the declaring class.
  private var byAncestor: [ObjectIdentifier: [PropertyDescriptor]] = [:]

  /// Subclass views indexed beside the cataloged properties (not in ``all``).
  private(set) var views: [PropertyDescriptor] = []

  init(_ properties: [PropertyDescriptor]) {
    all = properties
    for property in properties { add(property) }
  }

  /// This index with subclass views added: selections match them like properties, but they are not
  /// listed in ``all``.
  func adding(views newViews: [PropertyDescriptor]) -> PropertyIndex {
    var copy = self
    var seen = Set(views)
    for view in newViews where seen.insert(view).inserted {
      copy.views.append(view)
      copy.add(view)
    }
    return copy
  }

  /// The subclass views of the properties that `cls` inherits (declared by a strict superclass), as seen
  /// from `cls`.
  func inheritedViews(from cls: AnyClass) -> [PropertyDescriptor] {
    var found: [PropertyDescriptor] = []
    var ancestor: AnyClass? = MetadataAccess.superclass(of: cls)
    while let current = ancestor {
      for property in properties(declaredBy: current) {
        if let view = property.viewed(from: cls) { found.append(view) }
      }
      ancestor = MetadataAccess.superclass(of: current)
    }
    return found
  }

  /// One plugin's properties, all of them and by name, value type and wrapped type.
  private struct PluginProperties: Sendable {
    var all: [PropertyDescriptor] = []
    var byName: [String: [PropertyDescriptor]] = [:]
    var byType: [ObjectIdentifier: [PropertyDescriptor]] = [:]
    /// Optional properties by their wrapped type (`Int` for `Int?`), for selections including optionals.
    var byWrappedType: [ObjectIdentifier: [PropertyDescriptor]] = [:]

    mutating func add(_ property: PropertyDescriptor) {
      all.append(property)
      byName[property.name, default: []].append(property)
      byType[ObjectIdentifier(property.valueType), default: []].append(property)
      if let wrapped = MetadataAccess.optionalWrappedType(property.valueType) {
        byWrappedType[ObjectIdentifier(wrapped), default: []].append(property)
      }
    }
  }

  private mutating func add(_ property: PropertyDescriptor) {
    guard let plugin = property.plugin else { return }
    if let position = plugins.firstIndex(of: plugin) {
      byPlugin[position].add(property)
    } else {
      plugins.append(plugin)
      byPlugin.append(PluginProperties())
      byPlugin[byPlugin.count - 1].add(property)
    }
    var ancestor: AnyClass? = property.viewingClass
    while let cls = ancestor {
      byAncestor[ObjectIdentifier(cls), default: []].append(property)
      ancestor = MetadataAccess.superclass(of: cls)
    }
  }

  /// The properties `selection` selects.
  func matches(_ selection: PropertySelection) -> [PropertyDescriptor] {
    candidates(for: selection).filter(selection.matches)
  }

  /// The properties of `plugin` named `name`.
  func properties(of plugin: PluginID, named name: String) -> [PropertyDescriptor] {
    self[plugin]?.byName[name] ?? []
  }

  /// The properties of `plugin`.
  func properties(of plugin: PluginID) -> [PropertyDescriptor] { self[plugin]?.all ?? [] }

  /// The properties of `plugin`, if it has any.
  private subscript(plugin: PluginID) -> PluginProperties? {
    plugins.firstIndex(of: plugin).map { byPlugin[$0] }
  }

  /// The properties declared by `cls` or by its subclasses (and the views from `cls` or below).
  func properties(declaredInOrBelow cls: AnyClass) -> [PropertyDescriptor] { byAncestor[ObjectIdentifier(cls)] ?? [] }

  /// The properties `cls` itself declares.
  func properties(declaredBy cls: AnyClass) -> [PropertyDescriptor] {
    properties(declaredInOrBelow: cls).filter { $0.declaringClass == cls && !$0.isSubclassView }
  }

  private func candidates(for selection: PropertySelection) -> [PropertyDescriptor] {
    if let only = selection.namedClasses.first, selection.namedClasses.count == 1 {
      return byAncestor[ObjectIdentifier(only)] ?? []
    }
    if !selection.namedClasses.isEmpty {
      // Properties declared by a named class or a subclass of one, each once (named classes may nest).
      var seen: Set<PropertyDescriptor> = []
      return selection.namedClasses.flatMap { byAncestor[ObjectIdentifier($0)] ?? [] }.filter {
        seen.insert($0).inserted
      }
    }
    if !selection.names.isEmpty {
      return selection.names.sorted().flatMap { properties(of: selection.plugin, named: $0) }
    }
    if let valueType = selection.valueType {
      let plugin = self[selection.plugin]
      let exact = plugin?.byType[ObjectIdentifier(valueType)] ?? []
      guard selection.includesOptionals else { return exact }
      return exact + (plugin?.byWrappedType[ObjectIdentifier(valueType)] ?? [])
    }
    return properties(of: selection.plugin)
  }
}
