import Dispatch

/// Runs the registry's benchmarks in one process and turns them into figures.
struct Harness {
  /// Operations per timed round (before a benchmark's divisor) and rounds per figure; the best round
  /// counts.
  let iterations: Int
  let rounds: Int

  init(smoke: Bool) {
    iterations = smoke ? 2_000 : 10_000_000
    rounds = smoke ? 2 : 7
  }

  /// Measures every benchmark in order, then computes the ratios (a baseline may be listed later).
  func run(_ benchmarks: [Benchmark]) -> [Figure] {
    var timings: [String: Double] = [:]
    var operations: [String: Int] = [:]
    for benchmark in benchmarks {
      precondition(timings[benchmark.name] == nil, "two benchmarks named \(benchmark.name)")
      let count = max(iterations / benchmark.divisor, 2)
      timings[benchmark.name] = bestNanosecondsPerOperation(count, benchmark.body)
      operations[benchmark.name] = count
    }
    return benchmarks.map { benchmark in
      let nanoseconds = timings[benchmark.name]!
      let ratios = benchmark.baselines.map { baseline in
        guard let base = timings[baseline] else { preconditionFailure("no benchmark named \(baseline)") }
        return (baseline, nanoseconds / base)
      }
      return Figure(
        group: benchmark.group, name: benchmark.name, nanosecondsPerOperation: nanoseconds, ratios: ratios,
        operations: operations[benchmark.name]!)
    }
  }

  private func bestNanosecondsPerOperation(_ count: Int, _ body: (Int) -> Int) -> Double {
    var best = Double.infinity
    var checksum = 0
    for _ in 0..<rounds {
      let start = DispatchTime.now().uptimeNanoseconds
      checksum &+= body(count)
      let end = DispatchTime.now().uptimeNanoseconds
      best = min(best, Double(end - start) / Double(count))
    }
    if checksum == 0x5eed_5eed { print("") }  // the result is used, so the work is done
    return best
  }
}
