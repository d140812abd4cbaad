/// The project's speed bars (a read within 3x of a plain stored property, 100x faster than Swinject, the
/// 40,000-class pass under 1 ms), checked against one run's figures. They are reported, never
/// enforced: the benchmark command fails only when something crashes.
struct Bar {
  let description: String
  /// What was measured, readable.
  let measured: String
  let isMet: Bool

  /// The bars the figures can be held to; a bar whose figures are missing is left out.
  static func evaluate(_ figures: [Figure], passes: [PassFigure]) -> [Bar] {
    var bars: [Bar] = []
    for figure in figures where figure.group == .read && figure.name.hasPrefix("@Inject") {
      guard let (baseline, ratio) = figure.ratios.first else { continue }
      bars.append(
        Bar(
          description: "\(figure.name) read within 3x of \(baseline)",
          measured: format(ratio, "%.2fx"), isMet: ratio <= 3))
    }
    for figure in figures where figure.name.hasPrefix("Swinject") {
      guard let ratio = figure.ratios.first(where: { $0.baseline == Baseline.injectRead })?.ratio else { continue }
      bars.append(
        Bar(
          description: "@Inject read at least 100x faster than \(figure.name)",
          measured: format(ratio, "%.0fx"), isMet: ratio >= 100))
    }
    if let largest = passes.max(by: { $0.classes < $1.classes }), largest.classes >= 40_000 {
      let milliseconds = Double(largest.passNanoseconds) / 1e6
      bars.append(
        Bar(
          description: "pass over \(largest.classes) classes under 1 ms",
          measured: format(milliseconds, "%.3f ms"), isMet: milliseconds < 1))
    }
    // Linear as classes grow: no doubling of the classes more than doubles the time (2.5x allows for
    // noise). The pass also has a fixed part (resolving the 150 marked classes), so it may grow less.
    let sorted = passes.sorted { $0.classes < $1.classes }
    if sorted.count >= 3 {
      let growth = zip(sorted, sorted.dropFirst()).map { small, large in
        (Double(large.passNanoseconds) / Double(small.passNanoseconds))
          / (Double(large.classes) / Double(small.classes)) * 2
      }
      let worst = growth.max() ?? 0
      bars.append(
        Bar(
          description: "pass grows at most linearly (time per doubling of classes, worst step)",
          measured: format(worst, "%.2fx"), isMet: worst <= 2.5))
    }
    return bars
  }
}
