import Synchronization

/// The part of every ``MarkedPropertyStorage`` that does not depend on its value type: the address of
/// the property's ``InjectionSlot`` once the instance has found it.
///
/// Not generic, so that an instance's first access can give every marked property of the instance its
/// slot at once, whatever their value types (the kernel reaches each storage through the word at
/// its field's offset); the other properties' first reads then take the fast path directly.
public class MarkedStorageSlot: @unchecked Sendable {  // `slotAddress` is atomic
  /// The address of the property's ``InjectionSlot`` (never deallocated), or 0 until the first access;
  /// once set it never changes (every finder stores the same address).
  @usableFromInline let slotAddress: Atomic<UInt>

  init(slotAddress: UInt) { self.slotAddress = Atomic(slotAddress) }

  /// Gives this storage its slot unless it has one (a store racing with the property's own first read
  /// stores the same address).
  final func adopt(slotAddress address: UInt) {
    if slotAddress.load(ordering: .relaxed) == 0 { slotAddress.store(address, ordering: .releasing) }
  }
}
