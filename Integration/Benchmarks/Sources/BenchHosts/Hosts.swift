import InjectPlugin
import LazyPlugin

/// The dependency every read returns.
public final class Service: Sendable {
  /// A payload the reads sum up, so nothing is optimized away.
  public let value: Int
  /// A service carrying `value`.
  public init(value: Int) { self.value = value }
}

/// The baseline: a plain stored property.
public final class PlainHost {
  /// The dependency, assigned by hand.
  public var service: Service
  /// A host holding `service`.
  public init(service: Service) { self.service = service }
}

/// `@Inject` on a final class.
public final class FinalHost {
  /// The injected dependency.
  @Inject public var service: Service
  /// An empty host.
  public init() {}
}

/// `@Inject` declared in a base class…
open class BaseHost {
  /// The injected dependency, declared here and read through subclasses.
  @Inject public var service: Service
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
  /// The injected dependency.
  @Inject public var service: Service
  /// An empty host.
  public init() {}
}

/// `@Lazy` next to Swift's `lazy var`.
public final class LazyHost {
  /// Created by the first read once lazies are injected.
  @Lazy public var items: [Int]
  /// Swift's own lazy property.
  public lazy var swiftLazyItems: [Int] = []
  /// An empty host.
  public init() {}
}

/// Reads kept out of line, so each figure measures one property read per call.
public enum Reads {
  /// A plain stored-property read.
  @inline(never) public static func plain(_ host: PlainHost) -> Int { host.service.value }
  /// An `@Inject` read on a final class.
  @inline(never) public static func final(_ host: FinalHost) -> Int { host.service.value }
  /// An `@Inject` read declared in the base class.
  @inline(never) public static func subclass(_ host: BaseHost) -> Int { host.service.value }
  /// An `@Inject` read in a generic class.
  @inline(never) public static func generic(_ host: GenericHost<Int>) -> Int { host.service.value }
  /// A `@Lazy` read after creation.
  @inline(never) public static func lazy(_ host: LazyHost) -> Int { host.items.count }
  /// A Swift `lazy var` read after creation.
  @inline(never) public static func swiftLazy(_ host: LazyHost) -> Int { host.swiftLazyItems.count }
}
