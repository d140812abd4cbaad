import Dispatch
import Foundation
import Synchronization

/// Runs `reader` in a loop on `readers` threads of their own while `writer` runs on the calling thread,
/// and returns once every thread is done. The writer starts only when every reader is running, and each
/// reader runs at least once after the writer finished, so the two really overlap (on any number of
/// cores — unlike `DispatchQueue.concurrentPerform`, which runs at most one iteration per core).
public func whileWriting(
  readers: Int, _ writer: () -> Void, read reader: @escaping @Sendable () -> Void
) {
  let running = ReaderThreads(readers, reader)
  writer()
  running.stop()
}

/// ``whileWriting(readers:_:read:)`` with a writer that awaits (tasks it started, say): it suspends
/// instead of blocking its thread, so the tasks it waits for can run on the few threads of the
/// cooperative pool (as many as cores) even when other tests block the rest.
public func whileAwaiting(
  readers: Int, _ writer: () async -> Void, read reader: @escaping @Sendable () -> Void
) async {
  let running = ReaderThreads(readers, reader)
  await writer()
  running.stop()
}

/// Reader threads looping until stopped; each reads once more after the stop was asked.
private struct ReaderThreads {
  let state = SharedState()
  let finished = DispatchGroup()

  /// Starts `count` threads running `reader` in a loop; returns once all are running.
  init(_ count: Int, _ reader: @escaping @Sendable () -> Void) {
    let state = state
    let finished = finished
    for _ in 0..<count {
      finished.enter()
      let thread = Thread {
        state.started.add(1, ordering: .releasing)
        while !state.done.load(ordering: .acquiring) { reader() }
        reader()
        finished.leave()
      }
      thread.start()
    }
    while state.started.load(ordering: .acquiring) < count { usleep(100) }
  }

  /// Stops the threads and waits for them (a moment: each finishes its read and one more).
  func stop() {
    state.done.store(true, ordering: .releasing)
    finished.wait()
  }
}

/// The flags the threads share.
private final class SharedState: Sendable {
  let started = Atomic<Int>(0)
  let done = Atomic<Bool>(false)
}

/// A counter threads can share.
public final class Counter: Sendable {
  private let value = Atomic<Int>(0)

  /// A counter at zero.
  public init() {}

  /// Adds one.
  public func increment() { value.add(1, ordering: .relaxed) }

  /// Subtracts one.
  public func decrement() { value.subtract(1, ordering: .relaxed) }

  /// The count so far.
  public var count: Int { value.load(ordering: .relaxed) }
}

/// Runs `body` on `threads` threads of their own, released together once all have started, and returns
/// when all are done (`DispatchQueue.concurrentPerform` would use at most one thread per core).
public func concurrently(threads: Int, _ body: @escaping @Sendable (_ thread: Int) -> Void) {
  let state = SharedState()
  let finished = DispatchGroup()
  for index in 0..<threads {
    finished.enter()
    let thread = Thread {
      state.started.add(1, ordering: .releasing)
      while !state.done.load(ordering: .acquiring) { sched_yield() }
      body(index)
      finished.leave()
    }
    thread.start()
  }
  while state.started.load(ordering: .acquiring) < threads { usleep(100) }
  state.done.store(true, ordering: .releasing)  // here: "go"
  finished.wait()
}
