/// One instance's answer to reads of one property at one slot generation (immutable once created).
///
/// ``MarkedPropertyStorage`` publishes the newest one in `head`; a read whose `head` is current returns
/// ``answer`` straight from it. Because the answer sits in an immutable object that outlives the read,
/// an inlined read can use it without retaining it, like a plain stored-property read.
///
/// Lifetime rules, which that relies on:
/// - A published answer replaced by a *read* (the injection changed) may still be in use by readers on
///   other threads, so the new one keeps it alive (`previous`) until the instance dies or is written to;
///   the chain grows by one entry per injection change the instance observes, never per read.
/// - A *write* to the property drops the whole chain: a write racing with reads of the same instance is
///   a data race in Swift whatever the property, so no reader can be using an answer then.
/// - An answer that cannot be cached (getters run on every read) is never published; the reading thread
///   keeps it alive until its next such read (``TransientAnswers``).
@usableFromInline
final class ResolvedAccess<Value>: @unchecked Sendable {  // immutable after init, except `previous` (see below)
  /// The slot this instance reads through (slots are never deallocated).
  @usableFromInline unowned(unsafe) let slot: InjectionSlot
  /// The slot generation this answer belongs to; 0 (transient answers) never matches.
  @usableFromInline let generation: UInt
  /// What the read returns.
  @usableFromInline let answer: Value
  /// The injection in force at `generation`.
  let injection: PropertyInjection<Value>?
  /// The answer this one replaced, kept alive for readers that may still use it; set before publishing,
  /// under the instance's lock.
  var previous: AnyObject?

  init(slot: InjectionSlot, generation: UInt, answer: Value, injection: PropertyInjection<Value>?) {
    self.slot = slot
    self.generation = generation
    self.answer = answer
    self.injection = injection
  }

  /// Whether this answer belongs to the slot's current generation.
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
