import Foundation

// The demo's services: plain Swift types that know nothing about injection. The wiring in Wiring.swift
// hands them to the classes that declare they need them.

/// One note.
struct Note: Codable, Sendable {
  var text: String
  var created: Date
}

/// Where notes are kept.
protocol NoteStorage: Sendable {
  /// Every note, oldest first.
  func load() -> [Note]
  /// Replaces every note.
  func save(_ notes: [Note]) throws
  /// Where the notes are, for people.
  var location: String { get }
}

/// Notes in a JSON file.
struct JSONFileNoteStorage: NoteStorage {
  let file: URL

  func load() -> [Note] {
    guard let data = try? Data(contentsOf: file) else { return [] }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return (try? decoder.decode([Note].self, from: data)) ?? []
  }

  func save(_ notes: [Note]) throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(notes).write(to: file, options: .atomic)
  }

  var location: String { file.path }
}

/// The time, injected so that a test could fix it.
struct SystemClock: Sendable {
  func now() -> Date { Date() }
}

/// Where the demo keeps its files: `$XDG_CONFIG_HOME/deluxe-notes`, or `~/.config/deluxe-notes`, as
/// the XDG base directory convention says.
enum ConfigDirectory {
  static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
    let base: URL
    if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
      base = URL(fileURLWithPath: xdg, isDirectory: true)
    } else {
      base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config", isDirectory: true)
    }
    let directory = base.appendingPathComponent("deluxe-notes", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }
}
