import InjectionKernel

// FieldAccess.swift — the only unsafe pointer code of the plugin.
//
// Layout relied on (Swift class instances, every platform): a stored field lives at a fixed byte
// offset from the object's address (`Unmanaged.toOpaque()`), the offset the runtime reports for the
// field (`_forEachField`, through `Injection.storedProperties(of:)`), and its memory is initialized and
// bound to the field's declared type for the whole life of the object. Writes therefore go through
// `assumingMemoryBound(to: FieldType.self).pointee = value`, which releases the old value and retains
// the new one exactly as the compiler's own setter does.
//
// Reference storage: `weak var x: T?`, `unowned var x: T` and `unowned var x: T?` fields have the
// layout of a struct with that one field (a single-field struct is laid out as its field), so they are
// written through `WeakCell<T>`, `UnownedCell<T>` and `UnownedOptionalCell<T>`: the compiler then emits
// the runtime's weak and unowned assignments, never a strong store. `unowned(unsafe)` fields are refused
// (a reference nothing may own would dangle). The one raw read: an optional unowned reference is `nil`
// exactly when its single pointer word is 0 (its storage is one object pointer, and `nil` uses the null
// extra inhabitant) — reading it as an object could trap once the object is gone.
//
// Every access keeps the object alive for its duration (`withExtendedLifetime`). Filling is meant before
// the object is shared with other threads: these writes are not synchronized with the object's readers.

/// Whether a value of `type` taken out of an `Any` has the representation a stored field declared with
/// that type holds, so that `StrongField` / `OptionalField` may write it. Not so for:
/// - function types: a field holds a function at the abstraction its declared type gives it, a value in
///   an `Any` (and in generic code) holds it at the most general one — different calling conventions;
/// - metatypes of non-class types (`Int.Type`, `Int.Type?`): a field holds them thin — no bytes, or the
///   optional's tag byte alone — a value in an `Any` thick (a pointer). A class's metatype is thick in
///   both (a subclass's metadata may stand for it);
/// - tuples with such elements (a tuple's elements are laid out like fields).
///
/// Layout relied on (swift/ABI/Metadata.h, MetadataValues.h): the first word of a non-class type's
/// metadata is its kind — 0x302 function, 0x304 metatype, 0x301 tuple, 0x202 optional; a Swift class's
/// metadata starts with kind 0 without Objective-C interop (Linux) and with its isa pointer (above 0x7FF)
/// with it; an Objective-C class wrapper's kind is 0x305 and a foreign class's 0x203. A metatype's metadata holds its instance type at word 1; a tuple's holds its
/// element count (word 1), its labels (word 2), then one (type, offset) pair of words per element.
func hasGenericRepresentation(_ type: Any.Type) -> Bool {
  let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
  switch metadata.load(as: UInt.self) {
  case 0x302: return false
  case 0x304:
    let instance = metadata.load(fromByteOffset: 8, as: UnsafeRawPointer.self).load(as: UInt.self)
    return instance == 0 || instance > 0x7FF || instance == 0x305 || instance == 0x203
  case 0x202:
    guard let wrapped = Injection.wrappedType(ofOptional: type) else { return true }
    return hasGenericRepresentation(wrapped)
  case 0x301:
    let count = metadata.load(fromByteOffset: 8, as: Int.self)
    return (0..<count).allSatisfy { index in
      let element = metadata.load(fromByteOffset: 24 + index * 16, as: Any.Type.self)
      return hasGenericRepresentation(element)
    }
  default: return true
  }
}

/// Writes one field of one class's instances with a fixed type; built once per field.
protocol FieldAccess: Sendable {
  /// Whether `value` can be stored in the field (the same type, a subclass, a conforming type, or the
  /// wrapped type of an optional field).
  func accepts(_ value: Any) -> Bool
  /// Stores `value` (which `accepts`) into `object`'s field, with the field's ownership.
  func store(_ value: Any, in object: AnyObject)
  /// Whether the field holds `nil` now (always `false` for a non-optional field).
  func isEmpty(in object: AnyObject) -> Bool
}

/// The address of the field at `offset` of `object`; valid while `object` is alive.
@inline(__always)
private func fieldAddress(_ object: AnyObject, _ offset: Int) -> UnsafeMutableRawPointer {
  Unmanaged.passUnretained(object).toOpaque() + offset
}

/// Whether `value` fits a field of type `Field` as itself: for a field of a reference type (`AnyObject`, a
/// class), a value of a value type would be stored in a box Swift makes for it (`42 as AnyObject`), which
/// `weak` and `unowned` fields already refuse (found by review H85).
private func fitsAsItself<Field>(_ value: Any, in field: Field.Type) -> Bool {
  // `AnyObject` is the one reference type a value type casts to (a class-bound protocol has no value
  // types among its conformers, and a class is no value type).
  guard ObjectIdentifier(Field.self) == ObjectIdentifier(AnyObject.self) else { return true }
  return isNilOptional(value) || isClassInstance(value)
}

/// Whether `value` is the `nil` of an optional type unrelated to a `Wrapped?` field's (`String?.none` for an
/// `Int?` field: Swift casts any `nil` to any optional type; found by review H85). A type-erased `nil`
/// (`Any?`, `AnyObject?`) and one of a related type (a subclass, a superclass, a protocol) fit.
private func isForeignNil<Wrapped>(_ value: Any, for wrapped: Wrapped.Type) -> Bool {
  guard let type = Injection.wrappedType(ofOptional: Swift.type(of: value)), isNilOptional(value) else { return false }
  let erased = [ObjectIdentifier(wrapped), ObjectIdentifier(Any.self), ObjectIdentifier(AnyObject.self)]
  guard !erased.contains(ObjectIdentifier(type)) else { return false }
  return Injection.isConvertible(type, to: wrapped) == false && Injection.isConvertible(wrapped, to: type) == false
}

/// A plain (strong) field of type `Value`.
struct StrongField<Value>: FieldAccess {
  let offset: Int

  func accepts(_ value: Any) -> Bool { value is Value && fitsAsItself(value, in: Value.self) }

  func store(_ value: Any, in object: AnyObject) {
    guard let typed = value as? Value else { return }
    withExtendedLifetime(object) {
      fieldAddress(object, offset).assumingMemoryBound(to: Value.self).pointee = typed
    }
  }

  func isEmpty(in object: AnyObject) -> Bool { false }
}

/// A plain optional field of type `Wrapped?`.
struct OptionalField<Wrapped>: FieldAccess {
  let offset: Int

  func accepts(_ value: Any) -> Bool {
    value is Wrapped? && fitsAsItself(value, in: Wrapped.self) && !isForeignNil(value, for: Wrapped.self)
  }

  func store(_ value: Any, in object: AnyObject) {
    guard let typed = value as? Wrapped? else { return }
    withExtendedLifetime(object) {
      fieldAddress(object, offset).assumingMemoryBound(to: Wrapped?.self).pointee = typed
    }
  }

  func isEmpty(in object: AnyObject) -> Bool {
    withExtendedLifetime(object) { fieldAddress(object, offset).assumingMemoryBound(to: Wrapped?.self).pointee == nil }
  }
}

/// The layout of a `weak var value: Object?` field.
private struct WeakCell<Object: AnyObject> {
  weak var value: Object?
}

/// The layout of an `unowned var value: Object` field.
private struct UnownedCell<Object: AnyObject> {
  unowned var value: Object
}

/// The layout of an `unowned var value: Object?` field.
private struct UnownedOptionalCell<Object: AnyObject> {
  unowned var value: Object?
}

/// A `weak var` field: the object is not retained by the field, which reads `nil` once it is gone.
struct WeakField<Object: AnyObject>: FieldAccess {
  let offset: Int

  /// A class instance of `Object`'s type (an optional holding one will do), or `nil`: any value casts to
  /// `AnyObject` (a value type in a box made for the cast, which nothing would keep alive).
  func accepts(_ value: Any) -> Bool { isNilOptional(value) || (isClassInstance(value) && value is Object) }

  func store(_ value: Any, in object: AnyObject) {
    guard let reference = storedReference(value, as: Object.self) else { return }
    withExtendedLifetime(object) {
      fieldAddress(object, offset).assumingMemoryBound(to: WeakCell<Object>.self).pointee.value = reference
    }
  }

  func isEmpty(in object: AnyObject) -> Bool {
    withExtendedLifetime(object) {
      fieldAddress(object, offset).assumingMemoryBound(to: WeakCell<Object>.self).pointee.value == nil
    }
  }
}

/// An `unowned var` field (optional or not): the object is not retained by the field.
struct UnownedField<Object: AnyObject>: FieldAccess {
  let offset: Int
  let isOptional: Bool

  /// A class instance of `Object`'s type (an optional holding one will do), or `nil` for an optional
  /// field: any value casts to `AnyObject` (a value type in a box made for the cast, which nothing would
  /// keep alive).
  func accepts(_ value: Any) -> Bool {
    (isOptional && isNilOptional(value)) || (isClassInstance(value) && value is Object)
  }

  func store(_ value: Any, in object: AnyObject) {
    guard let reference = storedReference(value, as: Object.self) else { return }
    withExtendedLifetime(object) {
      let address = fieldAddress(object, offset)
      if isOptional {
        address.assumingMemoryBound(to: UnownedOptionalCell<Object>.self).pointee.value = reference
      } else if let reference {
        address.assumingMemoryBound(to: UnownedCell<Object>.self).pointee.value = reference
      }
    }
  }

  func isEmpty(in object: AnyObject) -> Bool {
    guard isOptional else { return false }
    return withExtendedLifetime(object) { fieldAddress(object, offset).load(as: UInt.self) == 0 }
  }
}

/// What a reference field stores for `value`: `.some(nil)` for `nil` (tested first: `nil` casts to
/// `AnyObject` too, in a box), `.some(object)` for an instance of `Object`, `nil` for anything else.
private func storedReference<Object: AnyObject>(_ value: Any, as type: Object.Type) -> Object?? {
  if isNilOptional(value) { return .some(nil) }
  return (value as? Object).map { .some($0) }
}

/// Whether `value` is a class instance, or an optional (of any depth) holding one. Optionals are opened
/// by a cast, not a `Mirror` (which a type can customize).
private func isClassInstance(_ value: Any) -> Bool {
  if type(of: value) is AnyClass { return true }
  guard let optional = value as? any OptionalPayload, let wrapped = optional.payload else { return false }
  return isClassInstance(wrapped)
}

/// Whether `value` is an optional holding nothing (`nil` at any depth).
func isNilOptional(_ value: Any) -> Bool {
  guard let optional = value as? any OptionalPayload else { return false }
  guard let wrapped = optional.payload else { return true }
  return isNilOptional(wrapped)
}

/// An optional's payload, type-erased.
private protocol OptionalPayload {
  var payload: Any? { get }
}

extension Optional: OptionalPayload {
  fileprivate var payload: Any? {
    switch self {
    case .some(let wrapped): wrapped
    case .none: nil
    }
  }
}
