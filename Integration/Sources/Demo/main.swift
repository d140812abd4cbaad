import DefaultsPlugin
import Foundation
import InjectPlugin

// deluxe-notes: a small notes tool, and a tour of DeluxeInjection. Run it with no arguments for the
// tour; `help` lists the commands.

let arguments = Array(CommandLine.arguments.dropFirst())

do {
  let directory = try ConfigDirectory.resolve()
  let wiring = try Wiring.wire(directory: directory)
  let app = NotesApp()
  let settings = Settings()
  let order = SortOrder(rawValue: settings.sortOrder) ?? .newestFirst

  switch arguments.first {
  case nil:
    settings.runs += 1
    let previous = settings.lastRun
    settings.lastRun = ISO8601DateFormatter().string(from: Date())
    print(
      """
      deluxe-notes — a notes tool wired by DeluxeInjection.

      Nothing in this program constructs its services by hand. Its classes only declare what they need:
        NotesApp   @Inject var storage, clock        services, injected once at start-up
                   @Lazy var index, dateFormatter    caches, built the first time they are read
        Settings   @Defaults var sortOrder, runs     settings, kept in a file between runs
        LegacyExporter (a plain class, no markers)  filled by ForcePlugin from a decision over its fields
      and one `Injection.imperative { lets in … }` block (Sources/Demo/Wiring.swift) wires them all,
      checking that nothing marked was left without an injection.

      Settings file: \(wiring.settingsFile)
      Notes file:    \(wiring.notes.location)
        (both under $XDG_CONFIG_HOME/deluxe-notes, or ~/.config/deluxe-notes when it is not set)

      """)
    if let previous {
      print("This is run \(settings.runs) on this machine; the last one was at \(previous).")
      print("Those two values are @Defaults properties: the previous run wrote them, this one read them back.")
    } else {
      print("This is the first run: run the demo again and it will remember this one (a @Defaults setting).")
    }
    print("Notes are listed \(order == .newestFirst ? "newest" : "oldest") first (change it: `Demo sort oldest`).\n")
    let notes = app.notes(order: order)
    if notes.isEmpty {
      print("No notes yet. Add one: swift run --package-path Integration Demo add \"buy milk\"")
    } else {
      print("Your \(notes.count) note\(notes.count == 1 ? "" : "s"):")
      for note in notes { print("  " + app.line(for: note)) }
    }
    print(
      """

      Commands: add TEXT, list, search WORD, sort newest|oldest, export, reset,
                --report (what is injected where), --graph [mermaid|dot] (the same as a diagram)
      """)

  case "add":
    let text = arguments.dropFirst().joined(separator: " ")
    guard !text.isEmpty else { throw DemoError("add needs the note's text: Demo add \"buy milk\"") }
    let note = try app.add(text)
    print("Added: \(app.line(for: note))  (saved in \(wiring.notes.location) by the injected storage)")

  case "list":
    for note in app.notes(order: order) { print(app.line(for: note)) }

  case "search":
    guard let word = arguments.dropFirst().first else { throw DemoError("search needs a word: Demo search milk") }
    let found = app.search(word)
    print("\(found.count) note\(found.count == 1 ? "" : "s") with \"\(word)\" (from the @Lazy index, built just now):")
    for note in found { print("  " + app.line(for: note)) }

  case "sort":
    guard let value = arguments.dropFirst().first, let newOrder = SortOrder(rawValue: value) else {
      throw DemoError("sort takes newest or oldest")
    }
    settings.sortOrder = newOrder.rawValue
    print(
      "Notes will be listed \(newOrder.rawValue) first, in this run and the next ones (saved in \(wiring.settingsFile))."
    )

  case "export":
    // A plain object, filled by the force rule of the wiring block.
    let exporter = try Injection.fill(LegacyExporter())
    print(exporter.markdown())

  case "reset":
    try wiring.notes.save([])
    settings.sortOrder = SortOrder.newestFirst.rawValue
    settings.runs = 0
    settings.lastRun = nil
    print("Removed every note and setting.")

  case "--report":
    print("What is injected where (Injection.report()):\n")
    print(Injection.report())

  case "--graph":
    let graph = Injection.graph()
    if arguments.dropFirst().first == "dot" {
      print(graph.dot)
    } else {
      print("%% The injection graph as Mermaid (paste it into a ```mermaid block); `--graph dot` gives Graphviz.")
      print(graph.mermaid)
    }

  case "help", "--help", "-h":
    print(
      "Usage: Demo [add TEXT | list | search WORD | sort newest|oldest | export | reset | --report | --graph [dot]]")

  default:
    throw DemoError("unknown command \(arguments[0]); try `Demo help`")
  }
} catch {
  FileHandle.standardError.write(Data("Demo: \(error)\n".utf8))
  exit(1)
}
