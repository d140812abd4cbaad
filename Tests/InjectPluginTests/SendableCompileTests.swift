import Foundation
import Testing

// A non-`Sendable` value given to a verb that shares it is a compile error. The test type-checks small
// programs against the modules this test binary was built from, with the toolchain that built them.

@Suite struct SendableCompileTests {
  @Test func sharingANonSendableValueDoesNotCompileAndUncheckedSendableDoes() throws {
    let prelude = """
      import InjectPlugin
      final class Counter { var n = 0 }
      final class Worker { @Inject var counter: Counter; @Inject var maybe: Counter? }
      func configure() throws {

      """
    let refused = [
      "try Injection.inject(Counter.self).value(Counter())",
      "try Injection.inject(Counter.self).shared { Counter() }",
      "let counter = Counter(); try Injection.inject(Counter?.self).weak(counter)",
    ]
    for statement in refused {
      let diagnostics = try typeCheck(prelude + statement + "\n}\n")
      #expect(
        diagnostics.contains("error: type 'Counter' does not conform to the 'Sendable' protocol"),
        "\(statement) compiled:\n\(diagnostics)")
    }
    let accepted = """
      try Injection.inject(Counter.self).value(UncheckedSendable(Counter()))
      try Injection.inject(Counter.self).shared { UncheckedSendable(Counter()) }
      let counter = Counter(); try Injection.inject(Counter?.self).weak(UncheckedSendable(counter))
      """
    let diagnostics = try typeCheck(prelude + accepted + "\n}\n")
    #expect(!diagnostics.contains("error"), "\(diagnostics)")
  }

  @Test func selectingAnyTypeInNoClassDoesNotCompile() throws {
    // With no class, the selection would reach every class's properties of any type.
    let source = """
      import InjectPlugin
      final class Worker { @Inject var retries: Int }
      func configure() throws {
        try Injection.inject(valueOf: Int.self, anyTypeIn: Worker.self).named("retries").value(3)
        try Injection.inject(valueOf: Int.self).named("retries").value(3)
      }

      """
    let diagnostics = try typeCheck(source)
    // `file.swift:LINE:COLUMN: error: …` lines: one, for the second call.
    let errorLines = diagnostics.split(separator: "\n").compactMap { line -> Substring? in
      guard line.contains(": error: "), let file = line.range(of: ".swift:") else { return nil }
      return line[file.upperBound...].prefix { $0 != ":" }
    }
    #expect(errorLines == ["5"], "the second call, and only it, must be refused:\n\(diagnostics)")
  }

  /// Runs `swiftc -typecheck` on `source` in Swift 6 mode against this build's modules; returns its output.
  private func typeCheck(_ source: String) throws -> String {
    // The test binary lives in `.build/<configuration>/`, beside `Modules/` and the C module's map.
    let binary = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    var directory = binary.deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Modules").path) {
      try #require(directory.path != "/", "no Modules directory above \(binary.path)")
      directory = directory.deletingLastPathComponent()
    }
    // The kernel's C modules.
    let moduleMaps = ["InjectionReadSections", "InjectionOwnerLifetime"].map {
      directory.appendingPathComponent("\($0).build/module.modulemap").path
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("sendable-\(UUID().uuidString).swift")
    try source.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      [
        "swiftc", "-typecheck", "-swift-version", "6", "-I", directory.appendingPathComponent("Modules").path,
        file.path,
      ] + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}
