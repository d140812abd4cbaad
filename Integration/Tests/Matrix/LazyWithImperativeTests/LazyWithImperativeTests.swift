import ImperativePlugin
import LazyPlugin
import MatrixSupport
import Testing

// LazyPlugin with ImperativePlugin: factories and @Probe in one block.

private final class Thumbnailer {
  let size: Int
  init(size: Int) { self.size = size }
}

private final class Gallery {
  @Lazy var thumbnailer: Thumbnailer
  @Lazy var names: [String]
  @Probe var probe: String?
}

private final class Broken {
  @Lazy var thumbnailer: Thumbnailer
  @Probe var probe: String?
}

@Suite struct LazyWithImperativeTests {
  @Test func oneBlockTurnsLazyAndProbeOn() throws {
    try Injection.imperative { lets in
      lets.checkCompleteness(in: Gallery.self)
      lets.lazy(Thumbnailer.self).declared(in: Gallery.self).create { _ in Thumbnailer(size: 64) }
      lets.injectLazy(in: Gallery.self)
      lets.probe("probed", in: Gallery.self)
    }
    let gallery = Gallery()
    #expect(gallery.thumbnailer.size == 64 && gallery.names.isEmpty && gallery.probe == "probed")
    #expect(gallery.thumbnailer === gallery.thumbnailer)  // created once
    #expect(Injection.injectedPlugins(of: Gallery.self) == ["Lazy", "Probe"])

    try Injection.imperative { lets in
      lets.skipChecks()
      lets.rejectProbe(in: Gallery.self)
    }
    #expect(gallery.probe == nil && gallery.thumbnailer.size == 64)
  }

  @Test func aTypeNothingCanBuildFailsTheBlock() throws {
    #expect(throws: InjectionError.self) {
      try Injection.imperative { lets in
        lets.skipChecks()
        lets.probe("never", in: Broken.self)
        lets.injectLazy(in: Broken.self)
      }
    }
    #expect(Broken().probe == nil)  // the block applied nothing
  }
}
