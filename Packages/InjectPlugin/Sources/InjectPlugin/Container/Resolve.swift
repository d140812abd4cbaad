public import InjectionKernel

extension Injection {
  /// What an `@Inject var x: Value` reads under the current rules — from any thread, with no instance
  /// and no property needed: OCInject's `OCInject(Class)`, Gummi Injection's `getObject`. Inside an
  /// override scope (`Injection/withOverrides(_:_:)-(_,()->Result)`) or a child injector, their rules
  /// apply, as they do to reads.
  ///
  /// ```swift
  /// try Injection.inject((any Engine).self).to(HybridEngine.self)
  /// let engine = try Injection.resolve((any Engine).self)
  /// let backup = try Injection.resolve(Database.self, named: "backup")
  /// let logger = try Injection.resolve(Logger?.self)  // nil when nothing is bound
  /// ```
  ///
  /// A name selects the binding made with ``inject(_:named:)`` — what an `@Inject` property with that
  /// name reads, so a binding of the type alone answers when no binding has the name. `arguments` reach
  /// the factory of a provider (a singleton's first build only) through ``Resolver/arguments``.
  ///
  /// - Throws: ``ResolutionError/unbound(type:name:hint:)`` when nothing is bound to a non-optional
  ///   type; ``ResolutionError/cycle(_:)`` when a factory needs, through its resolver, the value it is
  ///   building; and whatever a factory throws.
  public static func resolve<Value>(_ type: Value.Type = Value.self, named name: String? = nil, arguments: Any...)
    throws -> Value
  {
    try Resolution.resolve(type, named: name, arguments: arguments)
  }

  /// Every binding of `type`, in the order they were first registered — the unnamed one and each named
  /// one (``inject(_:named:)``) — each resolved as ``resolve(_:named:arguments:)`` would; a name whose rule
  /// is a getter, a setter or an `ifNil` factory, which need an instance, is left out.
  ///
  /// ```swift
  /// try Injection.inject((any Plugin).self, named: "audio").to(AudioPlugin.self)
  /// try Injection.inject((any Plugin).self, named: "video").to(VideoPlugin.self)
  /// let plugins = try Injection.resolveAll((any Plugin).self)  // [AudioPlugin, VideoPlugin]
  /// ```
  public static func resolveAll<Value>(_ type: Value.Type = Value.self) throws -> [Value] {
    // A name whose rule is a getter, a setter or an `ifNil` factory, which need an instance, is left out
    // (before, it made the whole call throw: found by review H73).
    try ContainerState.shared.value.bindingNames(of: type).compactMap { name in
      try Resolution.resolve(type, named: name.isEmpty ? nil : name, arguments: [], skippingInstanceVerbs: true)
    }
  }

  /// Selects the binding of `type` named `name`: the `@Inject` properties of that type named `name` in
  /// any class, and what ``resolve(_:named:arguments:)`` returns for that name. A name that no property
  /// has yet is not a mistake here. The verb commits at once.
  ///
  /// ```swift
  /// try Injection.inject(Database.self, named: "backup").singleton { _ in Database(url: backupURL) }
  /// ```
  public static func inject<Value>(_ type: Value.Type, named name: String) -> InjectSelection<Value> {
    InjectSelection(
      selection: PropertySelection(plugin: InjectPlugin.id).ofType(type).named(name).mayMatchLater(), rules: nil,
      isTypeOnly: false, bindingName: name)
  }
}

extension InjectionRules {
  /// Selects the binding of `type` named `name` (see ``Injection/inject(_:named:)``), in a batch.
  public func inject<Value>(_ type: Value.Type, named name: String) -> InjectSelection<Value> {
    InjectSelection(
      selection: PropertySelection(plugin: InjectPlugin.id).ofType(type).named(name).mayMatchLater(), rules: self,
      isTypeOnly: false, bindingName: name)
  }
}

/// Resolving: the rules' injection for a detached `@Inject` property, read as a property would.
enum Resolution {
  static func resolve<Value>(_ type: Value.Type, named name: String?, arguments: [Any]) throws -> Value {
    // Never nil: only `skippingInstanceVerbs` makes it so.
    try resolve(type, named: name, arguments: arguments, skippingInstanceVerbs: false)!
  }

  /// `nil`, with `skippingInstanceVerbs`, when the rule for the type and name is a getter, a setter or an
  /// `ifNil` factory (``InstanceVerb``); otherwise the value, or the error a resolve throws.
  static func resolve<Value>(
    _ type: Value.Type, named name: String?, arguments: [Any], skippingInstanceVerbs: Bool
  ) throws -> Value? {
    let marker = Inject<Value>.self
    let propertyName = name ?? ""
    /// The verb of a rule that needs an instance (a getter, an `ifNil` factory), which a resolve has not.
    var classesOnlyVerb: String?
    if let injection = Injection.detachedInjection(of: marker, named: propertyName) {
      if let binding = BindingRegistry.binding(for: injection) {
        if binding.valueType == Value.self {
          return try unsafeDowncast(binding, to: ContainerBinding<Value>.self).resolve(arguments: arguments)
        }
        if let value = try binding.resolveAny(arguments: arguments) as? Value { return value }
      } else if injection.valueType == Value.self {
        // The kernel gives a property of `Value` only injections made for `Value`.
        let typed = unsafeDowncast(injection, to: PropertyInjection<Value>.self)
        // A getter or an `ifNil` factory is called with the instance whose property it serves: a resolve has
        // none to give it, as a struct's or a static's read has not (before, it got a stand-in object, and a
        // getter casting its target to the class it was written for crashed: found by review H72).
        classesOnlyVerb = InstanceVerb(summary: typed.summary)?.description
        if classesOnlyVerb == nil,
          let value = Injection.detachedRead(typed, of: marker, named: propertyName)
        {
          return value
        }
      }
    }
    if skippingInstanceVerbs, classesOnlyVerb != nil { return nil }
    if let none = Injection.none(of: Value.self) { return none }
    var hint = ResolutionError.hint(for: Value.self, name: name)
    if let classesOnlyVerb {
      hint +=
        " (its rule, \(classesOnlyVerb), is called with the instance whose property it serves, so it "
        + "reaches class properties only)"
    }
    if Value.self is any Constructible.Type, !ContainerState.shared.value.constructsUnboundTypes {
      hint += " (or build unbound types with Injection.constructUnboundTypes())"
    }
    throw ResolutionError.unbound(type: Injection.typeName(Value.self), name: name, hint: hint)
  }
}
