import BenchHosts
import Foundation
import InjectPlugin
import Synchronization

/// Reads of one dependency: a plain stored property (the baseline of every read) and `@Inject` on a
/// final class, a subclass and a generic class, plus Swift's `lazy var` after creation.
func readBenchmarks(service: Service) throws -> [Benchmark] {
  try Injection.inject(Service.self).value(service)
  try Injection.inject(Int.self).declared(in: FinalHost.self).value(1)
  // 16 instances read in turn, so no figure can keep one value in a register.
  let plain = (0..<16).map { _ in PlainHost(service: service) }
  let finals = (0..<16).map { _ in FinalHost() }
  let subclasses: [BaseHost] = (0..<16).map { _ in SubclassHost() }
  let generics = (0..<16).map { _ in GenericHost<Int>() }
  let lazies = (0..<16).map { _ in LazyHost() }
  // Hosts of their own for the writes, so that the reads above keep reading the injection.
  let (writtenPlain, writtenFinals) = (
    (0..<16).map { _ in PlainHost(service: service) }, (0..<16).map { _ in FinalHost() }
  )
  _ = readLoop(lazies, 16, Reads.swiftLazy)  // created: the figure is a read after creation
  // Borrowed views of the same hosts (the arrays above keep them alive).
  let (borrowedPlain, borrowedFinals) = (plain.map(Unmanaged.passUnretained), finals.map(Unmanaged.passUnretained))
  let (borrowedSubclasses, borrowedGenerics) = (
    subclasses.map(Unmanaged.passUnretained), generics.map(Unmanaged.passUnretained)
  )
  let borrowedLazies = lazies.map(Unmanaged.passUnretained)

  return [
    Benchmark(.read, Baseline.plainRead) { n in readLoop(plain, n, Reads.plain) },
    Benchmark(.read, Baseline.injectRead, vs: Baseline.plainRead) { n in readLoop(finals, n, Reads.final) },
    Benchmark(.read, "@Inject, subclass (declared in base)", vs: Baseline.plainRead) { n in
      readLoop(subclasses, n, Reads.subclass)
    },
    Benchmark(.read, "@Inject, generic class", vs: Baseline.plainRead) { n in readLoop(generics, n, Reads.generic) },
    // The same reads of an `Int`: a class-typed value read through a getter is retained and released,
    // a plain read of one is not, so these two show what the wrapper costs apart from reference counting.
    Benchmark(.read, "plain stored property, Int") { n in readLoop(plain, n, Reads.plainInt) },
    Benchmark(.read, "@Inject, final class, Int", vs: "plain stored property, Int") { n in
      readLoop(finals, n, Reads.finalInt)
    },
    Benchmark(.read, "Swift lazy var after creation", vs: Baseline.plainRead) { n in
      readLoop(lazies, n, Reads.swiftLazy)
    },
    // The same reads with the host borrowed by the caller.
    Benchmark(.read, Baseline.plainBorrowedRead) { n in borrowedReadLoop(borrowedPlain, n, Reads.plain) },
    Benchmark(.read, "@Inject, final class, borrowed host", vs: Baseline.plainBorrowedRead) { n in
      borrowedReadLoop(borrowedFinals, n, Reads.final)
    },
    Benchmark(.read, "@Inject, subclass, borrowed host", vs: Baseline.plainBorrowedRead) { n in
      borrowedReadLoop(borrowedSubclasses, n, Reads.subclass)
    },
    Benchmark(.read, "@Inject, generic class, borrowed host", vs: Baseline.plainBorrowedRead) { n in
      borrowedReadLoop(borrowedGenerics, n, Reads.generic)
    },
    Benchmark(.read, "Swift lazy var after creation, borrowed host", vs: Baseline.plainBorrowedRead) { n in
      borrowedReadLoop(borrowedLazies, n, Reads.swiftLazy)
    },
    // Writes: an `@Inject` write replaces the instance's held value under the field's lock and releases
    // the old one after a grace period (one membarrier call on Linux), what makes reads safe against it.
    Benchmark(.write, "plain stored property, write") { n in
      for index in 0..<n { Writes.plain(writtenPlain[index & 15], service) }
      return n
    },
    Benchmark(.write, "@Inject, final class, write", vs: "plain stored property, write", divisor: 20) { n in
      for index in 0..<n { Writes.final(writtenFinals[index & 15], service) }
      return n
    },
    // The grace period interrupts the other threads that read (membarrier): the common case in an app.
    Benchmark(
      .write, "@Inject, final class, write while another thread reads", vs: "plain stored property, write",
      divisor: 2_000
    ) { n in
      whileAnotherThreadReads(writtenFinals[0]) {
        for index in 0..<n { Writes.final(writtenFinals[index & 15], service) }
      }
      return n
    },
  ]
}

/// Runs `body` while a thread of its own reads `host`'s `@Inject` property in a loop.
private func whileAnotherThreadReads(_ host: FinalHost, _ body: () -> Void) {
  let reader = ReaderThreadState()
  let thread = Thread { [reader, host = UncheckedHost(host: host)] in
    reader.started.store(true, ordering: .releasing)
    var sum = 0
    while !reader.stop.load(ordering: .acquiring) { sum &+= Reads.final(host.host) }
    reader.sum.store(sum, ordering: .relaxed)
    reader.finished.signal()
  }
  thread.start()
  while !reader.started.load(ordering: .acquiring) { usleep(50) }
  body()
  reader.stop.store(true, ordering: .releasing)
  reader.finished.wait()
}

/// What the reading thread and the benchmark share.
private final class ReaderThreadState: Sendable {
  let started = Atomic<Bool>(false)
  let stop = Atomic<Bool>(false)
  /// The sum of what the thread read, stored once at its end so that the optimizer keeps the reads.
  let sum = Atomic<Int>(0)
  let finished = DispatchSemaphore(value: 0)
}

/// A host handed to the reading thread (its `@Inject` property is safe to read from any thread).
private struct UncheckedHost: @unchecked Sendable {
  let host: FinalHost
}
