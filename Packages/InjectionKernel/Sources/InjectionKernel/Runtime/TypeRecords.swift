// TypeRecords.swift
//
// Walks a type-record section (`swift5_type_metadata` / `__swift5_types`).
// Each record is a TargetTypeMetadataRecord: one Int32
// RelativeDirectPointerIntPair whose low 2 bits are a TypeReferenceKind
// (swift/ABI/MetadataValues.h):
//   0 DirectTypeDescriptor    target = &rec + (d & ~3) is the descriptor
//   1 IndirectTypeDescriptor  target is a pointer-sized slot -> descriptor
//   2 DirectObjCClassName     (skipped)
//   3 IndirectObjCClass       (skipped)

enum TypeRecords {
  /// Calls `body` for every context descriptor referenced by `records`.
  @inline(__always)
  static func forEachDescriptor(
    in records: UnsafeRawBufferPointer, _ body: (ContextDescriptor) -> Void
  ) {
    guard let base = records.baseAddress else { return }
    let count = records.count / 4
    for index in 0..<count {
      let record = base + index * 4
      let raw = record.load(as: Int32.self)
      let target = record + Int(raw & ~3)
      switch raw & 3 {
      case 0:
        body(ContextDescriptor(target))
      case 1:
        if let d = target.load(as: UnsafeRawPointer?.self) { body(ContextDescriptor(d)) }
      default:
        continue
      }
    }
  }

  /// Calls `body` for every class descriptor (kind 16) in `records`.
  @inline(__always)
  static func forEachClass(
    in records: UnsafeRawBufferPointer, _ body: (ClassDescriptor) -> Void
  ) {
    forEachDescriptor(in: records) { descriptor in
      if let cls = ClassDescriptor(descriptor) { body(cls) }
    }
  }

}
