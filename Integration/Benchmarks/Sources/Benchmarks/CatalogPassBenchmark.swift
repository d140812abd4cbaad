import Dispatch
import Foundation
import InjectionKernel

/// The enumeration pass over one catalog fixture (Scripts/generate-catalog-fixture.py).
struct PassFigure {
  let fixture: String
  let classes: Int
  let fields: Int
  /// Marked properties this kernel cataloged (the fixture's markers are this kernel's own).
  let marked: Int
  /// Marked properties of another kernel copy (0 unless the fixture was linked with its own kernel).
  let markedElsewhere: Int
  /// The kernel's own statistics: finding the images, marker types and marked fields…
  let scanNanoseconds: UInt64
  /// …and the whole pass, resolving the classes with marked fields included.
  let passNanoseconds: UInt64
  /// Wall time around `Injection.markedProperties()`, which runs the pass and lists the catalog.
  let wallNanoseconds: UInt64
  /// Whether the fixture's pages were touched before the pass (warm) or not (cold).
  let warm: Bool
}

/// Opens each fixture library with `dlopen`, smallest first, and times the kernel's incremental pass,
/// which then scans that image alone: `Injection.catalogPasses.last` is its pass.
///
/// Warm (the default) first touches every page the library mapped, as an app's start-up has by the
/// time it injects; cold measures the pass straight after `dlopen`, page faults included.
func measurePasses(fixtures: [String], warm: Bool) throws -> [PassFigure] {
  _ = Injection.markedProperties()  // the process's own images first
  var figures: [PassFigure] = []
  for path in fixtures {
    // Never dlclose an image with Swift metadata: the runtime keeps it registered.
    guard dlopen(path, RTLD_NOW) != nil else {
      throw BenchmarkError.fixture("cannot open \(path): \(String(cString: dlerror()))")
    }
    if warm { MappedPages.touch(of: path) }
    let passesBefore = Injection.catalogPasses.count
    let start = DispatchTime.now().uptimeNanoseconds
    _ = Injection.markedProperties()
    let wall = DispatchTime.now().uptimeNanoseconds - start
    let passes = Injection.catalogPasses
    guard passes.count == passesBefore + 1, let pass = passes.last, pass.images > 0 else {
      throw BenchmarkError.fixture("no pass scanned \(path)")
    }
    figures.append(
      PassFigure(
        fixture: URL(fileURLWithPath: path).lastPathComponent, classes: pass.classes, fields: pass.fields,
        marked: pass.markedProperties, markedElsewhere: pass.markedByOtherKernelCopies,
        scanNanoseconds: pass.scanNanoseconds, passNanoseconds: pass.nanoseconds, wallNanoseconds: wall, warm: warm))
  }
  return figures
}

/// A benchmark that could not run.
enum BenchmarkError: Error, CustomStringConvertible {
  case fixture(String)

  var description: String {
    switch self {
    case .fixture(let message): return "fixture: \(message)"
    }
  }
}
