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

  // MARK: Cycles through other threads

  /// Which thread (its chain) holds each shared value's build lock, and which build lock each waiting
  /// thread waits for: thread A building X needs Y, which thread B is building and which needs X — each
  /// thread's own chain sees no cycle, and both would wait forever.
  private struct Waits {
    var holders: [ObjectIdentifier: Frames] = [:]
    var waiting: [ObjectIdentifier: (id: ObjectIdentifier, name: String)] = [:]
  }

  private static let waits = LockedState(Waits())

  /// Records that the calling thread is about to wait for `id`'s build lock.
  ///
  /// - Throws: ``ResolutionError/cycle(_:)`` when waiting would close a cycle through other threads —
  ///   `id`'s holder waits, directly or through other threads, for a lock this thread holds — with the
  ///   threads' chains in order. The thread that closes the cycle throws; the others wait for it.
  static func willWait(for id: ObjectIdentifier, named name: String) throws {
    let me = frames
    try waits.withLock { waits in
      // The chain: this thread's, then each holder's from the value it holds on, to what it waits for.
      var names = me.names + [name]
      var held = id
      var holder = waits.holders[id]
      var steps = 0
      while let current = holder, steps < 64 {
        guard let awaited = waits.waiting[ObjectIdentifier(current)] else { break }  // it runs: no cycle
        let from = current.ids.firstIndex(of: held).map { $0 + 1 } ?? current.ids.count
        names += current.names[from...] + [awaited.name]
        if waits.holders[awaited.id] === me { throw ResolutionError.cycle(names) }
        held = awaited.id
        holder = waits.holders[awaited.id]
        steps += 1
      }
      waits.waiting[ObjectIdentifier(me)] = (id, name)
    }
  }

  /// Records that the calling thread gave up waiting for the build lock of `name`'s binding, which would
  /// close a cycle through locks this chain does not see (a shared value's creation, a property's fill:
  /// the kernel's ``BuildLock`` refused), and returns the error that says so.
  static func gaveUpWaiting(for name: String) -> ResolutionError {
    let me = frames
    waits.withLock { waits in waits.waiting[ObjectIdentifier(me)] = nil }
    // What this thread holds that the other thread waits for: the property it is reading (a fill), else the
    // outermost value it is building (found by review H75: the message said "another thread" for this one).
    let held = Injection.propertyBeingRead.map { "\($0)" } ?? me.names.first ?? name
    return .cycle(me.names + [name, "a build or fill on another thread, which waits for this thread's \(held)"])
  }

  /// Records that the calling thread, done waiting, holds `id`'s build lock.
  static func holds(_ id: ObjectIdentifier) {
    let me = frames
    waits.withLock { waits in
      waits.waiting[ObjectIdentifier(me)] = nil
      waits.holders[id] = me
    }
  }

  /// Records that the calling thread released `id`'s build lock.
  static func released(_ id: ObjectIdentifier) {
    waits.withLock { waits in waits.holders[id] = nil }
  }

  private static func check(_ id: ObjectIdentifier, named name: String, in frames: Frames) throws {
    if let start = frames.ids.firstIndex(of: id) { throw ResolutionError.cycle(Array(frames.names[start...]) + [name]) }
  }
}
