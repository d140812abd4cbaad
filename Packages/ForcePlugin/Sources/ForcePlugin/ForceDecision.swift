/// What the decision closure of `ForceInjector/forceInject(in:_:)` answers for one field.
///
/// ```swift
/// try Injection.forceInject { property in
///   guard property.isDeclared(in: Checkout.self) else { return .skip }
///   switch property.name {
///   case "gateway": return .value(gateway)            // the same value in every filled instance
///   case "session": return .provider { Session() }    // a new value for each filled instance
///   default: return .skip                              // DeluxeInjection's `doNotInject`
///   }
/// }
/// ```
///
/// `@unchecked Sendable`: the payloads are immutable; a value is handed to every fill on any thread, as
/// any injected value is shared.
public enum ForceDecision: @unchecked Sendable {
  /// Write this value into every filled instance's field. It must fit the field's type (the same type,
  /// a subclass, a conforming type, or the wrapped type of an optional field); otherwise the fill throws.
  case value(Any)
  /// Write a new value from `make` into each filled instance's field.
  case provider(@Sendable () -> Any)
  /// Leave the field alone.
  case skip

  /// Whether the decision is ``skip``.
  public var isSkip: Bool {
    if case .skip = self { return true }
    return false
  }
}

/// Whether a fill writes over fields that already hold a value.
public enum FillPolicy: Sendable, Hashable {
  /// Write every decided or registered value (APServiceBox, DeluxeInjection's force injection).
  case overwrite
  /// Write only into optional fields that are `nil` now; a preset value is kept (OBInjector).
  case onlyIntoEmpty
}
