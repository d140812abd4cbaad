import Foundation
import Testing

/// Runs the built demo (`Demo`, next to this test binary) as a user would, against a scratch
/// `XDG_CONFIG_HOME`: settings survive a second run, notes are stored where the demo says.
@Suite struct DemoTests {
  /// A scratch configuration home of the test's own.
  final class Home {
    let url: URL
    init() throws {
      url = FileManager.default.temporaryDirectory.appendingPathComponent("deluxe-notes-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    /// Runs the demo with `arguments`; returns its exit status, standard output and standard error.
    func run(_ arguments: String...) throws -> (status: Int32, output: String, error: String) {
      let executable = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      let demo = executable.deletingLastPathComponent().appendingPathComponent("Demo")
      try #require(FileManager.default.fileExists(atPath: demo.path), "build the Integration package first")
      let process = Process()
      process.executableURL = demo
      process.arguments = arguments
      var environment = ProcessInfo.processInfo.environment
      environment["XDG_CONFIG_HOME"] = url.path
      process.environment = environment
      let output = Pipe()
      let error = Pipe()
      process.standardOutput = output
      process.standardError = error
      try process.run()
      let outputData = output.fileHandleForReading.readDataToEndOfFile()
      let errorData = error.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return (
        process.terminationStatus, String(decoding: outputData, as: UTF8.self),
        String(decoding: errorData, as: UTF8.self)
      )
    }
  }

  @Test func theSecondRunRemembersTheFirst() throws {
    let home = try Home()
    let first = try home.run()
    #expect(first.status == 0, "\(first.error)")
    #expect(first.output.contains("This is the first run"))
    #expect(first.output.contains("Settings file: \(home.url.path)/deluxe-notes/settings.plist"))
    #expect(first.output.contains("Notes are listed newest first"))

    #expect(try home.run("sort", "oldest").status == 0)
    let second = try home.run()
    #expect(second.status == 0, "\(second.error)")
    #expect(second.output.contains("This is run 2 on this machine"))
    #expect(second.output.contains("Notes are listed oldest first"))
    #expect(FileManager.default.fileExists(atPath: "\(home.url.path)/deluxe-notes/settings.plist"))
  }

  @Test func notesAreStoredSearchedAndExported() throws {
    let home = try Home()
    #expect(try home.run("add", "buy", "milk").status == 0)
    #expect(try home.run("add", "call Kim about the milk").status == 0)
    #expect(try home.run("add", "water the plants").status == 0)

    let listed = try home.run("list").output.split(separator: "\n").map { $0.dropFirst(18) }
    #expect(listed == ["water the plants", "call Kim about the milk", "buy milk"])
    #expect(try home.run("sort", "oldest").status == 0)
    #expect(try home.run("list").output.split(separator: "\n").map { $0.dropFirst(18) }.first == "buy milk")

    let search = try home.run("search", "MILK").output
    #expect(search.hasPrefix("2 notes with \"MILK\""))
    #expect(!search.contains("plants"))

    let export = try home.run("export").output
    #expect(export == "# My notes\n\n* buy milk\n* call Kim about the milk\n* water the plants\n")
    let stored = try Data(contentsOf: home.url.appendingPathComponent("deluxe-notes/notes.json"))
    #expect(String(decoding: stored, as: UTF8.self).contains("water the plants"))
  }

  @Test func reportAndGraphShowTheWiring() throws {
    let home = try Home()
    let report = try home.run("--report").output
    #expect(report.contains("Demo.NotesApp.storage: Demo.NoteStorage <- value Demo.NoteStorage (Inject)"))
    #expect(report.contains("Demo.Settings.sortOrder: Swift.String <- defaults (Defaults)"))
    #expect(report.contains("Demo.NotesApp.index: Demo.SearchIndex <- lazy (Lazy)"))

    let mermaid = try home.run("--graph").output
    #expect(mermaid.contains("flowchart LR"))
    #expect(mermaid.contains("-->|\"sortOrder: String\"|"))
    let dot = try home.run("--graph", "dot").output
    #expect(dot.hasPrefix("digraph injections {"))
    #expect(dot.contains("label=\"Lazy\""))
  }

  @Test func mistakesAreSaidOnStandardError() throws {
    let home = try Home()
    let result = try home.run("sort", "sideways")
    #expect(result.status == 1)
    #expect(result.error == "Demo: sort takes newest or oldest\n")
  }
}
