/// The identity of a closure value: equal for the same closure, so that two selections filtered by the
/// very same predicate are the same selection (a rule re-injected through `filter { $0.name == "x" }` in a
/// loop replaces its older self instead of piling up).
///
/// Layout relied on (the Swift ABI's thick function, `docs/ABI/TypeLayout.rst`): two words, the
/// function's entry point, then its context — `nil` for a closure that captures nothing, else a
/// reference-counted box of what it captured. The same closure expression evaluated twice without
/// captures has equal words; with captures, each evaluation makes a box of its own. A box cannot be
/// freed and its address reused while a rule holding the closure lives (the selection keeps it), so
/// equal words while both are alive mean the same closure. The words are read, never called or released:
/// no reference counting is involved.
///
/// A function value passed to a generic parameter is reabstracted: wrapped in a thunk whose context is a
/// new, short-lived box — whose address the next call may get again, making different closures look
/// equal. So the closure is read inside a concrete struct, whose stored function keeps its own two words.
enum ClosureIdentity {
  /// A concrete home for the closure: `unsafeBitCast` of the struct copies the words as they are.
  private struct Words {
    let closure: @Sendable (PropertyDescriptor) -> Bool
  }

  /// The two words of `closure` (see the type's documentation).
  static func words(of closure: @escaping @Sendable (PropertyDescriptor) -> Bool) -> [UInt] {
    let words = unsafeBitCast(Words(closure: closure), to: (UInt, UInt).self)
    return [words.0, words.1]
  }
}
