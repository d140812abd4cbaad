// RelativePointers.swift
//
// Swift metadata stores most references as 32-bit signed offsets relative to
// the address of the offset field itself (swift/Basic/RelativePointer.h):
//
//   RelativeDirectPointer       Int32 d; target = &d + d          (0 = null)
//   RelativeIndirectablePointer Int32 d; if d & 1 == 0: target = &d + d
//                                        else: target = *(void **)(&d + (d & ~1))
//   RelativeDirectPointerIntPair (type records): Int32 d; low 2 bits are a
//                                        tag, target = &d + (d & ~3)
//
// Offsets inside descriptors are 4-byte aligned; offsets embedded in mangled
// names (symbolic references) are NOT aligned, hence `loadUnaligned` there.

/// Namespace for resolving 32-bit relative pointers. No allocation.
enum RelativePointer {
  /// Resolves a relative direct pointer stored at `field`. Returns nil for 0.
  @inline(__always)
  static func direct(at field: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = field.loadUnaligned(as: Int32.self)
    if offset == 0 { return nil }
    return field + Int(offset)
  }

  /// Resolves a relative indirectable pointer stored at `field` (low bit set
  /// means the target is a pointer-sized slot holding the real address).
  @inline(__always)
  static func indirectable(at field: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = field.loadUnaligned(as: Int32.self)
    if offset == 0 { return nil }
    if offset & 1 == 0 { return field + Int(offset) }
    return (field + Int(offset & ~1)).loadUnaligned(as: UnsafeRawPointer?.self)
  }

  /// Resolves a relative pointer stored at `field` whose target is a
  /// pointer-sized slot (always indirect, e.g. symbolic reference 0x02).
  @inline(__always)
  static func indirect(at field: UnsafeRawPointer) -> UnsafeRawPointer? {
    guard let slot = direct(at: field) else { return nil }
    return slot.loadUnaligned(as: UnsafeRawPointer?.self)
  }
}
