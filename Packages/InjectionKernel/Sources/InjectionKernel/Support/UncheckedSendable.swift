/// A value its caller vouches is safe to share between threads although its type is not `Sendable`: the
/// escape hatch of every verb that shares one value between every instance on every thread.
///
/// Verbs that hand one value to every instance — `value(_:)`, `shared(_:)`, `weak(_:)` — require
/// `Sendable` at compile time, as a data race otherwise goes unnoticed. For a type you know to be safe
/// (synchronized inside, or never mutated after start-up) that does not say so, wrap the value; nothing
/// checks it, which is what the name says:
///
/// ```swift
/// try Injection.inject(LegacyCache.self).value(UncheckedSendable(LegacyCache()))
/// try Injection.inject(LegacyCache.self).shared { UncheckedSendable(LegacyCache()) }
/// ```
///
/// Prefer making the type `Sendable` (or `@unchecked Sendable` with a comment naming the lock that makes
/// it true): then every use is covered, not only this one.
public struct UncheckedSendable<Value>: @unchecked Sendable {  // the caller vouches for `value`; no lock here
  /// The wrapped value.
  public let value: Value

  /// Wraps `value`, which the caller vouches is safe to use from several threads at once.
  public init(_ value: Value) { self.value = value }
}
