import BenchHosts
import Foundation

/// One per-instance figure: create a host with N dependencies, read each once, drop it.
struct InstanceFigure {
  let name: String
  let nanoseconds: Double
  /// Allocation calls per operation; `nil` without the malloc-counting preload.
  let mallocs: Double?
  /// Usable heap bytes held per live host, its dependencies' own allocations included; `nil` without
  /// the preload.
  let liveBytes: Double?
}

/// The malloc-counting preload's counters (Scripts/malloc-counter.c), when the runner runs under it.
enum MallocCounters {
  // Addresses, as integers (pointers are not Sendable); the counters are only read, never written.
  private static let count = UInt(bitPattern: dlsym(UnsafeMutableRawPointer(bitPattern: 0), "bench_malloc_count"))
  private static let live = UInt(bitPattern: dlsym(UnsafeMutableRawPointer(bitPattern: 0), "bench_malloc_live_bytes"))
  static var isAvailable: Bool { count != 0 && live != 0 }
  static var calls: Int { Int(UnsafeRawPointer(bitPattern: count)?.load(as: UInt.self) ?? 0) }
  static var liveBytes: Int { UnsafeRawPointer(bitPattern: live)?.load(as: Int.self) ?? 0 }
}

/// Measures every probe of ``InstanceProbes``: time (best of the harness's rounds), allocations per
/// operation and bytes per live host (4,096 hosts kept alive at once).
func measureInstances(_ harness: Harness) throws -> [InstanceFigure] {
  try InstanceProbes.prepare()
  let count = max(harness.iterations / 50, 2)
  return InstanceProbes.all.map { probe in
    _ = probe.make()  // first use: slots found, lazies' factories resolved
    var best = Double.infinity
    var checksum = 0
    for _ in 0..<harness.rounds {
      let start = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<count { checksum &+= probe.make().1 }
      best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count))
    }
    precondition(checksum != 0)
    var mallocs: Double?
    var liveBytes: Double?
    if MallocCounters.isAvailable {
      let calls = MallocCounters.calls
      for _ in 0..<1000 { checksum &+= probe.make().1 }
      mallocs = Double(MallocCounters.calls - calls) / 1000
      var kept: [AnyObject] = []
      kept.reserveCapacity(4096)
      let before = MallocCounters.liveBytes
      for _ in 0..<4096 { kept.append(probe.make().0) }
      liveBytes = Double(MallocCounters.liveBytes - before) / 4096
      withExtendedLifetime(kept) {}
    }
    return InstanceFigure(name: probe.name, nanoseconds: best, mallocs: mallocs, liveBytes: liveBytes)
  }
}

/// Runs one probe `count` times for callgrind (`--toggle-collect=bench_instance_probe_loop`), so the
/// instruction count covers the probe alone.
@_cdecl("bench_instance_probe_loop")
@inline(never)
func instanceProbeLoop(_ index: Int, _ count: Int) -> Int {
  var checksum = 0
  for _ in 0..<count { checksum &+= InstanceProbes.all[index].make().1 }
  return checksum
}

/// `--probe NAME COUNT`: prepares, runs the probe a few times outside the collected loop (callgrind collects
/// only `instanceProbeLoop`, so one-time costs — metadata, slot tables — stay out of the count), then `count`
/// times in it.
func runInstanceProbe(named name: String, count: Int) throws {
  try InstanceProbes.prepare()
  guard let index = InstanceProbes.all.firstIndex(where: { $0.name == name }) else {
    throw BenchmarkError.fixture("no probe named \(name)")
  }
  var warmUp = 0
  for _ in 0..<3 { warmUp &+= InstanceProbes.all[index].make().1 }
  print(instanceProbeLoop(index, count) &+ warmUp)
}
