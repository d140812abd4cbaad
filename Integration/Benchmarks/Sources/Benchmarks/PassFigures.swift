import Dispatch
import Foundation
import InjectionKernel

/// The enumeration pass at DeluxeInjection's scale: each fixture library (N classes, ~2.5 stored
/// properties per class, 150 marked) is opened with `dlopen` in turn; the kernel's incremental pass then
/// scans that image alone, and its own statistics give the time.
///
/// Warm (the default) first touches every page the library mapped, as an app's start-up has by the time
/// it injects; cold (`--cold`) measures the pass straight after `dlopen`, page faults included.
func measurePasses(_ harness: Harness, fixtures: [String], cold: Bool) throws -> [CatalogPass] {
  _ = Injection.markedProperties()  // the process's own images first
  var passes: [CatalogPass] = []
  for path in fixtures {
    guard dlopen(path, RTLD_NOW) != nil else {
      throw BenchmarkError.fixture("cannot open \(path): \(String(cString: dlerror()))")
    }
    if !cold { touchMappedPages(of: path) }
    let start = DispatchTime.now().uptimeNanoseconds
    _ = Injection.markedProperties()
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start)
    guard let pass = Injection.catalogPasses.last, pass.images > 0 else {
      throw BenchmarkError.fixture("no pass scanned \(path)")
    }
    passes.append(pass)
    let marked = pass.markedProperties + pass.markedByOtherKernelCopies
    let label = "\(pass.classes) classes, \(pass.fields) fields, \(marked) marked, \(cold ? "cold" : "warm")"
    harness.record(
      Figure(
        group: "pass", name: "scan: \(label)", nanosecondsPerOperation: Double(pass.scanNanoseconds),
        baseline: nil))
    harness.record(
      Figure(group: "pass", name: "whole call (wall): \(label)", nanosecondsPerOperation: wall, baseline: nil))
  }
  return passes
}

/// Reads one byte of every page of `path`'s mappings (from /proc/self/maps), so the pass that follows
/// does not pay for first-touch page faults.
func touchMappedPages(of path: String) {
  guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return }
  var sum: UInt8 = 0
  for line in maps.split(separator: "\n") where line.hasSuffix(path) {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    guard fields.count > 1, fields[1].hasPrefix("r") else { continue }
    let bounds = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
    guard bounds.count == 2, let start = UnsafeRawPointer(bitPattern: bounds[0]) else { continue }
    for offset in stride(from: 0, to: Int(bounds[1] - bounds[0]), by: 4096) {
      sum &+= start.load(fromByteOffset: offset, as: UInt8.self)
    }
  }
  if sum == 0x5e { print("", terminator: "") }  // keeps the reads
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
