/// A value as a plugin state holds it: strongly in the state's value that stored it, weakly in the copies
/// of override scopes that inherited it from beneath — so that what the process (or an enclosing scope)
/// replaces or removes is released then, with what it captured, while scopes of other tasks are open.
///
/// A ``LayeredList`` holds its elements so; a value of another shape does it itself: its scope copies
/// (made by its ``ScopeLayering``, or by ``ScopedState/init(_:scopeCopy:whenAScopeEnds:)``'s `scopeCopy`)
/// hold what they inherit ``weakly()``, and a layered state's `reading` hands a read the copy holding
/// everything ``strongly()`` — or `nil`, so that the kernel builds the copy again, when something is gone.
///
/// ```swift
/// struct Registry: Sendable {
///   var handlers: [ScopeHeld<Handler>] = []
///   func inheritedWeakly() -> Registry { Registry(handlers: handlers.map { $0.weakly() }) }
/// }
/// ```
public struct ScopeHeld<Value: Sendable>: Sendable {
  /// Set where the value is held strongly.
  private var strong: Holder?
  /// Set where it is held weakly (a copy's); `nil` once the strong holders let go.
  private weak var inherited: Holder?

  /// `value`, held strongly.
  public init(_ value: Value) { strong = Holder(value) }

  private init() {}

  /// A value that reads as let go of: a scope copy that puts it in place of one it inherited is built
  /// again on what lies beneath before its next read.
  public static var letGo: ScopeHeld { ScopeHeld() }

  /// The value, unless it is held weakly here and every strong holder let go of it.
  public var value: Value? { (strong ?? inherited)?.value }

  /// The same value, held weakly (for a scope's copy).
  public func weakly() -> ScopeHeld {
    var copy = self
    copy.inherited = strong ?? inherited
    copy.strong = nil
    return copy
  }

  /// The same value, held strongly (for a read); `nil` when it is gone.
  public func strongly() -> ScopeHeld? {
    guard let holder = strong ?? inherited else { return nil }
    var copy = self
    copy.strong = holder
    return copy
  }

  /// The one object every state's value that holds the value refers to.
  private final class Holder: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
  }
}
