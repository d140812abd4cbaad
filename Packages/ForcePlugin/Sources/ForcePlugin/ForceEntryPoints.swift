public import InjectionKernel

extension Injection {
  /// DeluxeInjection's `[DeluxeInjection forceInject:^id(Class targetClass, NSString *propertyName, …)]`:
  /// adds a decision closure to ``ForceInjector/shared`` (see `ForceInjector/forceInject(in:key:decide:)`).
  /// A rule with a `key` replaces the shared injector's rule with the same key.
  ///
  /// It applies at once. Inside an imperative block, a module's `configure` or an override's rules it
  /// throws `InjectionError.commitWhileRecording`: use the batch's `lets.forceInject(in:key:decide:)`,
  /// which applies when the batch commits (and not at all if it fails). From a task that outlived its
  /// override scope it throws `InjectionError.overrideScopeEnded`, as a commit there does.
  ///
  /// ```swift
  /// try Injection.forceInject(in: Checkout.self) { property in
  ///   property.valueType == PaymentGateway.self ? .value(gateway) : .skip
  /// }
  /// let checkout = try Injection.fill(Checkout())
  /// ```
  public static func forceInject(
    in classes: AnyClass..., key: String? = nil, decide: @escaping @Sendable (ForceProperty) -> ForceDecision
  ) throws {
    try InjectionRules.checkNotRecording()
    try InjectionRules.checkScopeNotEnded()
    try ForceInjector.shared.forceInject(in: classes, key: key, decide: decide)
  }

  /// Hides the shared injector's older decisions for the properties `predicate` selects, at once.
  ///
  /// - Throws: `InjectionError.commitWhileRecording` inside an imperative block, a module's `configure`
  ///   or an override's rules (use `lets.forceReject(where:)` there); `InjectionError.overrideScopeEnded`
  ///   from a task that outlived its override scope.
  public static func forceReject(where predicate: @escaping @Sendable (ForceProperty) -> Bool) throws {
    try InjectionRules.checkNotRecording()
    try InjectionRules.checkScopeNotEnded()
    ForceInjector.shared.forceReject(where: predicate)
  }

  /// Removes every rule of the shared injector, at once.
  ///
  /// - Throws: `InjectionError.commitWhileRecording` inside an imperative block, a module's `configure`
  ///   or an override's rules (use `lets.forceRejectAll()` there); `InjectionError.overrideScopeEnded`
  ///   from a task that outlived its override scope.
  public static func forceRejectAll() throws {
    try InjectionRules.checkNotRecording()
    try InjectionRules.checkScopeNotEnded()
    ForceInjector.shared.forceRejectAll()
  }

  /// Fills `object` with the shared injector's decisions and returns it (see
  /// `ForceInjector/fill(_:policy:)`). Call it in `init` (`try Injection.fill(self)`) or right after.
  @discardableResult
  public static func fill<Object: AnyObject>(_ object: Object, policy: FillPolicy = .overwrite) throws -> Object {
    try ForceInjector.shared.fill(object, policy: policy)
    return object
  }
}

extension InjectionRules {
  /// Adds a decision closure to ``ForceInjector/shared`` when the batch commits (nothing is added if the
  /// batch fails), in place of the rule with the same `key` if it has one. A scoped closure is asked
  /// about its classes' fields here, so a value that does not fit throws from this call and the block
  /// fails.
  ///
  /// ```swift
  /// try Injection.imperative { lets in
  ///   try lets.forceInject(in: Checkout.self) { $0.name == "gateway" ? .value(gateway) : .skip }
  /// }
  /// ```
  public func forceInject(
    in classes: AnyClass..., key: String? = nil, decide: @escaping @Sendable (ForceProperty) -> ForceDecision
  ) throws {
    try checkNotEnded()
    let rule = try ForceInjector.checkedRule(in: classes, key: key, decide: decide)
    onCommit { ForceInjector.shared.install(.inject(rule)) }
  }

  /// Hides the shared injector's older decisions for the properties `predicate` selects, when the batch
  /// commits.
  public func forceReject(where predicate: @escaping @Sendable (ForceProperty) -> Bool) {
    onCommit { ForceInjector.shared.forceReject(where: predicate) }
  }

  /// Removes every rule of the shared injector when the batch commits.
  public func forceRejectAll() {
    onCommit { ForceInjector.shared.forceRejectAll() }
  }
}
