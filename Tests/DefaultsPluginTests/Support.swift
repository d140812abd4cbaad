import DefaultsPlugin
import Foundation

/// A `UserDefaults` suite of the test's own, in a directory of its own under the temporary directory (an
/// absolute suite name puts its file there), removed by ``remove()``: tests never touch a user's settings.
final class TemporarySuite: Sendable {
  let directory: URL
  let path: String
  let store: UserDefaultsStore

  init(_ name: String = #function) {
    let unique = "\(name.filter { $0.isLetter })-\(UUID().uuidString)"
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("deluxe-defaults-\(unique)")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    path = directory.appendingPathComponent("settings").path
    store = UserDefaultsStore(suiteName: path)!
  }

  /// The suite's `UserDefaults`, as another user of the settings would see them.
  var defaults: UserDefaults { store.defaults }

  /// The suite's file.
  var file: URL { URL(fileURLWithPath: path + ".plist") }

  /// What the file on disk holds now (empty when there is no file).
  func fileContents() -> [String: Any] {
    guard let data = try? Data(contentsOf: file),
      let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
    else { return [:] }
    return plist
  }

  /// Deletes the suite's directory and file (the process's `UserDefaults` forgets the suite at exit).
  /// Pending writes are flushed first: Foundation would otherwise write them later, from its own timer or
  /// at exit, and create the directory again.
  func remove() {
    _ = store.defaults.synchronize()
    try? FileManager.default.removeItem(at: directory)
  }
}
