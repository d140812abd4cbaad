public import InjectionKernel

/// The verbs: what the selected `@Inject` properties get. In a batch (`lets.inject(…)`) they record and
/// return `nil`; from `Injection.inject(…)` they commit at once and return what the commit did.
extension InjectSelection where Value: Sendable {
  /// Injects a value: a read returns the instance's stored value if it has one, otherwise `value`.
  /// Setting a value stores it for that instance; setting `nil` on an optional brings `value` back.
  /// Selected by type alone (`inject(Logger.self)`), it also reaches properties declared `Logger?`.
  ///
  /// Every instance on every thread reads the same value, so it must be `Sendable`; for a value you
  /// vouch for whose type is not, pass `UncheckedSendable` (`value(UncheckedSendable(cache))`).
  @discardableResult
  public func value(_ value: Value) throws -> InjectionPlan? {
    try injectValue(value, summary: "value")
  }

  /// Injects one value created by `make` on the first read anywhere and shared by every instance
  /// (exactly once, even under concurrent first reads). The value must be `Sendable`; for one you vouch for
  /// whose type is not, return `UncheckedSendable` (`shared { UncheckedSendable(Cache()) }`).
  @discardableResult
  public func shared(_ make: @escaping @Sendable () -> Value) throws -> InjectionPlan? {
    try injectShared(make, summary: "shared")
  }
}

extension InjectSelection {
  /// Injects a value whose type is not `Sendable` but which the caller vouches is safe to share between
  /// threads (synchronized inside, or never mutated): `value(UncheckedSendable(cache))`. Nothing checks it.
  @discardableResult
  public func value(_ value: UncheckedSendable<Value>) throws -> InjectionPlan? {
    try injectValue(value.value, summary: "unchecked value")
  }

  /// Injects one shared value whose type is not `Sendable` but which the caller vouches is safe to share
  /// between threads: `shared { UncheckedSendable(Cache()) }`. Nothing checks it.
  @discardableResult
  public func shared(_ make: @escaping @Sendable () -> UncheckedSendable<Value>) throws -> InjectionPlan? {
    try injectShared({ make().value }, summary: "unchecked shared")
  }

  private func injectValue(_ value: Value, summary: String) throws -> InjectionPlan? {
    try apply(
      PropertyInjection(read: .value(value), summary: "\(summary) \(Injection.typeName(Value.self))"),
      typeKeyed: .value(value), reachesOptionals: true)
  }

  private func injectShared(_ make: @escaping @Sendable () -> Value, summary: String) throws -> InjectionPlan? {
    let shared = SharedValue(make)
    return try apply(
      PropertyInjection(read: .shared(shared), summary: "\(summary) \(Injection.typeName(Value.self))"),
      typeKeyed: .shared({ shared.get() }), reachesOptionals: true)
  }

  /// Injects a getter called on every read with the instance, its storage and the original behaviour.
  ///
  /// It needs an instance, so it reaches class properties only: selected by type alone, it leaves
  /// struct and `static` properties of the type their stored value, else `nil` for an optional, and a
  /// non-optional's read stops saying so (it replaces a value injected for them by type before).
  @discardableResult
  public func getter(_ getter: @escaping PropertyInjection<Value>.Getter) throws -> InjectionPlan? {
    try apply(
      PropertyInjection(read: .getter(getter), summary: InstanceVerb.getter.rawValue),
      typeKeyed: .classesOnly(verb: InstanceVerb.getter.description))
  }

  /// Injects a setter called on every write with the instance, its storage, the new value and the
  /// original behaviour; reads keep their plain behaviour.
  ///
  /// It reaches class properties only, as ``getter(_:)`` does: a struct's write stores the value, and a
  /// read of a non-optional with nothing stored stops saying so.
  @discardableResult
  public func setter(_ setter: @escaping PropertyInjection<Value>.Setter) throws -> InjectionPlan? {
    try apply(
      PropertyInjection(read: .original, write: setter, summary: InstanceVerb.setter.rawValue),
      typeKeyed: .classesOnly(verb: InstanceVerb.setter.description))
  }

  /// Injects a getter and a setter together; class properties only, as ``getter(_:)``.
  @discardableResult
  public func getter(
    _ getter: @escaping PropertyInjection<Value>.Getter, setter: @escaping PropertyInjection<Value>.Setter
  ) throws -> InjectionPlan? {
    try apply(
      PropertyInjection(read: .getter(getter), write: setter, summary: InstanceVerb.getterAndSetter.rawValue),
      typeKeyed: .classesOnly(verb: InstanceVerb.getterAndSetter.description))
  }

  /// DeluxeInjection's `DIGetterIfIvarIsNil`: when the instance's storage is empty, `make` fills it;
  /// after the property is set to `nil` the next read fills it again.
  ///
  /// It fills an instance's storage, so it reaches class properties only: a struct's read cannot store
  /// (its getter does not mutate) and has no instance to give `make`. Selected by type alone, it leaves
  /// struct and `static` properties as ``getter(_:)`` does.
  @discardableResult
  public func ifNil(_ make: @escaping @Sendable (_ target: AnyObject) -> Value) throws -> InjectionPlan? {
    try apply(
      PropertyInjection(read: .fill(make, once: false), summary: InstanceVerb.ifNil.rawValue),
      typeKeyed: .classesOnly(verb: InstanceVerb.ifNil.description), reachesOptionals: true)
  }

  /// DeluxeInjection's `DIGetterIfIvarIsNilOnce`: `make` fills the storage at most once per instance.
  /// Class properties only, as ``ifNil(_:)``.
  @discardableResult
  public func ifNilOnce(_ make: @escaping @Sendable (_ target: AnyObject) -> Value) throws -> InjectionPlan? {
    try apply(
      PropertyInjection(read: .fill(make, once: true), summary: InstanceVerb.ifNilOnce.rawValue),
      typeKeyed: .classesOnly(verb: InstanceVerb.ifNilOnce.description), reachesOptionals: true)
  }

  /// Removes the injection of the selected properties: they behave as if never injected — except that a
  /// rejection naming a subclass of the declaring class removes that subclass's own injections only, so
  /// the declaring class's injection shows through there (name the declaring class to empty them all).
  ///
  /// On a named binding (`Injection.inject(_:named:)`) it unbinds the name: the name's bindings are
  /// taken back — the app's and the modules' — and the properties with that name (and `resolve(_:named:)`)
  /// get the type's binding again, as for a name nothing is bound to. (In a module's `configure`, and
  /// after binding the name in the same batch, it rejects the name instead: removing the module brings
  /// the name's bindings back.) To leave such properties empty, reject them as a selection:
  /// `Injection.inject(Database.self).named("backup").reject()`.
  @discardableResult
  public func reject() throws -> InjectionPlan? {
    try applyRejection()
  }
}

extension InjectSelection where Value: ExpressibleByNilLiteral & SendableMetatype {
  /// Injects `object` held weakly: reads return it while it lives and `nil` (or the stored value)
  /// afterwards. For optional class-typed properties such as `@Inject var delegate: Delegate?`.
  /// The injection does not keep `object` alive: it is deallocated as soon as its last owner lets go
  /// (a read's caller owns what the read returned, as with any property). Selected by type alone, it
  /// also reaches struct and `static` properties of the type, the same way (their stored value first).
  ///
  /// Every instance on every thread reads the object, so it must be `Sendable`; for one you vouch for
  /// whose type is not, pass `UncheckedSendable` (`weak(UncheckedSendable(delegate))`).
  ///
  /// - Throws: `InjectionError.typeMismatch(property:expected:given:)` when `object` is not a
  ///   `Value` (a `Logger` for a `Delegate?` property), and the typed errors of a commit.
  @discardableResult
  public func weak<Object: AnyObject & Sendable>(_ object: Object) throws -> InjectionPlan? {
    try injectWeak(object)
  }

  /// Injects an object held weakly whose type is not `Sendable` but which the caller vouches is safe to
  /// share between threads: `weak(UncheckedSendable(delegate))`. Nothing checks it.
  @discardableResult
  public func weak<Object: AnyObject>(_ object: UncheckedSendable<Object>) throws -> InjectionPlan? {
    try injectWeak(object.value)
  }

  private func injectWeak(_ object: AnyObject) throws -> InjectionPlan? {
    // Refused here: a read would find the object is not a `Value` and return `nil` on every instance.
    guard object as? Value != nil else {
      throw InjectionError.typeMismatch(
        property: "a property that weak(_:) selects (\(selection))", expected: Injection.typeName(Value.self),
        given: Injection.typeName(type(of: object)))
    }
    let reference = WeakReference(object)
    return try apply(
      PropertyInjection(
        read: .getter { _, storage, original in
          if let stored = storage { return stored }
          return reference.object.flatMap { $0 as? Value } ?? original.get(nil)
        }, summary: "weak \(Injection.typeName(type(of: object)))"),
      typeKeyed: .weak(reference))
  }
}

/// A weak reference shared by the readers of a weak injection.
final class WeakReference: @unchecked Sendable {  // `object` is a weak reference; loads of weak refs are atomic
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}

/// The verbs whose injection is called with the instance whose property it serves — so it reaches class
/// properties only, and no resolve — told apart by the summary they give their injection (a `weak`
/// injection is a getter too, and a binding).
enum InstanceVerb: String, CustomStringConvertible {
  case getter = "getter"
  case setter = "setter"
  case getterAndSetter = "getter and setter"
  case ifNil = "created if nil"
  case ifNilOnce = "created once if nil"

  init?(summary: String) { self.init(rawValue: summary) }

  /// How a message names the verb: `a getter`.
  var description: String {
    switch self {
    case .getter: "a getter"
    case .setter: "a setter"
    case .getterAndSetter: "a getter and setter"
    case .ifNil: "an ifNil factory"
    case .ifNilOnce: "an ifNilOnce factory"
    }
  }
}
