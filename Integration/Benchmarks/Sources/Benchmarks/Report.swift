import Foundation
import InjectionKernel

/// Prints the figures as a table and writes them, with the machine and the build, as JSON.
enum Report {
  static func printTable(_ figures: [Figure]) {
    let nameWidth = max(40, figures.map(\.name.count).max() ?? 0)
    var group = ""
    for figure in figures {
      if figure.group != group {
        group = figure.group
        print("\n\(group.uppercased())")
      }
      let name = figure.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
      let value =
        figure.group == "pass" || figure.group == "set-up"
        ? String(format: "%12.1f µs", figure.nanosecondsPerOperation / 1000)
        : String(format: "%12.2f ns", figure.nanosecondsPerOperation)
      let ratio = figure.ratio.map { String(format: "  %8.2fx  vs %@", $0, figure.baseline ?? "") } ?? ""
      print("  \(name) \(value)\(ratio)")
    }
  }

  static func writeJSON(_ figures: [Figure], passes: [CatalogPass], smoke: Bool, to path: String) throws {
    let entries: [[String: Any]] = figures.map { figure in
      var entry: [String: Any] = [
        "group": figure.group, "name": figure.name, "nanosecondsPerOperation": figure.nanosecondsPerOperation,
      ]
      if let baseline = figure.baseline { entry["baseline"] = baseline }
      if let ratio = figure.ratio { entry["ratio"] = ratio }
      return entry
    }
    let passEntries: [[String: Any]] = passes.map {
      [
        "classes": $0.classes, "fields": $0.fields, "markedProperties": $0.markedProperties,
        "markedByOtherKernelCopies": $0.markedByOtherKernelCopies,
        "scanNanoseconds": $0.scanNanoseconds, "nanoseconds": $0.nanoseconds,
      ]
    }
    let document: [String: Any] = [
      "figures": entries, "passes": passEntries, "machine": machine(),
      "build": ["configuration": isDebugBuild ? "debug" : "release", "smoke": smoke],
    ]
    let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
  }

  private static func machine() -> [String: Any] {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) }
    var uts = utsname()
    uname(&uts)
    let release = withUnsafeBytes(of: &uts.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return [
      "cpu": model ?? "unknown", "processors": ProcessInfo.processInfo.activeProcessorCount,
      "memoryBytes": ProcessInfo.processInfo.physicalMemory, "kernel": release,
    ]
  }

  private static var isDebugBuild: Bool {
    #if DEBUG
      return true
    #else
      return false
    #endif
  }
}
