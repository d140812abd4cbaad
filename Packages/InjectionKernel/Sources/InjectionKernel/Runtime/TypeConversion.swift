// TypeConversion.swift
//
// Whether a concrete type's values can be used as another type's, asked of the runtime without a value.
// Relies on the existential type metadata layout (swift/ABI/Metadata.h, TargetExistentialTypeMetadata),
// 64-bit:
//   +0  kind            0x303 (MetadataKind::Existential); 0x307 is an extended existential
//                       (`any P<T>`, `any P & Q` with primary associated types), not read here
//   +8  UInt32 flags    ExistentialTypeFlags: 0x8000_0000 set = no class constraint (`Any`-like),
//                       clear = class-bound; 0x4000_0000 = a superclass constraint follows
//   +12 UInt32 count    number of protocols
//   +16                 the superclass metadata pointer, when flagged
//   then `count` protocol descriptor references, one word each (bit 0 set: an Objective-C protocol)
// Marker protocols (`Sendable`) have no runtime presence and are not listed.
// `swift_conformsToProtocol(type, protocolDescriptor)` returns the witness table or null; it is looked up
// with `dlsym` (see `RuntimeSymbols`).

private typealias ConformsToProtocol =
  @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UnsafeRawPointer?

/// The runtime's conformance lookup, or `nil` if the runtime does not export it.
private let runtimeConformsToProtocol = RuntimeSymbols.function(
  named: "swift_conformsToProtocol", as: ConformsToProtocol.self)

extension Injection {
  /// Whether every value of `type` is a value of `target`: the same type, a subclass of a class, or a
  /// type conforming to every protocol of an existential (`any Engine`, `any Base & Engine`,
  /// `AnyObject`); an optional target is judged by its wrapped type. `nil` when the runtime cannot tell
  /// without a value (existentials with primary associated types, Objective-C protocols).
  ///
  /// ```swift
  /// Injection.isConvertible(HybridEngine.self, to: (any Engine).self)  // true
  /// Injection.isConvertible(Wheel.self, to: (any Engine).self)         // false
  /// ```
  public static func isConvertible(_ type: Any.Type, to target: Any.Type) -> Bool? {
    if type == target { return true }
    if let wrapped = MetadataAccess.optionalWrappedType(target) { return isConvertible(type, to: wrapped) }
    let metadata = unsafeBitCast(target, to: UnsafeRawPointer.self)
    switch metadata.load(as: UInt.self) {
    case 0x303: return conforms(type, toExistential: metadata)
    case 0x307: return nil
    default:
      guard let targetClass = target as? AnyClass, let typeClass = type as? AnyClass else { return false }
      return isSubclass(typeClass, of: targetClass)
    }
  }

  private static func conforms(_ type: Any.Type, toExistential metadata: UnsafeRawPointer) -> Bool? {
    let flags = metadata.load(fromByteOffset: 8, as: UInt32.self)
    let count = Int(metadata.load(fromByteOffset: 12, as: UInt32.self))
    var cursor = metadata + 16
    let typeClass: AnyClass? = type as? AnyClass
    if flags & 0x8000_0000 == 0, typeClass == nil { return false }  // class-bound
    if flags & 0x4000_0000 != 0 {
      let superclass: AnyClass = unsafeBitCast(cursor.load(as: UnsafeRawPointer.self), to: AnyClass.self)
      guard let typeClass, isSubclass(typeClass, of: superclass) else { return false }
      cursor += MemoryLayout<UnsafeRawPointer>.size
    }
    guard let conformsToProtocol = runtimeConformsToProtocol else { return count == 0 ? true : nil }
    let typeMetadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    for index in 0..<count {
      let reference = cursor.load(fromByteOffset: index * MemoryLayout<UInt>.size, as: UInt.self)
      guard reference & 1 == 0, let descriptor = UnsafeRawPointer(bitPattern: reference) else { return nil }
      if conformsToProtocol(typeMetadata, descriptor) == nil { return false }
    }
    return true
  }
}
