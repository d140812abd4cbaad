import Foundation

/// The machine a run was measured on: /proc/cpuinfo, uname and the process's view of the hardware.
enum Machine {
  static func description() -> [String: Any] {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    func first(_ key: String) -> String? {
      cpuinfo.split(separator: "\n").first { $0.hasPrefix(key) }
        .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) }
    }
    var uts = utsname()
    uname(&uts)
    func text<T>(_ field: inout T) -> String {
      withUnsafeBytes(of: &field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    return [
      "cpu": first("model name") ?? "unknown",
      "cpuMHz": first("cpu MHz") ?? "unknown",
      "cacheSize": first("cache size") ?? "unknown",
      "logicalProcessors": cpuinfo.split(separator: "\n").filter { $0.hasPrefix("processor") }.count,
      "activeProcessors": ProcessInfo.processInfo.activeProcessorCount,
      "memoryBytes": ProcessInfo.processInfo.physicalMemory,
      "uname": [
        "sysname": text(&uts.sysname), "release": text(&uts.release), "version": text(&uts.version),
        "machine": text(&uts.machine),
      ],
    ]
  }
}
