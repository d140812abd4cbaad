public import InjectionReadSections

/// The read sections of the kernel's lock-free reads (the reclamation scheme is documented in
/// `InjectionReadSections/include/ReadSections.h`, next to its memory-ordering argument).
///
/// A fast-path read enters a section, loads the published objects, copies the answer out of them (a
/// retain for reference-counted values) and exits. Whoever unpublishes an object calls ``retire(_:)``,
/// which waits until every section that could still see the object has ended, then releases it. So a
/// replaced value is released before the call that replaced it returns, and nothing a read returned
/// depends on an object another thread can free.
@usableFromInline
enum ReadSection {
  /// Enters this thread's read section (two thread-local stores; sections do not nest).
  @inlinable
  @inline(__always)
  static func enter() { ik_read_section_enter() }

  /// Leaves this thread's read section.
  @inlinable
  @inline(__always)
  static func exit() { ik_read_section_exit() }

  /// Releases `objects` (retained, unpublished object addresses; zeros are skipped) once no read section
  /// can still be using them. Call it outside locks that a deinit could need.
  static func retire(_ objects: [UInt]) {
    let pending = objects.filter { $0 != 0 }
    guard !pending.isEmpty else { return }
    ik_synchronize()
    for bits in pending { Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
  }

  /// Releases one retained, unpublished object address (or nothing for 0) once no section can use it.
  @usableFromInline
  static func retire(_ bits: UInt) {
    guard bits != 0 else { return }
    ik_synchronize()
    Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
  }
}
