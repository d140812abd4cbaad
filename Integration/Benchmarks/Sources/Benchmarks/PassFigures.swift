import Dispatch
import Foundation
import InjectionKernel

/// The enumeration pass at DeluxeInjection's scale: each fixture library (N classes, ~2.5 stored
/// properties per class, 150 marked) is opened with `dlopen` in turn; the kernel's incremental pass then
/// scans that image alone, and its own statistics give the time.
func measurePasses(_ harness: Harness, fixtures: [String]) throws -> [CatalogPass] {
  _ = Injection.markedProperties()  // the process's own images first
  var passes: [CatalogPass] = []
  for path in fixtures {
    guard dlopen(path, RTLD_NOW) != nil else {
      throw BenchmarkError.fixture("cannot open \(path): \(String(cString: dlerror()))")
    }
    let start = DispatchTime.now().uptimeNanoseconds
    _ = Injection.markedProperties()
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start)
    guard let pass = Injection.catalogPasses.last, pass.images > 0 else {
      throw BenchmarkError.fixture("no pass scanned \(path)")
    }
    passes.append(pass)
    let marked = pass.markedProperties + pass.markedByOtherKernelCopies
    let label = "\(pass.classes) classes, \(pass.fields) fields, \(marked) marked"
    harness.record(
      Figure(
        group: "pass", name: "scan: \(label)", nanosecondsPerOperation: Double(pass.scanNanoseconds),
        baseline: nil))
    harness.record(
      Figure(group: "pass", name: "whole call (wall): \(label)", nanosecondsPerOperation: wall, baseline: nil))
  }
  return passes
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
