// FieldRecords.swift
//
// Reflection field metadata (swift/RemoteInspection/Records.h), emitted into
// `swift5_fieldmd` and referenced from TypeContextDescriptor.Fields (+16).
//
// FieldDescriptor (16-byte header):
//   +0  Int32  MangledTypeName   relative direct -> mangled name of the type
//                                the fields belong to (0 if none)
//   +4  Int32  Superclass        relative direct -> mangled name (0 if none)
//   +8  UInt16 Kind              (0 struct, 1 class, 2 enum, 3 multi-payload
//                                 enum, 4 protocol, 5 class protocol,
//                                 6 objc protocol, 7 objc class)
//   +10 UInt16 FieldRecordSize   (12 today; always stride by this value)
//   +12 UInt32 NumFields
//   +16 FieldRecord[NumFields]
//
// The section holds the descriptors end to end, each followed directly by its
// records (all sizes are multiples of 4, so there is no padding): the next
// descriptor starts at +16 + NumFields * FieldRecordSize. A descriptor's
// MangledTypeName names its type (for a class of the same image, a direct
// symbolic reference 0x01 to the class's context descriptor); its Superclass
// is the same name the class descriptor's SuperclassType holds.
//
// FieldRecord (12 bytes):
//   +0  UInt32 Flags   0x1 IsIndirectCase, 0x2 IsVar, 0x4 IsArtificial
//   +4  Int32  MangledTypeName relative direct -> mangled name (0 = none,
//              e.g. payload-less enum case)
//   +8  Int32  FieldName       relative direct -> C string
//
// Property wrappers: `@W var x` stores `_x: W<...>`; the record is named `_x`.

/// A field descriptor in the image's reflection metadata.
struct FieldDescriptor: Hashable, @unchecked Sendable {  // immutable image data
  let pointer: UnsafeRawPointer

  @inline(__always)
  init(_ pointer: UnsafeRawPointer) { self.pointer = pointer }

  /// Mangled name of the type whose fields these are.
  var mangledTypeName: MangledName? {
    RelativePointer.direct(at: pointer).map { MangledName($0.assumingMemoryBound(to: UInt8.self)) }
  }

  /// Mangled name of the superclass, for a class that has one.
  var superclassName: MangledName? {
    RelativePointer.direct(at: pointer + 4).map { MangledName($0.assumingMemoryBound(to: UInt8.self)) }
  }

  var kind: UInt16 { pointer.load(fromByteOffset: 8, as: UInt16.self) }
  /// A Swift class's fields (kind 1).
  @inline(__always) var isClass: Bool { kind == 1 }
  var recordSize: Int { Int(pointer.load(fromByteOffset: 10, as: UInt16.self)) }
  var count: Int { Int(pointer.load(fromByteOffset: 12, as: UInt32.self)) }

  /// The records, as a random-access collection (iterating does not allocate).
  var records: FieldRecords {
    FieldRecords(base: pointer + 16, stride: recordSize, count: count)
  }
}

/// The field descriptors of a `swift5_fieldmd` section, read in address order.
enum FieldDescriptors {
  /// Calls `body` for every descriptor in `section`: a sequential walk touching only the descriptors and
  /// their records (no context descriptor, no type record). Stops at the first header that does not fit.
  @inline(__always)
  static func forEach(in section: UnsafeRawBufferPointer, _ body: (FieldDescriptor) -> Void) {
    guard var cursor = section.baseAddress else { return }
    let end = cursor + section.count
    while end - cursor >= 16 {
      let descriptor = FieldDescriptor(cursor)
      let next = cursor + 16 + descriptor.count * descriptor.recordSize
      guard next <= end else { return }
      body(descriptor)
      cursor = next
    }
  }
}

/// The records of one field descriptor.
struct FieldRecords: RandomAccessCollection, @unchecked Sendable {
  let base: UnsafeRawPointer
  let stride: Int
  let count: Int

  @inline(__always) var startIndex: Int { 0 }
  @inline(__always) var endIndex: Int { count }

  @inline(__always)
  subscript(position: Int) -> FieldRecord {
    precondition(position >= 0 && position < count, "field record index out of range")
    return FieldRecord(base + position * stride)
  }
}

/// One stored property (or enum case) record.
struct FieldRecord: @unchecked Sendable {  // immutable image data
  let pointer: UnsafeRawPointer

  @inline(__always)
  init(_ pointer: UnsafeRawPointer) { self.pointer = pointer }

  @inline(__always) var flags: UInt32 { pointer.load(as: UInt32.self) }
  /// `var` (true) vs `let` (false).
  @inline(__always) var isVar: Bool { flags & 0x2 != 0 }

  /// Field name as a C string in the image (`_x` for a wrapped `@W var x`).
  @inline(__always)
  var name: UnsafePointer<CChar>? {
    RelativePointer.direct(at: pointer + 8)?.assumingMemoryBound(to: CChar.self)
  }

  /// Mangled type of the field; nil e.g. for payload-less enum cases.
  @inline(__always)
  var mangledTypeName: MangledName? {
    RelativePointer.direct(at: pointer + 4).map { MangledName($0.assumingMemoryBound(to: UInt8.self)) }
  }
}
