extension InjectionRules {
  /// Turns associate-backed properties on again after ``rejectAssociate()``: they read and write their
  /// owners' storage. (They are on from the start; this is DeluxeInjection's `injectAssociate`.)
  public func injectAssociate() {
    reject(PropertySelection(plugin: AssociatePlugin.id))
  }

  /// Turns on again the associate-backed properties declared for `classes` (or their subclasses).
  public func injectAssociate(in classes: AnyClass...) {
    reject(PropertySelection(plugin: AssociatePlugin.id).declared(in: classes))
  }

  /// Turns associate-backed properties off: until ``injectAssociate()``, reading or writing one stops the
  /// program with a message naming the property and that call.
  public func rejectAssociate() {
    rejectAssociate(PropertySelection(plugin: AssociatePlugin.id))
  }

  /// Turns off the associate-backed properties declared for `classes` (or their subclasses).
  public func rejectAssociate(in classes: AnyClass...) {
    rejectAssociate(PropertySelection(plugin: AssociatePlugin.id).declared(in: classes))
  }

  func rejectAssociate(_ selection: PropertySelection) {
    add(to: selection, intent: "Associate.reject") { property in
      (property.markerType as? any RejectableAssociate.Type)?.rejectedInjection(for: property)
    }
  }
}

/// Builds the stopping injection of a rejected property with the property's own value type.
private protocol RejectableAssociate {
  static func rejectedInjection(for property: PropertyDescriptor) -> AnyPropertyInjection
}

extension Associate: RejectableAssociate {
  fileprivate static func rejectedInjection(for property: PropertyDescriptor) -> AnyPropertyInjection {
    let message = AssociatePlugin.rejectedMessage(for: property)
    return PropertyInjection<Value>(
      read: .getter { _, _, _ in Injection.stop(message) },
      write: { _, _, _, _ in Injection.stop(message) },
      summary: "rejected")
  }
}

extension AssociatePlugin {
  /// What a read or write of a rejected property stops with.
  static func rejectedMessage(for property: PropertyDescriptor) -> String {
    "\(property.description) was used while associate-backed properties are rejected; "
      + "call Injection.injectAssociate() to turn them on"
  }
}

extension Injection {
  /// Turns associate-backed properties on again at once (see ``InjectionRules/injectAssociate()``).
  @discardableResult
  public static func injectAssociate() throws -> InjectionPlan {
    let rules = InjectionRules()
    rules.injectAssociate()
    return try commit(rules)
  }

  /// Turns on again the associate-backed properties declared for `classes` (or their subclasses).
  @discardableResult
  public static func injectAssociate(in classes: AnyClass...) throws -> InjectionPlan {
    let rules = InjectionRules()
    rules.reject(PropertySelection(plugin: AssociatePlugin.id).declared(in: classes))
    return try commit(rules)
  }

  /// Turns associate-backed properties off at once (see ``InjectionRules/rejectAssociate()``).
  @discardableResult
  public static func rejectAssociate() throws -> InjectionPlan {
    let rules = InjectionRules()
    rules.rejectAssociate()
    return try commit(rules)
  }

  /// Turns off the associate-backed properties declared for `classes` (or their subclasses) at once.
  @discardableResult
  public static func rejectAssociate(in classes: AnyClass...) throws -> InjectionPlan {
    let rules = InjectionRules()
    rules.rejectAssociate(PropertySelection(plugin: AssociatePlugin.id).declared(in: classes))
    return try commit(rules)
  }
}
