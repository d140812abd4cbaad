import InjectionKernel
import LazyPlugin
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
