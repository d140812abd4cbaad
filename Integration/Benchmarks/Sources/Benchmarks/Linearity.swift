/// How well `time = a + b × classes` fits the pass figures (least squares).
struct Linearity {
  /// Nanoseconds per class (b) and fixed cost (a).
  let nanosecondsPerClass: Double
  let intercept: Double
  /// The largest distance of a point from the line, relative to the point.
  let worstResidual: Double

  /// `nil` with fewer than two points.
  init?(_ points: [(classes: Int, nanoseconds: Double)]) {
    guard points.count >= 2 else { return nil }
    let n = Double(points.count)
    let meanX = points.map { Double($0.classes) }.reduce(0, +) / n
    let meanY = points.map(\.nanoseconds).reduce(0, +) / n
    let sxy = points.map { (Double($0.classes) - meanX) * ($0.nanoseconds - meanY) }.reduce(0, +)
    let sxx = points.map { (Double($0.classes) - meanX) * (Double($0.classes) - meanX) }.reduce(0, +)
    guard sxx > 0 else { return nil }
    let slope = sxy / sxx
    let intercept = meanY - slope * meanX
    nanosecondsPerClass = slope
    self.intercept = intercept
    worstResidual =
      points.map { point in
        abs(point.nanoseconds - (intercept + slope * Double(point.classes))) / point.nanoseconds
      }.max() ?? 0
  }

  /// Linear enough: every point within 25% of the line.
  var isLinear: Bool { worstResidual <= 0.25 }
}
