import InjectionKernel
import Synchronization

/// A registered way to build `@Lazy` values: for one value type, or for the properties a selection
/// matches.
struct LazyFactory: Sendable {
  enum Scope: Sendable {
    case type(ObjectIdentifier)
    case selection(PropertySelection)
  }

  let scope: Scope
  let make: @Sendable (AnyObject) -> Any

  func applies(to property: PropertyDescriptor) -> Bool {
    switch scope {
    case .type(let id):
      // A factory for `T` also serves `T?` properties.
      let wrapped = (property.valueType as? any OptionalType.Type)?.wrappedType
      return id == ObjectIdentifier(property.valueType) || wrapped.map { ObjectIdentifier($0) == id } == true
    case .selection(let selection): return selection.matches(property)
    }
  }

  /// Per-property factories win over per-type ones.
  var precedence: Int {
    if case .selection = scope { return 1 }
    return 0
  }
}

/// The committed factories. A creation asks for the newest factory of the highest precedence that
/// applies, so registering a factory before or after `injectLazy()` makes no difference.
final class LazyFactories: Sendable {
  static let shared = LazyFactories()

  private let factories = Mutex<[LazyFactory]>([])

  func register(_ new: [LazyFactory]) {
    factories.withLock { $0 += new }
  }

  /// Forgets every factory (`rejectLazy()`).
  func removeAll() {
    factories.withLock { $0.removeAll() }
  }

  func factory(for property: PropertyDescriptor, pending: [LazyFactory] = []) -> LazyFactory? {
    let all = factories.withLock { $0 } + pending
    return all.enumerated().filter { $0.element.applies(to: property) }
      .max { ($0.element.precedence, $0.offset) < ($1.element.precedence, $1.offset) }?.element
  }

  func canBuild(_ property: PropertyDescriptor, pending: [LazyFactory]) -> Bool {
    factory(for: property, pending: pending) != nil
  }

  /// A new value for `property` of `target`.
  func make<Value>(_ type: Value.Type, for property: PropertyDescriptor, target: AnyObject) -> Value {
    if let factory = factory(for: property), let value = factory.make(target) as? Value { return value }
    guard let value = LazyConstruction.build(type) else {
      Injection.stop(
        "\(property) cannot be built by @Lazy: no factory is registered and it does not conform to "
          + "LazyConstructible; register one with Injection.injectLazy(\(Injection.metatypeExpression(of: type))) { … }."
      )
    }
    return value
  }
}

/// The wrapped type of an optional type.
protocol OptionalType {
  static var wrappedType: Any.Type { get }
}

extension Optional: OptionalType {
  static var wrappedType: Any.Type { Wrapped.self }
}
