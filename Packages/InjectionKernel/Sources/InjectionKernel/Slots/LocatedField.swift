public import InjectionReadSections

/// A marked property's field in an instance, located on its class's first access of the property, before
/// the field table knows it (see `FieldTable.h`).
///
/// The wrapper's read or write locates the field, hands the declaration arguments if the property's
/// slot has none settled yet, then publishes the field in the table; from then on every instance of the
/// class finds it with one table lookup.
@usableFromInline
struct LocatedField {
  /// The instance's held-value word for the property.
  @usableFromInline let held: UnsafeMutableRawPointer
  /// The property's slot.
  let slotAddress: UInt
  let classWord: UInt
  let token: UInt
  let heldOffset: Int

  /// Finds the field of `object` whose wrapper has `token`, among the marked fields its class declares
  /// and inherits; stops with a message when none or several do (a wrapper that is not a stored
  /// property of a cataloged class, or two declarations whose positions mix into one token).
  ///
  /// Layout relied on (see ``MarkedStorage``): a wrapper's first stored property is its `MarkedStorage`,
  /// whose first word is the token and whose second is the held word. Only the token words are read, as
  /// raw memory: they never change after the instance's initialization.
  @usableFromInline
  @inline(never)
  init(token: UInt, in object: AnyObject, wrapperType: Any.Type) {
    let dynamicClass: AnyClass = type(of: object)
    let instance = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque())
    var matches: [(offset: Int, slot: UInt)] = []
    SlotRegistry.shared.classSlots(for: dynamicClass)._withUnsafeGuaranteedRef { entry in
      // Fields of this wrapper type first (markers that are not `MarkedPropertyWrapper`s may hold
      // anything in their first word); every marked field if the types do not tell.
      for sameTypeOnly in [true, false] where matches.isEmpty {
        for index in 0..<entry.count {
          let (offset, slot) = entry.fields[index]
          let property = Unmanaged<InjectionSlot>.fromOpaque(UnsafeRawPointer(bitPattern: slot).unsafelyUnwrapped)
            .takeUnretainedValue().property
          if sameTypeOnly, property.fieldType != wrapperType { continue }
          if instance.load(fromByteOffset: offset, as: UInt.self) == token { matches.append((offset, slot)) }
        }
      }
    }
    guard matches.count == 1 else {
      let names = matches.map { Self.slot(at: $0.slot).property.description }
      Injection.stop(
        matches.isEmpty
          ? "\(Injection.typeName(dynamicClass)) has no cataloged marked property with this \(Injection.typeName(wrapperType)) "
            + "wrapper. Marker wrappers must be stored properties of a Swift class, with their MarkedStorage as first "
            + "stored property, made with the wrapper initializer's #fileID, #line and #column."
          : Self.sharedTokenMessage(names))
    }
    self.held = instance + matches[0].offset + MemoryLayout<UInt>.size
    slotAddress = matches[0].slot
    classWord = ik_class_word(instance)
    self.token = token
    heldOffset = matches[0].offset + MemoryLayout<UInt>.size
  }

  /// Whether the property's slot has its declaration arguments from a wrapper already.
  @usableFromInline
  var argumentsSettled: Bool { InjectionSlot.hasSettledDeclarationArguments(inSlotAt: slotAddress) }

  /// Runs `body` holding the field's lock (a copy of the wrapper reads its held word, which writers only
  /// change under that lock).
  @inlinable
  func withLock<Result>(_ body: () -> Result) -> Result {
    let taken = ik_field_lock(held)
    if taken == 2 { stopForCycle() }
    let reentered = taken != 0
    defer { if !reentered { ik_field_unlock(held) } }
    return body()
  }

  /// Stops: taking the field's lock would close a cycle of waits across threads.
  @usableFromInline
  func stopForCycle() -> Never {
    MarkedPropertyStorage<Any>.stopForCycle(2, at: Self.slot(at: slotAddress).property)
  }

  /// Keeps `arguments` (the wrapper's declaration arguments; `nil`: it has none) as the slot's, unless a
  /// wrapper handed them first.
  @usableFromInline
  func settle(_ arguments: (any Sendable)?) {
    if let arguments { InjectionSlot.recordDeclarationArguments(arguments, inSlotAt: slotAddress) }
    InjectionSlot.settleDeclarationArguments(inSlotAt: slotAddress)
  }

  /// Adds the field to the table (after its arguments settled, so no read runs an injection without
  /// them) and returns its slot.
  ///
  /// Stops with a message when the table already gives this token another field of the class: a token
  /// names one declaration, and two properties whose wrappers were made at one position (by a helper,
  /// in different initializers) would otherwise read each other's state.
  @usableFromInline
  func publish() -> InjectionSlot {
    var publishedOffset = heldOffset
    let slot = ik_field_insert(classWord, token, heldOffset, slotAddress, &publishedOffset)
    guard publishedOffset == heldOffset else {
      let names = [slot, slotAddress].map { Self.slot(at: $0).property.description }
      Injection.stop(Self.sharedTokenMessage(names))
    }
    return Self.slot(at: slot)
  }

  private static func slot(at address: UInt) -> InjectionSlot {
    Unmanaged<InjectionSlot>.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
      .takeUnretainedValue()
  }

  private static func sharedTokenMessage(_ names: [String]) -> String {
    "The marked properties \(names.joined(separator: " and ")) have the same declaration token: their wrappers "
      + "were made at one source position (a helper that makes wrappers, or two attributes whose positions mix "
      + "into one token). Give each property a wrapper made where it is declared, or its own attribute."
  }
}
