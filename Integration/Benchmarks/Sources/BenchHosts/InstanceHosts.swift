import Dependencies
import InjectPlugin
import LazyPlugin
import Swinject

// Per-instance cost: create one instance with N class-typed dependencies, read each once, drop it.
// The same shape in plain Swift (dependencies through `init`), `@Inject`, `@Lazy`, Swift's `lazy var`,
// swift-dependencies' `@Dependency` and Swinject (each dependency resolved, transient scope).
// Written out for N = 1, 3 and 8.

/// Dependency 1 of the per-instance figures.
public final class Dep1: Sendable, LazyConstructible {
  /// What reads sum up.
  public let value: Int
  /// A dependency worth 1.
  public init() { value = 1 }
}

/// Dependency 2 of the per-instance figures.
public final class Dep2: Sendable, LazyConstructible {
  /// What reads sum up.
  public let value: Int
  /// A dependency worth 2.
  public init() { value = 2 }
}

/// Dependency 3 of the per-instance figures.
public final class Dep3: Sendable, LazyConstructible {
  /// What reads sum up.
  public let value: Int
  /// A dependency worth 3.
  public init() { value = 3 }
}

/// Dependency 4 of the per-instance figures.
public final class Dep4: Sendable, LazyConstructible {
  /// What reads sum up.
  public let value: Int
  /// A dependency worth 4.
  public init() { value = 4 }
}

/// Dependency 5 of the per-instance figures.
public final class Dep5: Sendable, LazyConstructible {
  /// What reads sum up.
  public let value: Int
  /// A dependency worth 5.
  public init() { value = 5 }
}

/// Dependency 6 of the per-instance figures.
public final class Dep6: Sendable, LazyConstructible {
  /// What reads sum up.
  public let value: Int
  /// A dependency worth 6.
  public init() { value = 6 }
}

/// Dependency 7 of the per-instance figures.
public final class Dep7: Sendable, LazyConstructible {
  /// What reads sum up.
  public let value: Int
  /// A dependency worth 7.
  public init() { value = 7 }
}

/// Dependency 8 of the per-instance figures.
public final class Dep8: Sendable, LazyConstructible {
  /// What reads sum up.
  public let value: Int
  /// A dependency worth 8.
  public init() { value = 8 }
}

private enum DepKey1: DependencyKey { static let liveValue = Dep1() }
private enum DepKey2: DependencyKey { static let liveValue = Dep2() }
private enum DepKey3: DependencyKey { static let liveValue = Dep3() }
private enum DepKey4: DependencyKey { static let liveValue = Dep4() }
private enum DepKey5: DependencyKey { static let liveValue = Dep5() }
private enum DepKey6: DependencyKey { static let liveValue = Dep6() }
private enum DepKey7: DependencyKey { static let liveValue = Dep7() }
private enum DepKey8: DependencyKey { static let liveValue = Dep8() }

extension DependencyValues {
  var dep1: Dep1 {
    get { self[DepKey1.self] }
    set { self[DepKey1.self] = newValue }
  }
  var dep2: Dep2 {
    get { self[DepKey2.self] }
    set { self[DepKey2.self] = newValue }
  }
  var dep3: Dep3 {
    get { self[DepKey3.self] }
    set { self[DepKey3.self] = newValue }
  }
  var dep4: Dep4 {
    get { self[DepKey4.self] }
    set { self[DepKey4.self] = newValue }
  }
  var dep5: Dep5 {
    get { self[DepKey5.self] }
    set { self[DepKey5.self] = newValue }
  }
  var dep6: Dep6 {
    get { self[DepKey6.self] }
    set { self[DepKey6.self] = newValue }
  }
  var dep7: Dep7 {
    get { self[DepKey7.self] }
    set { self[DepKey7.self] = newValue }
  }
  var dep8: Dep8 {
    get { self[DepKey8.self] }
    set { self[DepKey8.self] = newValue }
  }
}

/// 1 dependencies through `init`.
public final class PlainInstance1 {
  let d1: Dep1
  init(d1: Dep1) {
    self.d1 = d1
  }
}

/// 1 `@Inject` dependencies.
public final class InjectInstance1 {
  @Inject var d1: Dep1
  init() {}
}

/// 1 `@Lazy` dependencies.
public final class LazyInstance1 {
  @LazyWrapper var d1: Dep1
  init() {}
}

/// 1 Swift `lazy var` dependencies.
public final class SwiftLazyInstance1 {
  lazy var d1 = Dep1()
  init() {}
}

/// 1 swift-dependencies `@Dependency` dependencies.
public final class DependencyInstance1 {
  @Dependency(\.dep1) var d1: Dep1
  init() {}
}

/// 3 dependencies through `init`.
public final class PlainInstance3 {
  let d1: Dep1
  let d2: Dep2
  let d3: Dep3
  init(d1: Dep1, d2: Dep2, d3: Dep3) {
    self.d1 = d1
    self.d2 = d2
    self.d3 = d3
  }
}

/// 3 `@Inject` dependencies.
public final class InjectInstance3 {
  @Inject var d1: Dep1
  @Inject var d2: Dep2
  @Inject var d3: Dep3
  init() {}
}

/// 3 `@Lazy` dependencies.
public final class LazyInstance3 {
  @LazyWrapper var d1: Dep1
  @LazyWrapper var d2: Dep2
  @LazyWrapper var d3: Dep3
  init() {}
}

/// 3 Swift `lazy var` dependencies.
public final class SwiftLazyInstance3 {
  lazy var d1 = Dep1()
  lazy var d2 = Dep2()
  lazy var d3 = Dep3()
  init() {}
}

/// 3 swift-dependencies `@Dependency` dependencies.
public final class DependencyInstance3 {
  @Dependency(\.dep1) var d1: Dep1
  @Dependency(\.dep2) var d2: Dep2
  @Dependency(\.dep3) var d3: Dep3
  init() {}
}

/// 8 dependencies through `init`.
public final class PlainInstance8 {
  let d1: Dep1
  let d2: Dep2
  let d3: Dep3
  let d4: Dep4
  let d5: Dep5
  let d6: Dep6
  let d7: Dep7
  let d8: Dep8
  init(d1: Dep1, d2: Dep2, d3: Dep3, d4: Dep4, d5: Dep5, d6: Dep6, d7: Dep7, d8: Dep8) {
    self.d1 = d1
    self.d2 = d2
    self.d3 = d3
    self.d4 = d4
    self.d5 = d5
    self.d6 = d6
    self.d7 = d7
    self.d8 = d8
  }
}

/// 8 `@Inject` dependencies.
public final class InjectInstance8 {
  @Inject var d1: Dep1
  @Inject var d2: Dep2
  @Inject var d3: Dep3
  @Inject var d4: Dep4
  @Inject var d5: Dep5
  @Inject var d6: Dep6
  @Inject var d7: Dep7
  @Inject var d8: Dep8
  init() {}
}

/// 8 `@Lazy` dependencies.
public final class LazyInstance8 {
  @LazyWrapper var d1: Dep1
  @LazyWrapper var d2: Dep2
  @LazyWrapper var d3: Dep3
  @LazyWrapper var d4: Dep4
  @LazyWrapper var d5: Dep5
  @LazyWrapper var d6: Dep6
  @LazyWrapper var d7: Dep7
  @LazyWrapper var d8: Dep8
  init() {}
}

/// 8 Swift `lazy var` dependencies.
public final class SwiftLazyInstance8 {
  lazy var d1 = Dep1()
  lazy var d2 = Dep2()
  lazy var d3 = Dep3()
  lazy var d4 = Dep4()
  lazy var d5 = Dep5()
  lazy var d6 = Dep6()
  lazy var d7 = Dep7()
  lazy var d8 = Dep8()
  init() {}
}

/// 8 swift-dependencies `@Dependency` dependencies.
public final class DependencyInstance8 {
  @Dependency(\.dep1) var d1: Dep1
  @Dependency(\.dep2) var d2: Dep2
  @Dependency(\.dep3) var d3: Dep3
  @Dependency(\.dep4) var d4: Dep4
  @Dependency(\.dep5) var d5: Dep5
  @Dependency(\.dep6) var d6: Dep6
  @Dependency(\.dep7) var d7: Dep7
  @Dependency(\.dep8) var d8: Dep8
  init() {}
}

/// One operation per call: create, read every dependency once, drop. Out of line, so each figure is
/// the same call around different bodies; the sum keeps the work from being optimized away.
public enum InstanceProbes {
  /// The dependencies the plain classes receive (created once, as an app's would be).
  static let deps = (Dep1(), Dep2(), Dep3(), Dep4(), Dep5(), Dep6(), Dep7(), Dep8())
  /// Swinject's container: each dependency registered in the transient scope.
  nonisolated(unsafe) static let container: Container = {
    let container = Container()
    container.register(Dep1.self) { _ in Dep1() }.inObjectScope(.transient)
    container.register(Dep2.self) { _ in Dep2() }.inObjectScope(.transient)
    container.register(Dep3.self) { _ in Dep3() }.inObjectScope(.transient)
    container.register(Dep4.self) { _ in Dep4() }.inObjectScope(.transient)
    container.register(Dep5.self) { _ in Dep5() }.inObjectScope(.transient)
    container.register(Dep6.self) { _ in Dep6() }.inObjectScope(.transient)
    container.register(Dep7.self) { _ in Dep7() }.inObjectScope(.transient)
    container.register(Dep8.self) { _ in Dep8() }.inObjectScope(.transient)
    return container
  }()

  /// Injects every dependency (value injections) and turns `@Lazy` on.
  public static func prepare() throws {
    try Injection.inject(Dep1.self).value(Dep1())
    try Injection.inject(Dep2.self).value(Dep2())
    try Injection.inject(Dep3.self).value(Dep3())
    try Injection.inject(Dep4.self).value(Dep4())
    try Injection.inject(Dep5.self).value(Dep5())
    try Injection.inject(Dep6.self).value(Dep6())
    try Injection.inject(Dep7.self).value(Dep7())
    try Injection.inject(Dep8.self).value(Dep8())
    try Injection.injectLazy()
    _ = container
  }

  /// Creates a plain host with 1 dependencies, reads each once and returns it.
  @inline(never) public static func plain1() -> (AnyObject, Int) {
    let host = PlainInstance1(d1: deps.0)
    return (host, host.d1.value)
  }

  /// Creates a inject host with 1 dependencies, reads each once and returns it.
  @inline(never) public static func inject1() -> (AnyObject, Int) {
    let host = InjectInstance1()
    return (host, host.d1.value)
  }

  /// Creates a lazy host with 1 dependencies, reads each once and returns it.
  @inline(never) public static func lazy1() -> (AnyObject, Int) {
    let host = LazyInstance1()
    return (host, host.d1.value)
  }

  /// Creates a swiftLazy host with 1 dependencies, reads each once and returns it.
  @inline(never) public static func swiftLazy1() -> (AnyObject, Int) {
    let host = SwiftLazyInstance1()
    return (host, host.d1.value)
  }

  /// Creates a dependency host with 1 dependencies, reads each once and returns it.
  @inline(never) public static func dependency1() -> (AnyObject, Int) {
    let host = DependencyInstance1()
    return (host, host.d1.value)
  }

  /// Creates a swinject host with 1 dependencies, reads each once and returns it.
  @inline(never) public static func swinject1() -> (AnyObject, Int) {
    let host = PlainInstance1(d1: container.resolve(Dep1.self)!)
    return (host, host.d1.value)
  }

  /// Creates a plain host with 3 dependencies, reads each once and returns it.
  @inline(never) public static func plain3() -> (AnyObject, Int) {
    let host = PlainInstance3(d1: deps.0, d2: deps.1, d3: deps.2)
    return (host, host.d1.value &+ host.d2.value &+ host.d3.value)
  }

  /// Creates a inject host with 3 dependencies, reads each once and returns it.
  @inline(never) public static func inject3() -> (AnyObject, Int) {
    let host = InjectInstance3()
    return (host, host.d1.value &+ host.d2.value &+ host.d3.value)
  }

  /// Creates a lazy host with 3 dependencies, reads each once and returns it.
  @inline(never) public static func lazy3() -> (AnyObject, Int) {
    let host = LazyInstance3()
    return (host, host.d1.value &+ host.d2.value &+ host.d3.value)
  }

  /// Creates a swiftLazy host with 3 dependencies, reads each once and returns it.
  @inline(never) public static func swiftLazy3() -> (AnyObject, Int) {
    let host = SwiftLazyInstance3()
    return (host, host.d1.value &+ host.d2.value &+ host.d3.value)
  }

  /// Creates a dependency host with 3 dependencies, reads each once and returns it.
  @inline(never) public static func dependency3() -> (AnyObject, Int) {
    let host = DependencyInstance3()
    return (host, host.d1.value &+ host.d2.value &+ host.d3.value)
  }

  /// Creates a swinject host with 3 dependencies, reads each once and returns it.
  @inline(never) public static func swinject3() -> (AnyObject, Int) {
    let host = PlainInstance3(
      d1: container.resolve(Dep1.self)!, d2: container.resolve(Dep2.self)!, d3: container.resolve(Dep3.self)!)
    return (host, host.d1.value &+ host.d2.value &+ host.d3.value)
  }

  /// Creates a plain host with 8 dependencies, reads each once and returns it.
  @inline(never) public static func plain8() -> (AnyObject, Int) {
    let host = PlainInstance8(
      d1: deps.0, d2: deps.1, d3: deps.2, d4: deps.3, d5: deps.4, d6: deps.5, d7: deps.6, d8: deps.7)
    return (
      host,
      host.d1.value &+ host.d2.value &+ host.d3.value &+ host.d4.value &+ host.d5.value &+ host.d6.value
        &+ host.d7.value &+ host.d8.value
    )
  }

  /// Creates a inject host with 8 dependencies, reads each once and returns it.
  @inline(never) public static func inject8() -> (AnyObject, Int) {
    let host = InjectInstance8()
    return (
      host,
      host.d1.value &+ host.d2.value &+ host.d3.value &+ host.d4.value &+ host.d5.value &+ host.d6.value
        &+ host.d7.value &+ host.d8.value
    )
  }

  /// Creates a lazy host with 8 dependencies, reads each once and returns it.
  @inline(never) public static func lazy8() -> (AnyObject, Int) {
    let host = LazyInstance8()
    return (
      host,
      host.d1.value &+ host.d2.value &+ host.d3.value &+ host.d4.value &+ host.d5.value &+ host.d6.value
        &+ host.d7.value &+ host.d8.value
    )
  }

  /// Creates a swiftLazy host with 8 dependencies, reads each once and returns it.
  @inline(never) public static func swiftLazy8() -> (AnyObject, Int) {
    let host = SwiftLazyInstance8()
    return (
      host,
      host.d1.value &+ host.d2.value &+ host.d3.value &+ host.d4.value &+ host.d5.value &+ host.d6.value
        &+ host.d7.value &+ host.d8.value
    )
  }

  /// Creates a dependency host with 8 dependencies, reads each once and returns it.
  @inline(never) public static func dependency8() -> (AnyObject, Int) {
    let host = DependencyInstance8()
    return (
      host,
      host.d1.value &+ host.d2.value &+ host.d3.value &+ host.d4.value &+ host.d5.value &+ host.d6.value
        &+ host.d7.value &+ host.d8.value
    )
  }

  /// Creates a swinject host with 8 dependencies, reads each once and returns it.
  @inline(never) public static func swinject8() -> (AnyObject, Int) {
    let host = PlainInstance8(
      d1: container.resolve(Dep1.self)!, d2: container.resolve(Dep2.self)!, d3: container.resolve(Dep3.self)!,
      d4: container.resolve(Dep4.self)!, d5: container.resolve(Dep5.self)!, d6: container.resolve(Dep6.self)!,
      d7: container.resolve(Dep7.self)!, d8: container.resolve(Dep8.self)!)
    return (
      host,
      host.d1.value &+ host.d2.value &+ host.d3.value &+ host.d4.value &+ host.d5.value &+ host.d6.value
        &+ host.d7.value &+ host.d8.value
    )
  }

  /// Every probe by name, for the runner and its callgrind mode.
  public static let all: [(name: String, make: @Sendable () -> (AnyObject, Int))] = [
    ("plain1", plain1),
    ("inject1", inject1),
    ("lazy1", lazy1),
    ("swiftLazy1", swiftLazy1),
    ("dependency1", dependency1),
    ("swinject1", swinject1),
    ("plain3", plain3),
    ("inject3", inject3),
    ("lazy3", lazy3),
    ("swiftLazy3", swiftLazy3),
    ("dependency3", dependency3),
    ("swinject3", swinject3),
    ("plain8", plain8),
    ("inject8", inject8),
    ("lazy8", lazy8),
    ("swiftLazy8", swiftLazy8),
    ("dependency8", dependency8),
    ("swinject8", swinject8),
  ]
}
