internal import InjectionReadSections

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension PropertyDescriptor {
  /// What a read of this property says when it finds nothing to return (a non-optional with nothing
  /// injected and nothing stored), on one line, the property first:
  ///
  /// `MyApp.Downloader.retries: Swift.Int was read with nothing injected or stored: inject it with
  /// Injection.inject(Int.self).value(…), or assign it a value first.`
  public var missingValueMessage: String {
    let hint = markerType?.injectionHint(for: self) ?? "an injection"
    return "\(description) was read with nothing injected or stored: inject it with \(hint), "
      + "or assign it a value first."
  }
}

extension Injection {
  /// The marked property whose read the calling thread is in, while that read runs plugin code (a
  /// factory building a shared value or a fill, a getter); the outermost one when that code reads other
  /// properties. `nil` outside such reads (and for `static` and struct owners). A plugin whose value
  /// cannot be built during a read names it first in its message, as reads that cannot return anything
  /// do.
  public static var propertyBeingRead: PropertyDescriptor? {
    let bits = ik_reading_current()
    guard bits != 0 else { return nil }
    // Slots are immortal: the address stays valid.
    return Unmanaged<InjectionSlot>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue().property
  }

  /// Stops the program after writing `message` to standard error as one line (line breaks become
  /// spaces), so that the first thing a crash log says is what the user's code did — not a library file
  /// and line, as `fatalError` would print first. For reads that cannot return anything.
  public static func stop(_ message: String) -> Never {
    let line = String(message.map { $0.isNewline ? " " : $0 }) + "\n"
    let bytes = Array(line.utf8)
    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { write(2, $0.baseAddress! + written, $0.count - written) }
      if result <= 0 { break }
      written += result
    }
    abort()
  }
}
