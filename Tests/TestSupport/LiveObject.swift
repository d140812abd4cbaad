/// An object that counts its live instances in a ``Counter`` (give each test its own counter): tests of
/// what the kernel keeps alive check the counter after dropping their references.
public final class LiveObject: Sendable {
  /// The counter this object was counted in.
  public let live: Counter
  /// A number telling objects apart.
  public let id: Int

  /// A new object, counted in `live` until it is deallocated.
  public init(_ live: Counter, id: Int = 0) {
    self.live = live
    self.id = id
    live.increment()
  }

  deinit { live.decrement() }
}
