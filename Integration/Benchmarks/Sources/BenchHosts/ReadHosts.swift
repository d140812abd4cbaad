import InjectPlugin
import LazyPlugin

// The classes the read figures read from. Their properties are internal, as an app's own classes'
// would be: only `Reads`, in this module, touches them (whole-module optimization then sees every
// access, as it would in an app).

/// The dependency every read returns.
public final class Service: Sendable {
  /// A payload the reads sum up, so nothing is optimized away.
  public let value: Int
  /// A service carrying `value`.
  public init(value: Int) { self.value = value }
}

/// The baseline: a plain stored property, assigned by hand.
public final class PlainHost {
  var service: Service
  var count = 1
  /// A host holding `service`.
  public init(service: Service) { self.service = service }
}

/// `@Inject` on a final class.
public final class FinalHost {
  @Inject var service: Service
  @Inject var count: Int
  /// An empty host.
  public init() {}
}

/// `@Inject` declared in a base class…
open class BaseHost {
  @Inject var service: Service
  /// An empty host.
  public init() {}
}

/// …and read through a subclass.
public final class SubclassHost: BaseHost {
  /// An empty host.
  public override init() {}
}

/// `@Inject` in a generic class.
public final class GenericHost<Element> {
  @Inject var service: Service
  /// An empty host.
  public init() {}
}

/// `@Lazy` next to Swift's `lazy var`.
public final class LazyHost {
  @Lazy var items: [Int]
  lazy var swiftLazyItems: [Int] = [1]
  /// An empty host.
  public init() {}
}

/// `@Lazy` for files that also import swift-dependencies (which has a `Lazy` of its own).
typealias LazyWrapper<Value> = Lazy<Value>

/// A host no benchmark reads: the override scopes of the scope figures select it, so that a scope is
/// active without touching the properties being read.
public final class UnreadOverrideHost {
  @Inject var service: Service?
  /// An empty host.
  public init() {}
}
