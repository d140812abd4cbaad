/// An ordered list of rules or factories for a layered ``ScopedState``: elements are added oldest first,
/// a new element may replace older ones (`isReplaced(older, newer)`), and the list may be emptied. A
/// scope's copy notes its own additions and emptying, and ``layering`` makes them again on a newer list
/// beneath the scope — so what the process adds later shows through in the scope, under the scope's own.
///
/// ```swift
/// static let handlers = ScopedState(
///   LayeredList<Handler>(replacing: { older, newer in older.name == newer.name }),
///   layering: LayeredList<Handler>.layering)
/// handlers.update { $0.add(Handler(name: "audit")) }
/// ```
public struct LayeredList<Element: Sendable>: Sendable {
  /// The elements, oldest first.
  public private(set) var elements: [Element] = []
  /// A scope's own additions since its first change (without those that later ones replaced), and
  /// whether it emptied the list beneath first; `nil` in the process's value.
  private var own: (added: [Element], clearedBeneath: Bool)?
  private let isReplaced: @Sendable (_ older: Element, _ newer: Element) -> Bool

  /// An empty list whose new elements replace the older ones `isReplaced(older, newer)` selects.
  public init(replacing isReplaced: @escaping @Sendable (_ older: Element, _ newer: Element) -> Bool) {
    self.isReplaced = isReplaced
  }

  /// Adds `element` as the newest, removing the elements it replaces; returns those (release them after
  /// the commit: see ``Injection/releaseAfterTheCommit(_:)``).
  @discardableResult
  public mutating func add(_ element: Element) -> [Element] {
    let replaced = elements.filter { isReplaced($0, element) }
    if !replaced.isEmpty { elements.removeAll { isReplaced($0, element) } }
    elements.append(element)
    own?.added.removeAll { isReplaced($0, element) }
    own?.added.append(element)
    return replaced
  }

  /// Removes every element; returns them.
  @discardableResult
  public mutating func removeAll() -> [Element] {
    if own != nil { own = ([], true) }
    defer { elements = [] }
    return elements
  }

  /// The layering of a `ScopedState` holding such a list (see ``ScopedState/init(_:layering:whenAScopeEnds:)``).
  public static var layering: ScopeLayering<LayeredList> {
    ScopeLayering(
      begin: { list in
        var copy = list
        copy.own = ([], false)
        return copy
      },
      rebase: { copy, beneath in
        var rebuilt = beneath
        rebuilt.own = copy.own.map { ($0.added, $0.clearedBeneath) } ?? ([], false)
        guard let own = copy.own else { return rebuilt }
        // As if each own element were added again in turn, in one pass: no own element replaces an
        // earlier one (`add` dropped those), so the elements beneath that none replaces come first, then
        // the scope's own.
        let kept =
          own.clearedBeneath
          ? [] : beneath.elements.filter { older in !own.added.contains { copy.isReplaced(older, $0) } }
        rebuilt.elements = kept + own.added
        return rebuilt
      })
  }
}
