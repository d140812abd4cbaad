import InjectionKernel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the calling thread is building, outermost first: a factory that needs, through resolves or
/// property reads, something already on the chain is a cycle, reported instead of recursing forever
/// (or waiting forever on a singleton's own lock).
///
/// Per thread, not per task: factories are synchronous, so a build runs on one thread from start to end.
enum ResolutionChain {
  /// One thread's chain.
  final class Frames {
    var ids: [ObjectIdentifier] = []
    var names: [String] = []
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
      pthread_key_create(&key) { Unmanaged<Frames>.fromOpaque($0).release() }
    #else
      pthread_key_create(&key) { pointer in pointer.map { Unmanaged<Frames>.fromOpaque($0).release() } }
    #endif
    return key
  }()

  /// The calling thread's chain, created on its first build.
  private static var frames: Frames {
    if let existing = pthread_getspecific(key) { return Unmanaged<Frames>.fromOpaque(existing).takeUnretainedValue() }
    let created = Frames()
    pthread_setspecific(key, Unmanaged.passRetained(created).toOpaque())
    return created
  }

  /// Runs `body` with `id` (shown as `name`) on the chain.
  ///
  /// - Throws: ``ResolutionError/cycle(_:)`` when `id` is on the chain already, without running `body`.
  static func building<Result>(_ id: ObjectIdentifier, named name: String, _ body: () throws -> Result) throws
    -> Result
  {
    let frames = frames
    try check(id, named: name, in: frames)
    frames.ids.append(id)
    frames.names.append(name)
    defer {
      frames.ids.removeLast()
      frames.names.removeLast()
    }
    return try body()
  }

  /// Throws ``ResolutionError/cycle(_:)`` when `id` is being built on this thread.
  static func check(_ id: ObjectIdentifier, named name: String) throws {
    try check(id, named: name, in: frames)
  }

  private static func check(_ id: ObjectIdentifier, named name: String, in frames: Frames) throws {
    if let start = frames.ids.firstIndex(of: id) { throw ResolutionError.cycle(Array(frames.names[start...]) + [name]) }
  }
}
