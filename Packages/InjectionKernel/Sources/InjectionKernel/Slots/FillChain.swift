public import InjectionReadSections

/// The fills running on the calling thread (`ifNil`, `@Lazy` and the like), so that a cycle of fills
/// through new instances stops with the chain instead of overflowing the stack: `A.b`'s factory makes a
/// `B` whose initializer reads its `a`, whose factory makes an `A` whose initializer reads its `b`, and
/// so on. Each fill is another instance's, so no field lock sees a cycle (those stop a factory that reads
/// the very property it fills). The running fills are a per-thread array of slot addresses in the C
/// module (`FillFrames.h`): a fill that nests nothing, almost every one, pays a few instructions.
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

  /// Notes that a fill of `slot`'s property starts on this thread (its factory runs until ``leave()``);
  /// stops with the chain when the property's fills nest too deep (see the type's documentation).
  @inlinable
  static func enter(_ slot: InjectionSlot) {
    let nested = ik_fill_enter(UnsafeRawPointer(Unmanaged.passUnretained(slot).toOpaque()))
    if nested > 0 { checkNesting(of: slot, nested) }
  }

  /// Notes that the innermost fill running on this thread is over.
  @inlinable
  static func leave() {
    ik_fill_leave()
  }

  @usableFromInline
  static func checkNesting(of slot: InjectionSlot, _ nested: Int) {
    let left = ik_stack_space_left()
    guard left == UInt.max ? nested >= nestingLimit : left < stackReserve else { return }
    // The fills from the last one of this property to the one starting now, which `ik_fill_enter` noted
    // last (unless past the frames remembered); slots are never freed.
    let running = min(ik_fill_running(), Int(IK_FILL_FRAMES))
    var frames = (0..<running).map {
      Unmanaged<InjectionSlot>.fromOpaque(ik_fill_frame($0)!).takeUnretainedValue()
    }
    if frames.last !== slot { frames.append(slot) }
    let start = frames.dropLast().lastIndex { $0 === slot } ?? 0
    let chain = (frames[start...]).map { "\($0.property)" }.joined(separator: " → ")
    Injection.stop(
      "\(slot.property) was filled from inside its own fill's factory \(nested) times over on the same thread, "
        + "each time for another instance, until the thread's stack was nearly used up: most likely a cycle of "
        + "fills (a factory making an object whose initializer or fill needs the property again), or a chain of "
        + "instances deeper than the stack allows. The last round: \(chain).")
  }
}
