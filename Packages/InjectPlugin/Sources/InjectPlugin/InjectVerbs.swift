public import InjectionKernel

/// The verbs: what the selected `@Inject` properties get. In a batch (`lets.inject(…)`) they record and
/// return `nil`; from `Injection.inject(…)` they commit at once and return what the commit did.
extension InjectSelection {
  /// Injects a value: a read returns the instance's stored value if it has one, otherwise `value`.
  /// Setting a value stores it for that instance; setting `nil` on an optional brings `value` back.
  @discardableResult
  public func value(_ value: Value) throws -> InjectionPlan? {
    try apply(
      PropertyInjection(read: .value(value), summary: "value \(Injection.typeName(Value.self))"),
      typeKeyed: .value(value))
  }

  /// Injects one value created by `make` on the first read anywhere and shared by every instance
  /// (exactly once, even under concurrent first reads).
  @discardableResult
  public func shared(_ make: @escaping @Sendable () -> Value) throws -> InjectionPlan? {
    let shared = SharedValue(make)
    return try apply(
      PropertyInjection(read: .shared(shared), summary: "shared \(Injection.typeName(Value.self))"),
      typeKeyed: .shared({ shared.get() }))
  }

  /// Injects a getter called on every read with the instance, its storage and the original behaviour.
  @discardableResult
  public func getter(_ getter: @escaping PropertyInjection<Value>.Getter) throws -> InjectionPlan? {
    try apply(PropertyInjection(read: .getter(getter), summary: "getter"), typeKeyed: nil)
  }

  /// Injects a setter called on every write with the instance, its storage, the new value and the
  /// original behaviour; reads keep their plain behaviour.
  @discardableResult
  public func setter(_ setter: @escaping PropertyInjection<Value>.Setter) throws -> InjectionPlan? {
    try apply(PropertyInjection(read: .original, write: setter, summary: "setter"), typeKeyed: nil)
  }

  /// Injects a getter and a setter together.
  @discardableResult
  public func getter(
    _ getter: @escaping PropertyInjection<Value>.Getter, setter: @escaping PropertyInjection<Value>.Setter
  ) throws -> InjectionPlan? {
    try apply(PropertyInjection(read: .getter(getter), write: setter, summary: "getter and setter"), typeKeyed: nil)
  }

  /// DeluxeInjection's `DIGetterIfIvarIsNil`: when the instance's storage is empty, `make` fills it;
  /// after the property is set to `nil` the next read fills it again.
  @discardableResult
  public func ifNil(_ make: @escaping @Sendable (_ target: AnyObject) -> Value) throws -> InjectionPlan? {
    try apply(PropertyInjection(read: .fill(make, once: false), summary: "created if nil"), typeKeyed: nil)
  }

  /// DeluxeInjection's `DIGetterIfIvarIsNilOnce`: `make` fills the storage at most once per instance.
  @discardableResult
  public func ifNilOnce(_ make: @escaping @Sendable (_ target: AnyObject) -> Value) throws -> InjectionPlan? {
    try apply(PropertyInjection(read: .fill(make, once: true), summary: "created once if nil"), typeKeyed: nil)
  }

  /// Removes the injection of the selected properties: they behave as if never injected.
  @discardableResult
  public func reject() throws -> InjectionPlan? {
    try applyRejection()
  }
}

extension InjectSelection where Value: ExpressibleByNilLiteral & SendableMetatype {
  /// Injects `object` held weakly: reads return it while it lives and `nil` (or the stored value)
  /// afterwards. For optional class-typed properties such as `@Inject var delegate: Delegate?`.
  /// The injection does not keep `object` alive: it is deallocated as soon as its last owner lets go
  /// (a read's caller owns what the read returned, as with any property).
  @discardableResult
  public func weak(_ object: AnyObject) throws -> InjectionPlan? {
    let reference = WeakReference(object)
    return try apply(
      PropertyInjection(
        read: .getter { _, storage, original in
          if let stored = storage { return stored }
          return reference.object.flatMap { $0 as? Value } ?? original.get(nil)
        }, summary: "weak \(Injection.typeName(type(of: object)))"),
      typeKeyed: nil)
  }
}

/// A weak reference shared by the readers of a weak injection.
final class WeakReference: @unchecked Sendable {  // `object` is a weak reference; loads of weak refs are atomic
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}
