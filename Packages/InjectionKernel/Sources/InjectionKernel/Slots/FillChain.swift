#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The fills running on the calling thread (`ifNil`, `@Lazy` and the like), outermost first, so that a
/// cycle of fills through new instances stops with the chain instead of overflowing the stack: `A.b`'s
/// factory makes a `B` whose initializer reads its `a`, whose factory makes an `A` whose initializer
/// reads its `b`, and so on. Each fill is another instance's, so no field lock sees a cycle (those stop a
/// factory that reads the very property it fills).
///
/// A fill may legitimately read the same property of another instance whose fill then runs (a factory
/// deriving its value from a shared base instance's), so only a property whose fills nest
/// ``nestingLimit`` deep on one thread is a cycle. Per thread, not per task: a factory is synchronous.
@usableFromInline
enum FillChain {
  /// How deep the fills of one property may nest on one thread before they are taken for a cycle.
  static let nestingLimit = 8

  /// One thread's running fills.
  private final class Frames {
    var slots: [InjectionSlot] = []
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

  /// The calling thread's fills, created on its first fill.
  private static var frames: Frames {
    if let existing = pthread_getspecific(key) { return Unmanaged<Frames>.fromOpaque(existing).takeUnretainedValue() }
    let created = Frames()
    pthread_setspecific(key, Unmanaged.passRetained(created).toOpaque())
    return created
  }

  /// Notes that a fill of `slot`'s property starts on this thread (its factory runs until ``leave()``);
  /// stops with the chain when the property's fills would nest deeper than ``nestingLimit``.
  @usableFromInline
  static func enter(_ slot: InjectionSlot) {
    let frames = frames
    var nested = 0
    for running in frames.slots where running === slot { nested += 1 }
    if nested >= nestingLimit {
      let start = frames.slots.lastIndex { $0 === slot } ?? 0
      let chain = (frames.slots[start...] + [slot]).map { "\($0.property)" }.joined(separator: " → ")
      Injection.stop(
        "\(slot.property) was filled from inside its own fill's factory \(nestingLimit) times over on the same "
          + "thread, each time for another instance: a cycle of fills (a factory making an object whose "
          + "initializer or fill needs the property again), which would overflow the stack. The last round: "
          + "\(chain).")
    }
    frames.slots.append(slot)
  }

  /// Notes that the innermost fill running on this thread is over.
  @usableFromInline
  static func leave() {
    frames.slots.removeLast()
  }
}
