import DefaultsPlugin
import Foundation
import InjectPlugin
import LazyPlugin

/// The notes tool. It declares what it uses and never constructs a service itself: `@Inject` properties
/// are services handed out by the wiring, `@Lazy` ones are caches built on first read.
final class NotesApp {
  @Inject var storage: any NoteStorage
  @Inject var clock: SystemClock
  @Lazy var index: SearchIndex  // built from the notes the first time a search needs it
  @Lazy var dateFormatter: DateFormatter  // created once per app object, on first use

  func add(_ text: String) throws -> Note {
    let note = Note(text: text, created: clock.now())
    try storage.save(storage.load() + [note])
    return note
  }

  func notes(order: SortOrder) -> [Note] {
    let notes = storage.load()
    return order == .oldestFirst ? notes : notes.reversed()
  }

  func search(_ word: String) -> [Note] { index.notes(containing: word) }

  func line(for note: Note) -> String { "\(dateFormatter.string(from: note.created))  \(note.text)" }
}

/// A word index over the notes: the kind of cache `@Lazy` is for.
final class SearchIndex {
  private let notesByWord: [String: [Note]]

  init(notes: [Note]) {
    var index: [String: [Note]] = [:]
    for note in notes {
      for word in Set(SearchIndex.words(in: note.text)) { index[word, default: []].append(note) }
    }
    notesByWord = index
  }

  func notes(containing word: String) -> [Note] { notesByWord[word.lowercased()] ?? [] }

  static func words(in text: String) -> [String] {
    text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
  }
}

/// How notes are listed.
enum SortOrder: String {
  case newestFirst = "newest"
  case oldestFirst = "oldest"
}

/// The user's settings: each `@Defaults` property reads and writes a key of the settings file, so a
/// value set in one run is there in the next.
final class Settings {
  @Defaults("sortOrder") var sortOrder = SortOrder.newestFirst.rawValue
  @Defaults("runs") var runs = 0
  @Defaults("lastRun") var lastRun: String?
}
