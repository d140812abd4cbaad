/// A measured figure: nanoseconds per operation and its ratios to the figures it is compared with.
struct Figure {
  let group: Benchmark.Group
  let name: String
  let nanosecondsPerOperation: Double
  /// (baseline name, this figure divided by the baseline's), the primary baseline first.
  let ratios: [(baseline: String, ratio: Double)]
  /// Operations per timed round.
  let operations: Int
}
