import Foundation

/// Prints one run as tables and writes it, with the machine and the build, as JSON.
enum Report {
  static func printFigures(_ figures: [Figure]) {
    let nameWidth = max(44, figures.map(\.name.count).max() ?? 0)
    for group in Benchmark.Group.allCases {
      let rows = figures.filter { $0.group == group }
      guard !rows.isEmpty else { continue }
      print("\n\(group.rawValue.uppercased())")
      for figure in rows {
        let name = figure.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
        let value =
          group == .setup
          ? String(format: "%11.2f µs", figure.nanosecondsPerOperation / 1000)
          : String(format: "%11.2f ns", figure.nanosecondsPerOperation)
        let ratios = figure.ratios.map { String(format: "%9.2fx vs ", $0.ratio) + $0.baseline }
        print("  \(name) \(value)  \(ratios.joined(separator: "; "))")
      }
    }
  }

  /// The per-instance table: one row per probe, ratios against the plain class of the same N.
  static func printInstances(_ instances: [InstanceFigure]) {
    guard !instances.isEmpty else { return }
    print("\nPER INSTANCE (create a host with N class-typed dependencies, read each once, drop it)")
    print("  \(pad("probe", 14)) \(pad("ns", 10)) \(pad("vs plain", 9)) \(pad("mallocs", 8)) \(pad("live B", 8))")
    for figure in instances {
      let size = figure.name.drop { !$0.isNumber }
      let plain = instances.first { $0.name == "plain\(size)" }?.nanoseconds ?? .nan
      print(
        "  \(pad(figure.name, 14)) \(pad(format(figure.nanoseconds, "%.1f"), 10))"
          + " \(pad(format(figure.nanoseconds / plain, "%.2fx"), 9))"
          + " \(pad(figure.mallocs.map { format($0, "%.1f") } ?? "-", 8))"
          + " \(pad(figure.liveBytes.map { format($0, "%.0f") } ?? "-", 8))")
    }
    if !MallocCounters.isAvailable {
      print("  (mallocs and bytes: run through Scripts/bench.sh, which preloads a counter)")
    }
  }

  static func printPasses(_ passes: [PassFigure]) {
    guard !passes.isEmpty else { return }
    let mode = passes[0].warm ? "warm: pages touched before" : "cold: right after dlopen"
    print("\nCATALOG PASS (one dlopen'd fixture per row, incremental pass over it alone; \(mode))")
    print(
      "  \(pad("classes", 8)) \(pad("fields", 8)) \(pad("marked", 7)) \(pad("scan µs", 9)) \(pad("pass µs", 9))"
        + " \(pad("wall µs", 9)) \(pad("ns/class", 9))")
    for pass in passes {
      let marked = pass.markedElsewhere > 0 ? "\(pass.marked)+\(pass.markedElsewhere)" : "\(pass.marked)"
      print(
        "  \(pad("\(pass.classes)", 8)) \(pad("\(pass.fields)", 8)) \(pad(marked, 7))"
          + " \(pad(micro(pass.scanNanoseconds), 9)) \(pad(micro(pass.passNanoseconds), 9))"
          + " \(pad(micro(pass.wallNanoseconds), 9))"
          + " \(pad(format(Double(pass.passNanoseconds) / Double(max(pass.classes, 1)), "%.1f"), 9))")
    }
    if passes.count >= 2, let fit = Linearity(passes.map { ($0.classes, Double($0.passNanoseconds)) }) {
      print(
        "  fit: pass ≈ \(format(fit.intercept / 1000, "%.1f")) µs + \(format(fit.nanosecondsPerClass, "%.2f"))"
          + " ns × classes; worst point \(format(fit.worstResidual * 100, "%.1f"))% off the line")
    }
  }

  static func printBars(_ bars: [Bar]) {
    guard !bars.isEmpty else { return }
    print("\nBARS (the project's speed targets; reported, not enforced)")
    for bar in bars {
      print("  \(bar.isMet ? "met    " : "NOT MET")  \(bar.description): \(bar.measured)")
    }
  }

  static func writeJSON(
    figures: [Figure], instances: [InstanceFigure], passes: [PassFigure], bars: [Bar], iterations: Int, rounds: Int,
    smoke: Bool, to path: String
  ) throws {
    let instanceEntries: [[String: Any]] = instances.map {
      [
        "probe": $0.name, "nanosecondsPerOperation": $0.nanoseconds, "mallocsPerOperation": $0.mallocs ?? NSNull(),
        "liveBytesPerInstance": $0.liveBytes ?? NSNull(),
      ]
    }
    let figureEntries: [[String: Any]] = figures.map { figure in
      [
        "group": figure.group.rawValue, "name": figure.name,
        "nanosecondsPerOperation": figure.nanosecondsPerOperation, "operationsPerRound": figure.operations,
        "ratios": figure.ratios.map { ["baseline": $0.baseline, "ratio": $0.ratio] },
      ]
    }
    let passEntries: [[String: Any]] = passes.map {
      [
        "fixture": $0.fixture, "classes": $0.classes, "fields": $0.fields, "markedProperties": $0.marked,
        "markedByOtherKernelCopies": $0.markedElsewhere, "scanNanoseconds": $0.scanNanoseconds,
        "passNanoseconds": $0.passNanoseconds, "wallNanoseconds": $0.wallNanoseconds, "warm": $0.warm,
      ]
    }
    let environment = ProcessInfo.processInfo.environment
    let document: [String: Any] = [
      "date": ISO8601DateFormatter().string(from: Date()),
      "figures": figureEntries, "instances": instanceEntries, "passes": passEntries,
      "bars": bars.map { ["bar": $0.description, "measured": $0.measured, "met": $0.isMet] },
      "machine": Machine.description(),
      "build": [
        "configuration": isDebugBuild ? "debug" : "release", "smoke": smoke, "roundsPerFigure": rounds,
        "iterationsPerRound": iterations, "swift": environment["BENCH_SWIFT_VERSION"] ?? "unknown",
        "commit": environment["BENCH_GIT_COMMIT"] ?? "unknown",
        "fixtureBuild": environment["BENCH_FIXTURE_BUILD"] ?? "unknown",
      ],
    ]
    let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
  }

  private static var isDebugBuild: Bool {
    #if DEBUG
      return true
    #else
      return false
    #endif
  }
}

/// `value` printed with a C format.
func format(_ value: Double, _ specifier: String) -> String { String(format: specifier, value) }

private func micro(_ nanoseconds: UInt64) -> String { format(Double(nanoseconds) / 1000, "%.1f") }

private func pad(_ text: String, _ width: Int) -> String {
  String(repeating: " ", count: max(width - text.count, 0)) + text
}
