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
  /// The elements, oldest first: held strongly where they were added, and weakly in a scope's copy that
  /// inherited them from beneath — so that an element the process (or an enclosing scope) replaces or
  /// removes while the scope is open is released then, and what it captured with it. A read in the scope
  /// gets the copy holding every element strongly (``layering``'s `reading`), or a copy built again on
  /// the newer value beneath when one was let go.
  private var held: [ScopeHeld<Element>] = []
  /// A scope's own additions since its first change (without those that later ones replaced), and
  /// whether it emptied the list beneath first; `nil` in the process's value. Each keeps its holder, so
  /// that a copy rebuilt on a newer list beneath holds the same elements, which the copies of enclosed
  /// scopes hold weakly.
  private var own: (added: [ScopeHeld<Element>], clearedBeneath: Bool)?
  private let isReplaced: @Sendable (_ older: Element, _ newer: Element) -> Bool

  /// An empty list whose new elements replace the older ones `isReplaced(older, newer)` selects.
  public init(replacing isReplaced: @escaping @Sendable (_ older: Element, _ newer: Element) -> Bool) {
    self.isReplaced = isReplaced
  }

  /// The elements, oldest first.
  public var elements: [Element] { held.compactMap(\.value) }

  /// Adds `element` as the newest, removing the elements it replaces; returns those (release them after
  /// the commit: see ``Injection/releaseAfterTheCommit(_:)``).
  @discardableResult
  public mutating func add(_ element: Element) -> [Element] {
    var replaced: [Element] = []
    held.removeAll { entry in
      guard let older = entry.value else { return true }  // let go of beneath
      guard isReplaced(older, element) else { return false }
      replaced.append(older)
      return true
    }
    let added = ScopeHeld(element)
    held.append(added)
    own?.added.removeAll { $0.value.map { isReplaced($0, element) } ?? true }
    own?.added.append(added)
    return replaced
  }

  /// Removes every element; returns them.
  @discardableResult
  public mutating func removeAll() -> [Element] {
    if own != nil { own = ([], true) }
    defer { held = [] }
    return elements
  }

  /// The layering of a `ScopedState` holding such a list (see ``ScopedState/init(_:layering:whenAScopeEnds:)``).
  public static var layering: ScopeLayering<LayeredList> {
    ScopeLayering(
      begin: { list in
        var copy = list
        copy.held = list.held.map { $0.weakly() }
        copy.own = ([], false)
        return copy
      },
      rebase: { copy, beneath in
        var rebuilt = beneath
        rebuilt.own = copy.own.map { ($0.added, $0.clearedBeneath) } ?? ([], false)
        // As if each own element were added again in turn, in one pass: no own element replaces an
        // earlier one (`add` dropped those), so the elements beneath that none replaces come first, then
        // the scope's own.
        let own = copy.own ?? ([], false)
        let kept =
          own.clearedBeneath
          ? []
          : beneath.held.filter { entry in
            entry.value.map { older in
              !own.added.contains { $0.value.map { copy.isReplaced(older, $0) } ?? false }
            } ?? false
          }
        rebuilt.held = kept.map { $0.weakly() } + own.added
        return rebuilt
      },
      reading: { copy in
        // Every element held strongly for the read, or none when one beneath was let go since the build.
        var read = copy
        for index in read.held.indices {
          guard let strong = read.held[index].strongly() else { return nil }
          read.held[index] = strong
        }
        return read
      })
  }
}
