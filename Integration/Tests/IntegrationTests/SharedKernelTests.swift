import Foundation
import Testing

/// Several images, one kernel: `SharedKernelHost` and the `SharedKernelFixture` library it opens with
/// `dlopen` both link the kernel through the `DeluxeInjectionDynamic` product, so the host injects a
/// property only the library declares and the library reads it. (This test binary links the static
/// products, so the host runs as a process of its own.)
@Suite struct SharedKernelTests {
  @Test func theHostInjectsAPropertyDeclaredInTheLoadedImage() throws {
    let executable = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    let host = executable.deletingLastPathComponent().appendingPathComponent("SharedKernelHost")
    try #require(FileManager.default.fileExists(atPath: host.path), "build the Integration package's products first")
    let process = Process()
    process.executableURL = host
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(
      text.split(separator: "\n").prefix(3) == [
        "properties found in the loaded image: endpoint, retries",
        "marked by another kernel copy: 0",
        "the loaded image reads: https://api.example.org 3",
      ])
  }

  @Test func theHostAndTheLibraryShareTheKernelsImage() throws {
    // Neither image carries a kernel of its own: both load the one shared library.
    let directory = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      .deletingLastPathComponent()
    for image in ["SharedKernelHost", "libSharedKernelFixture.so"] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["ldd", directory.appendingPathComponent(image).path]
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(text.contains("libDeluxeInjectionDynamic.so"), "\(image): \(text)")
    }
  }
}
