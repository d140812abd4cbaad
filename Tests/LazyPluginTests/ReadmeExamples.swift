import ImperativePlugin
import InjectionKernel
import LazyPlugin
import Testing

// The README's examples, compiled and run. Types are private to this file.

private final class ImageCache: LazyConstructible {
  let limit: Int
  init() { limit = 16 }
  init(limit: Int) { self.limit = limit }
}

private final class Parser: LazyConstructible {
  let strict: Bool
  init() { strict = false }
  init(strict: Bool) { self.strict = strict }
}

private final class Gallery {
  @Lazy var items: [String]
  @Lazy var index: [String: Int]
  @Lazy var cache: ImageCache
  @Lazy var parser: Parser?
}

/// The README's start-up code turns every `@Lazy` property of the process on, as an app does. In this test
/// process another test's fixture is deliberately unbuildable, so the global call would throw here: it
/// is compiled in this function, and the tests run the same statements scoped to `Gallery`.
private func appStartUp() throws {
  try Injection.injectLazy()
  try Injection.imperative { lets in
    lets.skipChecks()
    lets.injectLazy(ImageCache.self) { ImageCache(limit: 64) }
    lets.lazy(Parser?.self).declared(in: Gallery.self).create { _ in Parser(strict: true) }
    lets.injectLazy()
  }
}

@Suite(.serialized)  // both examples configure Gallery; they run one after the other
struct ReadmeExamples {
  @Test func overview() throws {
    _ = appStartUp  // compiled above
    try Injection.injectLazy(in: Gallery.self)
    let gallery = Gallery()
    gallery.items.append("sunset.jpg")  // the first read created the array
    #expect(gallery.items == ["sunset.jpg"])
    gallery.parser = nil  // an optional reset to nil…
    #expect(gallery.parser != nil)  // …is created again at the next read
  }

  @Test func factories() throws {
    try Injection.imperative { lets in
      lets.skipChecks()
      lets.injectLazy(ImageCache.self) { ImageCache(limit: 64) }
      lets.lazy(Parser?.self).declared(in: Gallery.self).create { _ in Parser(strict: true) }
      lets.injectLazy(in: Gallery.self)
    }
    let gallery = Gallery()
    #expect(gallery.cache.limit == 64)
    #expect(gallery.parser?.strict == true)
  }
}
