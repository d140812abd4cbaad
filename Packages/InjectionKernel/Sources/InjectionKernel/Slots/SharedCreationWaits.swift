/// Which thread is creating each ``SharedValue`` now, and which value each waiting thread waits for, so
/// that a cycle through several threads is reported instead of waiting forever: thread 1 creating `A`
/// needs `B`, which thread 2 is creating and which needs `A` — neither thread sees a cycle of its own
/// (each value's creator check sees another thread), and both would wait for the other's creation lock.
///
/// A waiting thread records what it waits for before it blocks, and a thread that takes a value's
/// creation lock records that it holds it before its factory runs (so before it can wait for anything):
/// every cycle's last edge is a wait, whose thread walks the graph under this state's lock and sees the
/// whole cycle. Only first reads, which take the creation lock, come here.
enum SharedCreationWaits {
  private struct Graph {
    /// The thread holding each value's creation lock, and the value's type name.
    var creators: [ObjectIdentifier: (thread: UInt, name: String)] = [:]
    /// The value each waiting thread waits for.
    var waiting: [UInt: ObjectIdentifier] = [:]
  }

  private static let graph = LockedState(Graph())

  /// Records that `thread` is about to wait for `value`'s creation. Returns, instead of recording, the
  /// type names of the cycle waiting would close — starting with `value`'s and ending with the one
  /// `thread` creates itself — when `value`'s creator waits, directly or through other threads, for a
  /// value `thread` is creating.
  static func willWait(for value: ObjectIdentifier, thread: UInt) -> [String]? {
    graph.withLock { graph in
      var names: [String] = []
      var awaited = value
      // Each creator waits for at most one value, so the walk ends: at a creator that runs (no cycle),
      // at this thread (the cycle), or — a cycle of other threads, which their own walk reports — after
      // as many steps as there are waiting threads.
      for _ in 0...graph.waiting.count {
        guard let creator = graph.creators[awaited] else { break }
        names.append(creator.name)
        if creator.thread == thread { return names }
        guard let next = graph.waiting[creator.thread] else { break }
        awaited = next
      }
      graph.waiting[thread] = value
      return nil
    }
  }

  /// Records that `thread`, done waiting if it waited, holds `value`'s creation lock (`name`: the value's
  /// type).
  static func holds(_ value: ObjectIdentifier, named name: String, thread: UInt) {
    graph.withLock { graph in
      graph.waiting[thread] = nil
      graph.creators[value] = (thread, name)
    }
  }

  /// Records that `value`'s creation lock is released.
  static func released(_ value: ObjectIdentifier) {
    graph.withLock { graph in graph.creators[value] = nil }
  }
}
