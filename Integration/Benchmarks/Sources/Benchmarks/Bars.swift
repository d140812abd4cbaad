/// The speed bars of DESIGN.md §6, checked against one run's figures. They are reported, never
/// enforced: the benchmark command fails only when something crashes.
struct Bar {
  let description: String
  /// What was measured, readable.
  let measured: String
  let isMet: Bool

  /// The bars the figures can be held to; a bar whose figures are missing is left out.
  static func evaluate(_ figures: [Figure], passes: [PassFigure]) -> [Bar] {
    var bars: [Bar] = []
    for figure in figures where figure.name.hasPrefix("@Inject") {
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
    if passes.count >= 3,
      let fit = Linearity(passes.map { ($0.classes, Double($0.passNanoseconds)) })
    {
      bars.append(
        Bar(
          description: "pass linear in classes (every point within 25% of a least-squares line)",
          measured: "worst point \(format(fit.worstResidual * 100, "%.0f"))% off", isMet: fit.isLinear))
    }
    return bars
  }
}
