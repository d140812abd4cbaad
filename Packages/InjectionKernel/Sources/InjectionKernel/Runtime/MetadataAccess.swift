// MetadataAccess.swift
//
// Minimal type-metadata reads (swift/ABI/Metadata.h). A metadata pointer
// (`Any.Type` bit pattern) points at the address point:
//
// Value metadata (TargetValueMetadata):
//   +0 StoredPointer Kind      0x200 struct, 0x201 enum, 0x202 Optional
//   +8 Description             -> struct/enum context descriptor
//
// Class metadata (TargetClassMetadata), word 0 is the kind/isa:
//   no ObjC interop (Linux):  +0 Kind == 0 (MetadataKind::Class)
//                             +8 Superclass metadata (nil for a root class)
//                             +16 UInt32 Flags, +20 UInt32 InstanceAddressPoint,
//                             +24 UInt32 InstanceSize, +28 UInt16 AlignMask,
//                             +30 UInt16 Reserved, +32 UInt32 ClassSize,
//                             +36 UInt32 ClassAddressPoint,
//                             +40 Description -> class context descriptor
//   ObjC interop (Darwin):    +0 isa (any value > 0x7FF; never a small kind)
//                             +8 Superclass, +16/+24 CacheData[2],
//                             +32 Data (rodata pointer | flags; bit 1 =
//                                 SWIFT_CLASS_IS_SWIFT_MASK, i.e. a Swift
//                                 class with the Swift metadata fields below),
//                             +40...+60 same UInt32/UInt16 fields as above,
//                             +64 Description
// Kinds <= 0x7FF other than the above (foreign classes 0x203, ObjC wrappers
// 0x305, tuples 0x301, functions 0x302, existentials, ...) are rejected.

#if canImport(ObjectiveC)
  private let classDescriptionOffset = 64
  private let classDataOffset = 32
#else
  private let classDescriptionOffset = 40
#endif

extension ContextDescriptor {
  /// The nominal type descriptor of a struct, enum, or Swift class type;
  /// nil for anything else (tuples, functions, existentials, ObjC/foreign
  /// classes, ...). Never instantiates metadata.
  init?(of type: Any.Type) {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let kind = metadata.load(as: UInt.self)
    let description: UnsafeRawPointer?
    switch kind {
    case 0x200, 0x201, 0x202:
      description = metadata.load(fromByteOffset: 8, as: UnsafeRawPointer?.self)
    default:
      guard MetadataAccess.isSwiftClassMetadata(metadata) else { return nil }
      description = metadata.load(fromByteOffset: classDescriptionOffset, as: UnsafeRawPointer?.self)
    }
    guard let description else { return nil }
    self.init(description)
  }
}

enum MetadataAccess {
  /// Word 0 of `metadata` says it is a Swift class with a Description field.
  @inline(__always)
  static func isSwiftClassMetadata(_ metadata: UnsafeRawPointer) -> Bool {
    let word0 = metadata.load(as: UInt.self)
    #if canImport(ObjectiveC)
      // Class metadata starts with an isa pointer; small values are kinds.
      guard word0 > 0x7FF else { return false }
      return metadata.load(fromByteOffset: classDataOffset, as: UInt.self) & 2 != 0
    #else
      return word0 == 0
    #endif
  }

  /// True if `cls` is a class whose metadata follows the Swift class layout
  /// (so its descriptor, fields and superclass chain may be read).
  static func isSafeSwiftClass(_ cls: AnyClass) -> Bool {
    isSwiftClassMetadata(unsafeBitCast(cls, to: UnsafeRawPointer.self))
  }

  /// Superclass from class metadata word 1 (nil for a root class). On Darwin
  /// this may be an Objective-C class; check `isSafeSwiftClass` before
  /// reading Swift metadata from it.
  static func superclass(of cls: AnyClass) -> AnyClass? {
    let metadata = unsafeBitCast(cls, to: UnsafeRawPointer.self)
    guard let superMetadata = metadata.load(fromByteOffset: 8, as: UnsafeRawPointer?.self)
    else { return nil }
    return unsafeBitCast(superMetadata, to: AnyClass.self)
  }

  /// Metadata of a NON-generic class, from the metadata access function its
  /// descriptor points to (TargetTypeContextDescriptor: +12 AccessFunction,
  /// a nullable relative direct pointer to
  /// `SWIFT_CC(swift) MetadataResponse accessor(MetadataRequest)`; request 0
  /// asks for complete metadata and blocks until it is). Demangling the
  /// class's name instead costs thousands of instructions per class. Nil for
  /// generic classes (including classes nested in generic contexts), whose
  /// accessors take generic arguments, and for non-classes.
  static func classMetadata(of descriptor: ContextDescriptor) -> AnyClass? {
    guard descriptor.kind == .class, !descriptor.isGeneric,
      let function = RelativePointer.direct(at: descriptor.pointer + 12)
    else { return nil }
    // `thin`: a plain function pointer called with the Swift calling convention, as the accessor expects.
    typealias MetadataAccessor = @convention(thin) (Int) -> (metadata: UnsafeRawPointer?, state: Int)
    guard let metadata = unsafeBitCast(function, to: MetadataAccessor.self)(0).metadata else { return nil }
    return unsafeBitCast(metadata, to: AnyClass.self)
  }

  /// The byte offset of stored field `index` (in declaration order) of a non-generic class without a
  /// resilient superclass, read from the field offset vector of its instantiated metadata (one word per
  /// field, at `fieldOffsetVectorOffset` words from the address point). Nil when that does not apply.
  static func fieldOffset(of cls: AnyClass, descriptor: ClassDescriptor, index: Int) -> Int? {
    guard !descriptor.isGeneric, !descriptor.hasResilientSuperclass, index < descriptor.numberOfFields,
      isSafeSwiftClass(cls)
    else { return nil }
    let metadata = unsafeBitCast(cls, to: UnsafeRawPointer.self)
    let word = MemoryLayout<UInt>.size
    return Int(metadata.load(fromByteOffset: (descriptor.fieldOffsetVectorOffset + index) * word, as: UInt.self))
  }

  /// The type a field record names, instantiated in the context of a non-generic class.
  static func fieldType(_ record: FieldRecord, in descriptor: ClassDescriptor) -> Any.Type? {
    guard !descriptor.isGeneric, let name = record.mangledTypeName else { return nil }
    return _getTypeByMangledNameInContext(
      name.start, UInt(name.byteCount), genericContext: descriptor.pointer, genericArguments: nil)
  }

  /// Generic argument `index` of a generic struct, enum or optional specialization (value metadata keeps
  /// its generic argument vector right after Kind and Description, +16 on 64-bit; the key arguments come
  /// first, in declaration order). Nil for anything else. `index` must be below the type's parameter count.
  static func genericArgument(ofValueType type: Any.Type, at index: Int) -> Any.Type? {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    switch metadata.load(as: UInt.self) {
    case 0x200, 0x201, 0x202:
      guard let descriptor = ContextDescriptor(of: type), descriptor.isGeneric,
        let argument = metadata.load(fromByteOffset: (2 + index) * MemoryLayout<UInt>.size, as: UnsafeRawPointer?.self)
      else { return nil }
      return unsafeBitCast(argument, to: Any.Type.self)
    default:
      return nil
    }
  }

  /// `Wrapped` when `type` is `Optional<Wrapped>` (value metadata kind 0x202), otherwise nil.
  static func optionalWrappedType(_ type: Any.Type) -> Any.Type? {
    guard unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self) == 0x202 else { return nil }
    return genericArgument(ofValueType: type, at: 0)
  }

  /// The first generic argument of a generic struct or enum specialization: value metadata keeps its
  /// generic argument vector right after Kind and Description (+16 on 64-bit). Nil for anything else.
  static func firstGenericArgument(ofValueType type: Any.Type) -> Any.Type? {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    switch metadata.load(as: UInt.self) {
    case 0x200, 0x201:
      guard let descriptor = ContextDescriptor(of: type), descriptor.isGeneric,
        let argument = metadata.load(fromByteOffset: 2 * MemoryLayout<UInt>.size, as: UnsafeRawPointer?.self)
      else { return nil }
      return unsafeBitCast(argument, to: Any.Type.self)
    default:
      return nil
    }
  }
}
