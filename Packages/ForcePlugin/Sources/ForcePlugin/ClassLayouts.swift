import InjectionKernel

/// One stored field of a class as fills use it: what it is, and how to write it (`nil` with a refusal
/// when its reference storage or its type cannot be written).
struct FillableField: Sendable {
  /// Why a field cannot be written.
  enum Refusal: Sendable {
    /// Its reference storage cannot take a value (`unowned(unsafe)`, a weak existential…).
    case ownership(String)
    /// Its type is held in a field in a form a value of unknown type cannot be written into.
    case type(String)
  }

  let property: ForceProperty
  let access: (any FieldAccess)?
  let refusal: Refusal?

  /// The error a force rule's decision for this field throws (it has no `access`).
  var refusalError: ForceError {
    switch refusal {
    case .type(let reason): .unsupportedType(property: property.description, reason: reason)
    case .ownership(let reason):
      .unsupportedOwnership(
        property: property.description, ownership: property.ownership, reason: reason)
    case nil: .unsupportedOwnership(property: property.description, ownership: property.ownership, reason: "")
    }
  }

  /// Why a fill from a service box skips this field (it has no `access`).
  var skipReason: FillReport.SkipReason {
    switch refusal {
    case .type(let reason): .unsupportedType(reason: reason)
    case .ownership(let reason): .unsupportedOwnership(property.ownership, reason: reason)
    case nil: .unsupportedOwnership(property.ownership, reason: "")
    }
  }
}

/// The stored fields of each filled class, its superclasses' first, computed once per class (class
/// layouts never change).
final class ClassLayouts: Sendable {
  static let shared = ClassLayouts()

  private let layouts = LockedState<[ObjectIdentifier: Layout]>([:])

  /// A class's fields, both ways a fill looks at them.
  private struct Layout: Sendable {
    /// See ``ClassLayouts/fields(of:)``.
    let all: [FillableField]
    /// See ``ClassLayouts/fieldsByName(of:)``.
    let byName: [FillableField]
  }

  /// Every stored field instances of `cls` have: its superclasses' first, then its own. Fields the
  /// compiler synthesizes (`$__lazy_storage_$_…`) are left out.
  func fields(of cls: AnyClass) -> [FillableField] { layout(of: cls).all }

  /// The fields a name reaches in instances of `cls` (``fields(of:)`` without those a subclass's field of
  /// the same name shadows): Swift lets a subclass declare a superclass field's name only when that field
  /// is out of its sight (`private`, or internal to another module), so the name means the subclass's
  /// field, as a setter or key-value coding reached one property per name in the originals. For fills by
  /// name; a force rule's closure sees every field with its declaring class and decides.
  func fieldsByName(of cls: AnyClass) -> [FillableField] { layout(of: cls).byName }

  private func layout(of cls: AnyClass) -> Layout {
    let id = ObjectIdentifier(cls)
    if let known = layouts.withLock({ $0[id] }) { return known }
    var lineage: [AnyClass] = []
    var current: AnyClass? = cls
    while let candidate = current {
      lineage.append(candidate)
      current = _getSuperclass(candidate)
    }
    // Outside the lock: the kernel's catalog takes its own lock. The class first, its superclasses after.
    let stored = lineage.map { Injection.storedProperties(of: $0) }
    // The most derived class that declares each name (a `lazy var`'s storage field, `$__lazy_storage_$_x`,
    // counts under the property's name). A computed property has no field, and a property wrapper's
    // storage (`_x`) cannot be told from a plain field named `_x`: such a property shadowing a superclass's
    // private field is not seen.
    var declaredAt: [String: Int] = [:]  // name → depth of the most derived class declaring it
    for (depth, properties) in stored.enumerated() {
      for property in properties {
        let name =
          property.name.hasPrefix(Self.lazyStoragePrefix)
          ? String(property.name.dropFirst(Self.lazyStoragePrefix.count)) : property.name
        if declaredAt[name] == nil { declaredAt[name] = depth }
      }
    }
    var all: [FillableField] = []
    var byName: [FillableField] = []
    for (depth, properties) in stored.enumerated().reversed() {  // superclasses' first
      for property in properties where !property.name.hasPrefix("$") {
        let field = Self.fillable(property)
        all.append(field)
        if declaredAt[property.name] == depth { byName.append(field) }
      }
    }
    let layout = Layout(all: all, byName: byName)
    return layouts.withLock { layouts in
      if let known = layouts[id] { return known }
      layouts[id] = layout
      return layout
    }
  }

  /// The name prefix of the storage field of a `lazy var`.
  private static let lazyStoragePrefix = "$__lazy_storage_$_"

  private static func fillable(_ descriptor: PropertyDescriptor) -> FillableField {
    let ownership = Injection.referenceOwnership(of: descriptor) ?? .strong
    let property = ForceProperty(descriptor: descriptor, ownership: ownership)
    let offset = descriptor.offset
    let type = descriptor.valueType
    switch ownership {
    case .strong:
      guard hasGenericRepresentation(type) else {
        return FillableField(
          property: property, access: nil,
          refusal: .type(
            "a field of a function type, of a non-class type's metatype or of a tuple of them holds its value in a "
              + "form of its own, which a value of unknown type cannot be written into"))
      }
      if let wrapped = Injection.wrappedType(ofOptional: type) {
        return FillableField(property: property, access: optionalAccess(wrapped, offset: offset), refusal: nil)
      }
      return FillableField(property: property, access: strongAccess(type, offset: offset), refusal: nil)
    case .weak:
      // `weak var x: T?` reports `T?`. `AnyObject` is one reference, as a class is; a protocol existential
      // (`any Delegate`) carries witness tables beside it, in a layout of its own.
      guard let wrapped = Injection.wrappedType(ofOptional: type) else {
        return FillableField(property: property, access: nil, refusal: .ownership("a weak field must be optional"))
      }
      if wrapped == AnyObject.self {
        return FillableField(property: property, access: WeakField<AnyObject>(offset: offset), refusal: nil)
      }
      guard let object = wrapped as? AnyObject.Type else {
        return FillableField(
          property: property, access: nil,
          refusal: .ownership(
            "weak references of a protocol type are not supported (a class type or AnyObject is)"))
      }
      return FillableField(property: property, access: weakAccess(object, offset: offset), refusal: nil)
    case .unowned:
      let optionalWrapped = Injection.wrappedType(ofOptional: type)
      let referenced = optionalWrapped ?? type
      if referenced == AnyObject.self {
        return FillableField(
          property: property, access: UnownedField<AnyObject>(offset: offset, isOptional: optionalWrapped != nil),
          refusal: nil)
      }
      guard let object = referenced as? AnyObject.Type else {
        return FillableField(
          property: property, access: nil,
          refusal: .ownership(
            "unowned references of a protocol type are not supported (a class type or AnyObject is)"))
      }
      return FillableField(
        property: property, access: unownedAccess(object, offset: offset, isOptional: optionalWrapped != nil),
        refusal: nil)
    case .unmanaged:
      return FillableField(
        property: property, access: nil,
        refusal: .ownership("an unowned(unsafe) reference would dangle once the injected object is released"))
    }
  }

  private static func strongAccess<Value>(_ type: Value.Type, offset: Int) -> any FieldAccess {
    StrongField<Value>(offset: offset)
  }

  /// The access to a plain field of type `Wrapped?`.
  private static func optionalAccess<Wrapped>(_ type: Wrapped.Type, offset: Int) -> any FieldAccess {
    OptionalField<Wrapped>(offset: offset)
  }

  private static func weakAccess<Object: AnyObject>(_ type: Object.Type, offset: Int) -> any FieldAccess {
    WeakField<Object>(offset: offset)
  }

  private static func unownedAccess<Object: AnyObject>(_ type: Object.Type, offset: Int, isOptional: Bool)
    -> any FieldAccess
  {
    UnownedField<Object>(offset: offset, isOptional: isOptional)
  }
}
