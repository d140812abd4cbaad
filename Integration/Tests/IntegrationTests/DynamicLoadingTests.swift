import Foundation
import InjectionKernel
import Testing

/// The kernel's pass is incremental: an image opened with `dlopen` after the first pass is scanned by
/// the next one, and only it.
@Suite struct DynamicLoadingTests {
  @Test func imageOpenedLaterIsScannedByTheNextPass() throws {
    _ = Injection.markedProperties()
    let passesBefore = Injection.catalogPasses.count
    let executable = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    let library = executable.deletingLastPathComponent().appendingPathComponent("libDynamicFixture.so").path
    try #require(FileManager.default.fileExists(atPath: library), "build the Integration package's products first")
    // Never `dlclose` a Swift image: the runtime keeps its metadata registered (and so does the catalog).
    _ = try #require(dlopen(library, RTLD_NOW), "\(String(cString: dlerror()))")

    _ = Injection.markedProperties()
    let passes = Injection.catalogPasses
    #expect(passes.count == passesBefore + 1)
    let pass = try #require(passes.last)
    #expect(pass.images >= 1)  // the library (and any runtime library it pulled in)
    #expect(pass.classes >= 1)
    // LateLoadedService's two @Inject fields (the library links its own kernel); `plain` is not marked.
    #expect(pass.markedByOtherKernelCopies == 2)

    _ = Injection.markedProperties()
    #expect(Injection.catalogPasses.count == passesBefore + 1)  // nothing new: no pass
  }
}
