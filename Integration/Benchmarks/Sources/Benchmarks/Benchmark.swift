/// One named measurement in the registry: `body(count)` performs `count` operations and returns a
/// checksum (which keeps the work from being optimized away).
///
/// A new figure is one entry in a list that `main.swift` runs:
///
/// ```swift
/// Benchmark(.read, "@Inject, final class", vs: Baseline.plainRead) { n in
///   readLoop(finals, n, Reads.final)
/// }
/// ```
struct Benchmark {
  /// Where the figure goes in the table.
  enum Group: String, CaseIterable {
    /// One property read or resolution per operation.
    case read
    /// One property write per operation.
    case write
    /// One injection commit (of one value or a batch) per operation.
    case setup = "set-up"
    /// One fill of an existing object (ForcePlugin) or the assignments it replaces, per operation.
    case fill
    /// One settings read or write (DefaultsPlugin) or the `UserDefaults` call it replaces, per operation.
    case settings
    /// One read or write of a property declared in an extension (AssociatePlugin) or a plain one.
    case associated = "associated property"
  }

  let group: Group
  let name: String
  /// The figures this one is divided by, the first being its baseline ("2.0x" = twice as slow).
  let baselines: [String]
  /// Runs `iterations / divisor` operations per round, for operations far slower than a read.
  let divisor: Int
  let body: (Int) -> Int

  init(
    _ group: Group, _ name: String, vs baselines: String..., divisor: Int = 1,
    _ body: @escaping (Int) -> Int
  ) {
    self.group = group
    self.name = name
    self.baselines = baselines
    self.divisor = divisor
    self.body = body
  }
}

/// Names the other figures are compared with.
enum Baseline {
  /// The baseline of every read figure.
  static let plainRead = "plain stored property"
  /// What Swinject's resolve is compared with: the same dependency read through `@Inject`.
  static let injectRead = "@Inject, final class"
  /// The baseline of the reads whose caller borrows the host (see ``borrowedReadLoop(_:_:_:)``).
  static let plainBorrowedRead = "plain stored property, borrowed host"
}

/// `count` reads, `read` applied to the hosts in turn (the instance changes on every call); returns the
/// sum. `hosts.count` must be a power of two.
@inline(__always)
func readLoop<Host>(_ hosts: [Host], _ count: Int, _ read: (Host) -> Int) -> Int {
  let mask = hosts.count - 1
  var sum = 0
  for index in 0..<count { sum &+= read(hosts[index & mask]) }
  return sum
}

/// Like ``readLoop(_:_:_:)``, but the caller borrows each host instead of copying it out of the array,
/// as a method reading `self.property` does. Out of an array, a host is retained around any read that may
/// call code the compiler cannot see (an `@Inject` read's rare slow path, a `lazy var`'s initializer) and
/// not around a plain read; these figures leave that retain out and show the read alone.
@inline(__always)
func borrowedReadLoop<Host: AnyObject>(_ hosts: [Unmanaged<Host>], _ count: Int, _ read: (Host) -> Int) -> Int {
  let mask = hosts.count - 1
  var sum = 0
  for index in 0..<count { sum &+= hosts[index & mask]._withUnsafeGuaranteedRef { read($0) } }
  return sum
}
