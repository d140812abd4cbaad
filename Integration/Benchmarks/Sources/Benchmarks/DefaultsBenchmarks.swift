import BenchHosts
import DefaultsPlugin
import Foundation

/// DefaultsPlugin: a `@Defaults` read and write beside the same `UserDefaults` calls made by hand, on one
/// suite in the temporary directory (never the user's settings; the suite's file is removed at exit).
func defaultsBenchmarks() throws -> [Benchmark] {
  let path = NSTemporaryDirectory() + "deluxe-bench-defaults-\(getpid())"
  atexit {
    try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "deluxe-bench-defaults-\(getpid()).plist")
  }
  let store = UserDefaultsStore(suiteName: path)!
  try Injection.injectDefaults(in: DefaultsHost.self, store: { _ in store })
  let hosts = (0..<16).map { _ in DefaultsHost() }
  let byHand = (0..<16).map { _ in ByHandHost(store.defaults) }
  hosts[0].volume = 0.75
  byHand[0].volume = 0.75
  precondition(hosts[1].volume == 0.75 && store.defaults.double(forKey: "bench.volume") == 0.75)
  let readByHand = "UserDefaults read by hand (object(forKey:) as? Double)"
  let writeByHand = "UserDefaults write by hand (set(_:forKey:))"
  return [
    Benchmark(.settings, readByHand, divisor: 50) { n in readLoop(byHand, n, SettingsAccess.readByHand) },
    Benchmark(.settings, "@Defaults read", vs: readByHand, divisor: 50) { n in
      readLoop(hosts, n, SettingsAccess.read)
    },
    Benchmark(.settings, writeByHand, divisor: 50) { n in
      for index in 0..<n { SettingsAccess.writeByHand(byHand[index & 15], Double(index & 7)) }
      return n
    },
    Benchmark(.settings, "@Defaults write, optional", vs: writeByHand, divisor: 50) { n in
      for index in 0..<n { SettingsAccess.writeOptional(hosts[index & 15], Double(index & 7)) }
      return n
    },
    Benchmark(.settings, "@Defaults write, with an initial value", vs: writeByHand, divisor: 50) { n in
      for index in 0..<n { SettingsAccess.write(hosts[index & 15], Double(index & 7)) }
      return n
    },
  ]
}
