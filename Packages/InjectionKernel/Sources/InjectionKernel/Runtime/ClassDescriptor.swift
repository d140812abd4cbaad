// ClassDescriptor.swift
//
// Class context descriptor (TargetClassDescriptor, swift/ABI/Metadata.h),
// kind 16. Layout after the common type-context header:
//   +0  UInt32 Flags                 (kind 16; bit 7 generic)
//         kind-specific flags (bits 16...31), TypeContextDescriptorFlags:
//           bit 13 (flag 0x2000_0000 of Flags) HasResilientSuperclass
//           bits 0...1 MetadataInitialization (1 singleton, 2 foreign)
//   +4  Int32  Parent                relative indirectable
//   +8  Int32  Name                  relative direct -> C string
//   +12 Int32  AccessFunction        relative direct
//   +16 Int32  Fields                relative direct -> FieldDescriptor
//   +20 Int32  SuperclassType        relative direct -> mangled type name (0 = root)
//   +24 UInt32 MetadataNegativeSizeInWords | ResilientMetadataBounds
//   +28 UInt32 MetadataPositiveSizeInWords | ExtraClassFlags
//   +32 UInt32 NumImmediateMembers
//   +36 UInt32 NumFields
//   +40 UInt32 FieldOffsetVectorOffset
//   (generic context / vtable / overrides follow; not read here)

/// A context descriptor known to be a class (kind 16).
struct ClassDescriptor: Hashable, @unchecked Sendable {  // immutable image data
  let context: ContextDescriptor

  @inline(__always)
  init?(_ context: ContextDescriptor) {
    guard context.kind == .class else { return nil }
    self.context = context
  }

  @inline(__always) var pointer: UnsafeRawPointer { context.pointer }
  @inline(__always) var isGeneric: Bool { context.isGeneric }
  @inline(__always) var name: UnsafePointer<CChar>? { context.name }

  /// Kind-specific bit 13: the superclass is resilient (from another
  /// resilient module, e.g. Foundation), so metadata bounds are computed at
  /// runtime.
  var hasResilientSuperclass: Bool { context.kindSpecificFlags & 0x2000 != 0 }

  /// Reflection field descriptor; nil when reflection metadata was stripped.
  var fieldDescriptor: FieldDescriptor? { context.fieldDescriptor }

  /// The mangled name of the superclass (nil for a root class).
  var superclassName: MangledName? {
    RelativePointer.direct(at: pointer + 20).map { MangledName($0.assumingMemoryBound(to: UInt8.self)) }
  }

  /// Number of stored properties declared by this class (not inherited).
  var numberOfFields: Int { Int(pointer.load(fromByteOffset: 36, as: UInt32.self)) }

  /// Where the field offset vector starts in this class's metadata, in words from the address point.
  /// Meaningful as-is only without a resilient superclass (then it is relative to bounds known only at
  /// run time).
  var fieldOffsetVectorOffset: Int { Int(pointer.load(fromByteOffset: 40, as: UInt32.self)) }
}
