import Dispatch

/// One measured figure: nanoseconds per operation, and the figure it is compared with.
struct Figure: Sendable {
  let group: String
  let name: String
  let nanosecondsPerOperation: Double
  let baseline: String?
  var ratio: Double?
}

/// Runs figures and keeps them; a new figure is one `measure` call.
final class Harness {
  /// Operations per timed round, and rounds per figure (the best round counts).
  let iterations: Int
  let rounds: Int
  private(set) var figures: [Figure] = []

  init(smoke: Bool) {
    iterations = smoke ? 2_000 : 10_000_000
    rounds = smoke ? 2 : 7
  }

  /// Times `body(count)`, which must perform `count` operations and return a checksum.
  func measure(
    _ group: String, _ name: String, baseline: String? = nil, iterations: Int? = nil, _ body: (Int) -> Int
  ) {
    let count = iterations ?? self.iterations
    var best = Double.infinity
    var checksum = 0
    for _ in 0..<rounds {
      let start = DispatchTime.now().uptimeNanoseconds
      checksum &+= body(count)
      let end = DispatchTime.now().uptimeNanoseconds
      best = min(best, Double(end - start) / Double(count))
    }
    if checksum == 0x5eed { print("") }  // keeps the result alive
    record(Figure(group: group, name: name, nanosecondsPerOperation: best, baseline: baseline))
  }

  /// Adds a figure measured elsewhere (for example by the kernel's own pass statistics).
  func record(_ figure: Figure) {
    var figure = figure
    if let baseline = figure.baseline, let base = figures.first(where: { $0.name == baseline }) {
      figure.ratio = figure.nanosecondsPerOperation / base.nanosecondsPerOperation
    }
    figures.append(figure)
  }
}
