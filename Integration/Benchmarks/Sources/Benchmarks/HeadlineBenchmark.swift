import Dispatch
import Foundation
import ImperativePlugin
import InjectPlugin

/// DeluxeInjection's published headline in its exact shape: a fresh process with a catalog fixture
/// loaded runs one `Injection.imperative` block that injects the fixture's marked properties, checked
/// for completeness over the fixture's module. The figure is the wall time of that one call, the
/// kernel's first pass over every image of the process included.
struct HeadlineFigure: Encodable {
  let fixture: String
  /// Classes and fields of the images the first pass read (the runner's own and the fixture).
  let classes: Int
  let fields: Int
  /// Properties the block injected.
  let injected: Int
  /// Wall time of `Injection.imperative`, pass included.
  let nanoseconds: UInt64
  /// The part of it the kernel's passes took (their own statistics).
  let passNanoseconds: UInt64
  /// The part of the passes that read the images (finding marked fields), before resolving classes.
  let scanNanoseconds: UInt64
  /// Wall time of the same block run again right after, in the same process.
  let secondBlockNanoseconds: UInt64
}

/// Opens `path`, touches its pages (an app has by the time it injects) and times the block. Must run
/// first in a fresh process: nothing may have asked the kernel anything before.
func measureHeadline(fixture path: String) throws -> HeadlineFigure {
  guard dlopen(path, RTLD_NOW) != nil else {
    throw BenchmarkError.fixture("cannot open \(path): \(String(cString: dlerror()))")
  }
  MappedPages.touch(of: path)
  // libCatalogFixture40000.so holds the module CatalogFixture40000.
  let module = String(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent.dropFirst("lib".count))
  let start = DispatchTime.now().uptimeNanoseconds
  let injected = try injectMarkedProperties(ofModule: module)
  let nanoseconds = DispatchTime.now().uptimeNanoseconds - start
  // The same block again: no image is new and the runtime's caches are warm, so the difference is what
  // the first block paid once (the scan, type metadata made and conformances looked up for the first
  // time, pages touched for the first time).
  let again = DispatchTime.now().uptimeNanoseconds
  _ = try injectMarkedProperties(ofModule: module)
  let secondNanoseconds = DispatchTime.now().uptimeNanoseconds - again
  let fixtureProperties = Injection.markedProperties().filter { $0.className.hasPrefix(module) }
  guard injected > 0, fixtureProperties.count == injected, fixtureProperties.allSatisfy(Injection.isInjected) else {
    throw BenchmarkError.fixture("the block did not inject \(path)'s marked properties")
  }
  let passes = Injection.catalogPasses
  return HeadlineFigure(
    fixture: URL(fileURLWithPath: path).lastPathComponent, classes: passes.reduce(0) { $0 + $1.classes },
    fields: passes.reduce(0) { $0 + $1.fields }, injected: injected, nanoseconds: nanoseconds,
    passNanoseconds: passes.reduce(0) { $0 + $1.nanoseconds },
    scanNanoseconds: passes.reduce(0) { $0 + $1.scanNanoseconds }, secondBlockNanoseconds: secondNanoseconds)
}

/// The headline's block: injects every marked property of `module`, checked for completeness over it.
/// Returns how many properties it injected.
private func injectMarkedProperties(ofModule module: String) throws -> Int {
  var injected = 0
  _ = try Injection.imperative { lets in
    lets.checkCompleteness(inModules: module)
    for property in Injection.markedProperties() where property.className.hasPrefix(module) {
      try lets.inject(Int.self).declared(in: property.declaringClass).named(property.name).value(injected)
      injected += 1
    }
  }
  return injected
}
