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
  let state = SharedState()
  let finished = DispatchGroup()
  for _ in 0..<readers {
    finished.enter()
    let thread = Thread {
      state.started.add(1, ordering: .releasing)
      while !state.done.load(ordering: .acquiring) { reader() }
      reader()
      finished.leave()
    }
    thread.start()
  }
  while state.started.load(ordering: .acquiring) < readers { usleep(100) }
  writer()
  state.done.store(true, ordering: .releasing)
  finished.wait()
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
