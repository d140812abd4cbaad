internal import InjectionReadSections

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
/// A fill may legitimately read the same property of another instance whose fill then runs, as deep as
/// its data goes (a node's depth filled from its parent's, along a chain of any length), and nothing
/// tells such a chain from a cycle but its end. So a fill of a property whose fill is already running on
/// the thread stops only when the thread's stack is nearly used up (``stackReserve`` left), where the
/// program would otherwise crash with no message — or, on a thread whose stack bounds are unknown, at
/// ``nestingLimit`` fills of one property. (A cycle on a large stack takes its time to get there: on an
/// 8 MB stack about 1,500 rounds of a two-property cycle, each nested fill holding its instance's field
/// lock.) Per thread, not per task: a factory is synchronous.
@usableFromInline
enum FillChain {
  /// The stack a fill nested in a fill of the same property must find left: the stop needs some to build
  /// its message (a round of a two-property cycle takes about 5 KB in a debug build, 6 KB with the thread
  /// sanitizer).
  static let stackReserve = 32 * 1024
  /// How deep the fills of one property may nest on a thread whose stack bounds are unknown.
  static let nestingLimit = 256

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
    if nested > 0 {
      let left = ik_stack_space_left()
      if left == UInt.max ? nested >= nestingLimit : left < stackReserve { stopForCycle(of: slot, nested, in: frames) }
    }
    frames.slots.append(slot)
  }

  private static func stopForCycle(of slot: InjectionSlot, _ nested: Int, in frames: Frames) -> Never {
    let start = frames.slots.lastIndex { $0 === slot } ?? 0
    let chain = (frames.slots[start...] + [slot]).map { "\($0.property)" }.joined(separator: " → ")
    Injection.stop(
      "\(slot.property) was filled from inside its own fill's factory \(nested) times over on the same thread, "
        + "each time for another instance, until the thread's stack was nearly used up: most likely a cycle of "
        + "fills (a "
        + "factory making an object whose initializer or fill needs the property again), or a chain of instances "
        + "deeper than the stack allows. The last round: "
        + "\(chain).")
  }

  /// Notes that the innermost fill running on this thread is over.
  @usableFromInline
  static func leave() {
    frames.slots.removeLast()
  }
}
