import DefaultsPlugin
import ForcePlugin
import Foundation
import ImperativePlugin
import InjectPlugin
import LazyPlugin

/// Everything the app is made of, injected in one place: one imperative block, one atomic commit, and a
/// check that no marked property of the app's classes was forgotten.
enum Wiring {
  /// Wires the app to files in `directory` and returns where the settings are stored.
  static func wire(directory: URL) throws -> (settingsFile: String, notes: any NoteStorage) {
    let storage = JSONFileNoteStorage(file: directory.appendingPathComponent("notes.json"))
    // A UserDefaults suite named by an absolute path is stored in that path + ".plist".
    let settingsPath = directory.appendingPathComponent("settings").path
    guard let settingsStore = UserDefaultsStore(suiteName: settingsPath) else {
      throw DemoError("cannot open the settings store at \(settingsPath).plist")
    }
    try Injection.imperative { lets in
      lets.checkCompleteness(in: NotesApp.self, Settings.self)
      // Services: every NotesApp, whenever created, reads these.
      try lets.inject((any NoteStorage).self).value(storage)
      try lets.inject(SystemClock.self).value(SystemClock())
      // Caches: built on first read, once per instance.
      lets.lazy(SearchIndex.self).declared(in: NotesApp.self).create { _ in SearchIndex(notes: storage.load()) }
      lets.lazy(DateFormatter.self).declared(in: NotesApp.self).create { _ in
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter
      }
      lets.injectLazy(in: NotesApp.self)
      // Settings: persisted in the settings file.
      lets.injectDefaults(in: Settings.self, store: { _ in settingsStore })
      // The legacy exporter's plain fields, filled by name and type.
      try lets.forceInject(in: LegacyExporter.self) { property in
        switch property.name {
        case "storage": return .value((storage as (any NoteStorage)?) as Any)
        case "title": return .value("My notes")
        default: return .skip
        }
      }
    }
    return (settingsPath + ".plist", storage)
  }
}

/// A mistake in how the demo was run.
struct DemoError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
