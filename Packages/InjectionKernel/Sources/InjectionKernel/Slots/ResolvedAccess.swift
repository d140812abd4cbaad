/// An instance's cached answer for one property at one slot generation (immutable once published).
///
/// `MarkedPropertyStorage.head` points at the newest one. A reader on another thread may still be
/// looking at an older one without holding a reference, so each keeps its predecessor alive
/// (`previous`) until the instance dies; the chain grows by one entry per injection change that the
/// instance observes, never per read or write.
@usableFromInline
final class ResolvedAccess<Value>: @unchecked Sendable {  // immutable after init
  /// The slot this instance reads through (slots are never deallocated).
  @usableFromInline unowned(unsafe) let slot: InjectionSlot
  /// The slot generation this answer belongs to; 0 never matches.
  @usableFromInline let generation: UInt
  /// Whether a non-`nil` stored value is the answer (value, shared, fill and original modes).
  @usableFromInline let readsStorage: Bool
  /// The answer when storage is empty (or not consulted); `nil` sends the read to the slow path.
  @usableFromInline let fallback: Value?
  /// The injection in force at `generation`.
  let injection: PropertyInjection<Value>?
  /// The answer this one replaced, kept alive for readers that may still hold it.
  var previous: AnyObject?

  init(
    slot: InjectionSlot, generation: UInt, readsStorage: Bool, fallback: Value?,
    injection: PropertyInjection<Value>?
  ) {
    self.slot = slot
    self.generation = generation
    self.readsStorage = readsStorage
    self.fallback = fallback
    self.injection = injection
  }

  @usableFromInline
  @inline(__always)
  var isCurrent: Bool { generation == slot.generation.load(ordering: .acquiring) }

  deinit {
    // Unlink the chain iteratively so that a long history does not recurse deeply.
    var pending = previous
    previous = nil
    while pending != nil, isKnownUniquelyReferenced(&pending), let node = pending as? any ChainNode {
      pending = node.detachPrevious()
    }
  }
}

/// Lets the chain be unlinked without knowing each node's value type.
protocol ChainNode: AnyObject {
  func detachPrevious() -> AnyObject?
}

extension ResolvedAccess: ChainNode {
  func detachPrevious() -> AnyObject? {
    let older = previous
    previous = nil
    return older
  }
}
