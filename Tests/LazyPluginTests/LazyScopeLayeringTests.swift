import Foundation
import InjectionKernel
import LazyPlugin
import TestSupport
import Testing

private final class LayeredOwnCache: LazyConstructible, Sendable {
  let source: String
  init() { source = "constructed" }
  init(source: String) { self.source = source }
}

private final class LayeredLaterCache: LazyConstructible, Sendable {
  let source: String
  init() { source = "constructed" }
  init(source: String) { self.source = source }
}

private final class LayeredLazyHost: @unchecked Sendable {
  @Lazy var own: LayeredOwnCache
  @Lazy var later: LayeredLaterCache
}

/// A scope's `@Lazy` factories sit on top of those beneath it, including factories registered there
/// after the scope registered its own (the registry is layered scope state).
@Suite struct LazyScopeLayeringTests {
  @Test func aFactoryRegisteredBeneathAScopeAfterItsOwnBuildsInIt() throws {
    try Injection.injectLazy(in: LayeredLazyHost.self)
    try Injection.withOverrides({ lets in lets.injectLazy(LayeredOwnCache.self) { LayeredOwnCache(source: "scope") } })
    {
      // Beneath the scope: the process (types no other test uses).
      try Injection.outsideOverrides {
        try Injection.injectLazy(LayeredLaterCache.self) { LayeredLaterCache(source: "process") }
      }
      let host = LayeredLazyHost()
      #expect(host.own.source == "scope")
      #expect(host.later.source == "process")
    }
  }
}

/// What a factory captures, counted while alive.
private final class CapturedByFactory: Sendable {
  let live: Counter
  init(_ live: Counter) {
    self.live = live
    live.increment()
  }
  deinit { live.decrement() }
}

private final class ReplacedFactoryCache: LazyConstructible, Sendable {}
private final class ScopeOnlyCache: LazyConstructible, Sendable {}

@Test func aFactoryTheProcessReplacesIsReleasedWhileAnotherTasksScopeIsOpen() throws {
  // The other scope registered a factory of its own, so it holds a copy of the factories beneath it; that
  // copy used to keep the process's replaced factory (and what it captured) until the scope read again.
  let live = Counter()
  do {
    let first = CapturedByFactory(live)
    try Injection.injectLazy(ReplacedFactoryCache.self) { withExtendedLifetime(first) { ReplacedFactoryCache() } }
  }
  let entered = DispatchSemaphore(value: 0)
  let leave = DispatchSemaphore(value: 0)
  let left = DispatchSemaphore(value: 0)
  Thread {
    try? Injection.withOverrides({ lets in lets.injectLazy(ScopeOnlyCache.self) { ScopeOnlyCache() } }) {
      entered.signal()
      leave.wait()
    }
    left.signal()
  }.start()
  entered.wait()
  do {
    let second = CapturedByFactory(live)
    try Injection.injectLazy(ReplacedFactoryCache.self) { withExtendedLifetime(second) { ReplacedFactoryCache() } }
  }
  #expect(live.count == 1)  // `first` went with the factory that captured it
  leave.signal()
  left.wait()
}
