import Synchronization

// Declaration arguments: what a marker's own arguments say about its property (`@Defaults("ui.volume")`,
// `@Env("HOME")`), handed from the wrapper to the plugin's injection.
//
// The wrapper returns them from ``MarkedPropertyWrapper/declarationArguments``. They are per declaration
// (every instance's wrapper returns the same), so the kernel takes them once per slot: on an instance's
// first access, before the instance stores its slot's address, the first instance's arguments are kept
// (first wins) in an immutable box the slot holds for the life of the process. Reads of them are one
// atomic load; nothing is added to an instance's storage.

/// The immutable box a slot keeps its declaration arguments in (never released: slots are immortal).
final class DeclarationArgumentsBox: Sendable {
  let value: any Sendable

  init(_ value: any Sendable) { self.value = value }
}

extension InjectionSlot {
  /// Keeps `arguments` in the slot at `address` unless it already has some (the first instance wins).
  static func recordDeclarationArguments(_ arguments: any Sendable, inSlotAt address: UInt) {
    Unmanaged<InjectionSlot>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)._withUnsafeGuaranteedRef { slot in
      guard slot.declarationArgumentsAddress.load(ordering: .acquiring) == 0 else { return }
      let box = Unmanaged.passRetained(DeclarationArgumentsBox(arguments))
      let bits = UInt(bitPattern: box.toOpaque())
      if !slot.declarationArgumentsAddress.compareExchange(
        expected: 0, desired: bits, ordering: .acquiringAndReleasing
      ).exchanged {
        box.release()
      }
    }
  }

  /// Whether a wrapper of the property at `address` has handed its arguments, if any.
  static func hasSettledDeclarationArguments(inSlotAt address: UInt) -> Bool {
    Unmanaged<InjectionSlot>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)._withUnsafeGuaranteedRef {
      $0.declarationArgumentsSettled.load(ordering: .acquiring)
    }
  }

  /// Records that a wrapper of the property at `address` has handed its arguments, if any (after
  /// ``recordDeclarationArguments(_:inSlotAt:)``).
  static func settleDeclarationArguments(inSlotAt address: UInt) {
    Unmanaged<InjectionSlot>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)._withUnsafeGuaranteedRef {
      if !$0.declarationArgumentsSettled.load(ordering: .relaxed) {
        $0.declarationArgumentsSettled.store(true, ordering: .releasing)
      }
    }
  }

  /// The marker's declaration arguments, once the property was read or written on some instance.
  public var declarationArguments: (any Sendable)? {
    let bits = declarationArgumentsAddress.load(ordering: .acquiring)
    guard bits != 0 else { return nil }
    return Unmanaged<DeclarationArgumentsBox>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
      .takeUnretainedValue().value
  }
}

extension OriginalAccessor {
  /// The declaration arguments of the property being read or written (see
  /// ``MarkedPropertyWrapper/declarationArguments``): always present in a getter or setter of a property
  /// whose marker declares some, since the instance's first access records them before any injection
  /// runs.
  ///
  /// ```swift
  /// PropertyInjection<String>(read: .getter { _, storage, original in
  ///   let name = original.declarationArguments as? String ?? "HOME"
  ///   return ProcessInfo.processInfo.environment[name] ?? original.get(storage)
  /// }, summary: "environment")
  /// ```
  public var declarationArguments: (any Sendable)? { slot.declarationArguments }

  /// The property this accessor belongs to.
  public var property: PropertyDescriptor { slot.property }
}

extension Injection {
  /// The declaration arguments of `property`'s marker (`"ui.volume"` for `@Defaults("ui.volume")`), or
  /// `nil` when the marker declares none or the property was not read or written on any instance yet
  /// (they come from an instance's wrapper, taken on the property's first access — making an instance or
  /// using its other properties is not enough; ``MarkedPropertyWrapper/property(of:_:)`` records them
  /// without a read).
  public static func declarationArguments(of property: PropertyDescriptor) -> (any Sendable)? {
    if let arguments = SlotRegistry.shared.existingSlot(for: property)?.declarationArguments { return arguments }
    // Arguments are per declaration: a subclass's instance may have been the first accessed.
    for view in SlotRegistry.shared.views(of: property) {
      if let arguments = SlotRegistry.shared.existingSlot(for: view)?.declarationArguments { return arguments }
    }
    return nil
  }

  /// Whether ``declarationArguments(of:)`` answers for `property`'s declaration: an instance of its class
  /// (or of a subclass) has been accessed, so `nil` there means the marker declares none. Until then a
  /// plugin that reports what the arguments decide (a key, a variable name) can say it is not known yet.
  public static func declarationArgumentsAreKnown(of property: PropertyDescriptor) -> Bool {
    ([property] + SlotRegistry.shared.views(of: property)).contains { view in
      SlotRegistry.shared.existingSlot(for: view)?.declarationArgumentsSettled.load(ordering: .acquiring) == true
    }
  }
}
