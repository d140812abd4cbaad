import InjectionKernel

/// A registry of services by property name — OBInjector's `OBPropertyInjector` and APServiceBox's
/// service box: `fill(_:)` writes each registered service into the object's stored `var` of the same
/// name, superclasses' properties included, when the service's type fits the property's (the same class,
/// a subclass, a conforming type; an optional property accepts the wrapped type).
///
/// ```swift
/// let box = ServiceBox()
/// box.register(AnalyticsService(), as: "analyticsService")
/// box.register("currentDate") { Date() }       // a new value for each fill
/// box.fill(screen)   // screen.analyticsService, screen.currentDate, screen.serviceBox are set
/// ```
///
/// - The box registers itself under its ``name`` (`"serviceBox"` by default): a property of the box's
///   type named so receives the box.
/// - Registering a name twice keeps the first registration.
/// - On each fill, the instances registered since the previous fill are first filled from the box, so
///   registered services receive each other (APServiceBox's cross-dependency injection); a fill on another
///   thread meanwhile waits for them, so no fill hands out a service still being filled (a provider or a
///   ``FillObserver`` run by that cross-fill must not itself wait for such a fill on another thread).
/// - A name the object lacks, a `let`, a marked property, or a value of the wrong type is skipped
///   without an error; the returned ``FillReport`` says what was written and why the rest was not.
/// - An object adopting ``FillObserver`` is told after a fill that wrote something.
///
/// Filling is meant for objects not yet shared with other threads (in `init`, or right after). The box
/// itself is thread-safe: registrations, lookups and fills may run on any thread.
public final class ServiceBox: Sendable {
  /// The process-wide box, as APServiceBox's `defaultBox` and OBInjector's injector controller.
  public static let `default` = ServiceBox()

  /// A registered service.
  private enum Registration: @unchecked Sendable {  // payloads are immutable; services are shared like any injection
    case instance(Any, crossFilled: Bool)
    case provider(@Sendable () -> Any)
    /// The box itself (nothing is stored: the table does not keep its own box alive).
    case box
  }

  private struct State {
    var registrations: [String: Registration] = [:]
    var order: [String] = []
    var configured = false
    /// Registered instances not filled from the box yet.
    var instancesToCrossFill = 0
    /// Cross-fills taken but not finished (their services are being filled).
    var crossFillsRunning = 0
  }

  /// The name the box registers itself under.
  public let name: String
  /// Whether fills overwrite properties that hold a value (APServiceBox) or fill only empty ones
  /// (OBInjector); a fill can ask for the other.
  public let policy: FillPolicy
  private let state = LockedState(State())
  /// Held while `configureOnce` runs its `configure`: callers on other threads wait for it to finish.
  private let configuration = RecursiveLock()
  /// Held while a fill fills the services registered since the previous fill: a fill on another thread
  /// waits for them to be filled before it hands them out (recursive: a provider or a `FillObserver` run
  /// by the cross-fill may fill from the box on the same thread).
  private let crossFilling = RecursiveLock()

  /// A box registered under `name`, filling with `policy`.
  public init(name: String = "serviceBox", policy: FillPolicy = .overwrite) {
    self.name = name
    self.policy = policy
    state.withLock { state in
      state.registrations[name] = .box
      state.order.append(name)
    }
  }

  // MARK: Registering

  /// Registers `instance` under the property name `name`; every fill injects this same instance.
  /// Returns `false`, changing nothing, when `name` is already registered (the first registration wins).
  @discardableResult
  public func register(_ instance: Any, as name: String) -> Bool {
    add(.instance(instance, crossFilled: false), as: name)
  }

  /// Registers a provider under the property name `name`: each fill that writes the property asks it for
  /// a new value. Returns `false`, changing nothing, when `name` is already registered.
  @discardableResult
  public func register(_ name: String, provider: @escaping @Sendable () -> Any) -> Bool {
    add(.provider(provider), as: name)
  }

  private func add(_ registration: Registration, as name: String) -> Bool {
    state.withLock { state in
      guard state.registrations[name] == nil else { return false }
      state.registrations[name] = registration
      state.order.append(name)
      if case .instance = registration { state.instancesToCrossFill += 1 }
      return true
    }
  }

  /// Runs `configure` the first time it is called on this box and ignores every later call (OBInjector's
  /// `configureInjector:`); returns whether it ran. A call made while the first one's `configure` runs on
  /// another thread waits for it to finish, so it finds the box configured (a call from inside
  /// `configure` returns `false` at once). A `configure` that throws counts as the one run. Fills before
  /// it simply find nothing registered.
  @discardableResult
  public func configureOnce(_ configure: (ServiceBox) throws -> Void) rethrows -> Bool {
    try configuration.withLock {
      let first = state.withLock { state in
        defer { state.configured = true }
        return !state.configured
      }
      if first { try configure(self) }
      return first
    }
  }

  // MARK: Looking up

  /// The service registered under `name`: the instance, a new value from the provider, the box itself
  /// for its own name, or `nil`.
  public func lookup(_ name: String) -> Any? {
    switch state.withLock({ $0.registrations[name] }) {
    case .instance(let instance, _): return instance
    case .provider(let make): return make()
    case .box: return self
    case nil: return nil
    }
  }

  /// Whether something is registered under `name`.
  public func isRegistered(_ name: String) -> Bool { state.withLock { $0.registrations[name] != nil } }

  /// How many names are registered, the box's own name included.
  public var count: Int { state.withLock { $0.registrations.count } }

  /// The registered names, in registration order (the box's own name first, unless removed).
  public var names: [String] { state.withLock { $0.order } }

  /// Removes the registration under `name`; returns whether there was one. The name can be registered
  /// again afterwards.
  @discardableResult
  public func remove(_ name: String) -> Bool {
    state.withLock { state in
      guard let removed = state.registrations.removeValue(forKey: name) else { return false }
      if case .instance(_, crossFilled: false) = removed { state.instancesToCrossFill -= 1 }
      state.order.removeAll { $0 == name }
      return true
    }
  }

  /// Removes every registration, the box's own included.
  public func removeAll() {
    state.withLock { state in
      state.registrations.removeAll()
      state.order.removeAll()
      state.instancesToCrossFill = 0
    }
  }

  // MARK: Filling

  /// Writes the registered services into `object`'s stored `var`s of the same names, with the box's
  /// ``policy``, and returns what was written and what was skipped and why. Never throws: mismatches are
  /// skipped and reported.
  @discardableResult
  public func fill<Object: AnyObject>(_ object: Object) -> FillReport {
    fill(object, policy: policy)
  }

  /// `fill(_:)` with another policy than the box's.
  @discardableResult
  public func fill<Object: AnyObject>(_ object: Object, policy: FillPolicy) -> FillReport {
    crossFill(policy: policy)
    return fillOnly(object, policy: policy)
  }

  /// Fills any value: class instances as ``fill(_:)``; a struct, an enum or any other value throws
  /// ``ForceError/notAClass(type:)``.
  @discardableResult
  public func fill(_ value: Any) throws -> FillReport {
    fill(try ForceInjector.instance(value), policy: policy)
  }

  /// Fills the instances registered since the previous fill from the box, or waits for the fill on another
  /// thread that is filling them: a fill never hands out a service still being filled elsewhere (only one
  /// being filled further up its own thread's stack, by a provider or an observer that fills from the box).
  /// With nothing registered since and no cross-fill running, one look at the state.
  private func crossFill(policy: FillPolicy) {
    guard state.withLock({ $0.instancesToCrossFill > 0 || $0.crossFillsRunning > 0 }) else { return }
    crossFilling.withLock {
      let services = servicesToCrossFill()
      defer { state.withLock { $0.crossFillsRunning -= 1 } }
      for service in services { _ = fillOnly(service, policy: policy) }
    }
  }

  /// The registered instances not filled from the box yet, marked as filled, and the cross-fill counted as
  /// running (the caller holds `crossFilling` and counts it finished when the services are filled).
  private func servicesToCrossFill() -> [AnyObject] {
    state.withLock { state in
      state.crossFillsRunning += 1
      state.instancesToCrossFill = 0
      var services: [AnyObject] = []
      for name in state.order {
        guard case .instance(let instance, crossFilled: false) = state.registrations[name] else { continue }
        state.registrations[name] = .instance(instance, crossFilled: true)
        if type(of: instance) is AnyClass { services.append(instance as AnyObject) }
      }
      return services
    }
  }

  private func fillOnly(_ object: AnyObject, policy: FillPolicy) -> FillReport {
    let cls: AnyClass = type(of: object)
    let (registrations, order) = state.withLock { ($0.registrations, $0.order) }
    let fields = ClassLayouts.shared.fieldsByName(of: cls)
    var report = FillReport(className: Injection.typeName(cls))
    for name in order {
      guard let registration = registrations[name] else { continue }
      let matching = fields.filter { $0.property.name == name }
      if matching.isEmpty { report.recordSkipped(name, nil, .noSuchProperty) }
      for field in matching {
        write(registration, named: name, into: field, of: object, policy: policy, report: &report)
      }
    }
    if report.didInject, let observer = object as? any FillObserver {
      observer.didInjectDependencies(report)
    }
    return report
  }

  private func write(
    _ registration: Registration, named name: String, into field: FillableField, of object: AnyObject,
    policy: FillPolicy, report: inout FillReport
  ) {
    let property = field.property
    if let plugin = property.descriptor.plugin {
      return report.recordSkipped(name, property, .marked(plugin: plugin.name))
    }
    guard property.isMutable else { return report.recordSkipped(name, property, .immutable) }
    guard let access = field.access else { return report.recordSkipped(name, property, field.skipReason) }
    if policy == .onlyIntoEmpty && !access.isEmpty(in: object) {
      return report.recordSkipped(name, property, .notEmpty)
    }
    let value: Any
    switch registration {
    case .instance(let instance, _): value = instance
    case .box: value = self
    case .provider(let make):
      guard property.ownership != .unowned && property.ownership != .weak else {
        return report.recordSkipped(
          name, property,
          .unsupportedOwnership(property.ownership, reason: "a provider's new value would have no owner"))
      }
      value = make()
    }
    guard access.accepts(value) else {
      return report.recordSkipped(
        name, property,
        .typeMismatch(expected: property.valueTypeName, given: Injection.typeName(type(of: value))))
    }
    access.store(value, in: object)
    report.recordInjected(property)
  }
}
