// MetadataImages.swift
//
// Enumerates the Swift type-record section of every loaded image.
//
// Linux / ELF (and other non-Darwin platforms):
//   libswiftCore exports (stdlib/public/runtime/ImageInspectionStatic / ELF):
//     void swift_enumerateAllMetadataSections(
//         bool (*body)(const swift::MetadataSections *sections, void *context),
//         void *context);
//   `body` returns true to continue, false to stop. The runtime passes one
//   `MetadataSections` (SwiftShims/MetadataSections.h) per registered image:
//     +0  uintptr_t version
//     +8  const void *baseAddress      (__ehdr_start of the image) -> key
//     +16 void *unused0, +24 void *unused1
//     +32 MetadataSectionRange swift5_protocols {uintptr_t start; size_t length}
//     +48 swift5_protocol_conformances
//     +64 swift5_type_metadata         -> typeRecords
//     ...  swift5_typeref, swift5_reflstr, swift5_fieldmd -> fieldDescriptors, ...
//   We read the fields through the SwiftShims struct, not by offset.
//
// Darwin / Mach-O:
//   `_dyld_image_count()` / `_dyld_get_image_header(i)` and
//   `getsectiondata(header, "__TEXT", "__swift5_types", &size)` (and
//   `__swift5_proto`, `__swift5_fieldmd` the same way). The mach
//   header address is the image key. (`__swift5_types2` holds records that
//   old runtimes must not see, e.g. noncopyable types; never classes.)
//
// The type-record section is an array of Int32 relative pointers; see
// TypeRecords.swift.

#if canImport(Darwin)
  import MachO
#else
  import SwiftShims
#endif

/// One loaded image that contains Swift type records.
struct MetadataImage: @unchecked Sendable {  // points at immutable image data
  /// Stable identity of the image for the lifetime of the process (its load
  /// address). Callers can remember keys to skip images already scanned (in a
  /// `Set<UnsafeRawPointer>`: the catalog's other sets use that key type, and
  /// each new key type costs a conformance lookup when a set is first grown).
  let key: UnsafeRawPointer
  /// The raw `swift5_type_metadata` / `__swift5_types` section: Int32 records.
  let typeRecords: UnsafeRawBufferPointer
  /// The raw `swift5_protocol_conformances` / `__swift5_proto` section: Int32 records.
  var conformanceRecords = UnsafeRawBufferPointer(start: nil, count: 0)
  /// The raw `swift5_fieldmd` / `__swift5_fieldmd` section: field descriptors end to end (see
  /// `FieldDescriptors`).
  var fieldDescriptors = UnsafeRawBufferPointer(start: nil, count: 0)
}

enum MetadataImages {
  /// Calls `body` once for every loaded image that has Swift type records
  /// (Linux: every registered image, possibly with an empty range).
  /// Allocation: on Linux exactly one small heap block per call (the escaping
  /// context `withoutActuallyEscaping` needs to hand `body` to the C
  /// callback); nothing per image. `body` must not load/unload images.
  static func forEachImage(_ body: (MetadataImage) -> Void) {
    #if canImport(Darwin)
      let count = _dyld_image_count()
      for index in 0..<count {
        guard let header = _dyld_get_image_header(index) else { continue }
        let raw = UnsafeRawPointer(header)
        var size: UInt = 0
        guard
          let start = getsectiondata(
            raw.assumingMemoryBound(to: mach_header_64.self),
            "__TEXT", "__swift5_types", &size)
        else { continue }
        var image = MetadataImage(
          key: raw,
          typeRecords: UnsafeRawBufferPointer(start: start, count: Int(size)))
        var protoSize: UInt = 0
        if let proto = getsectiondata(
          raw.assumingMemoryBound(to: mach_header_64.self), "__TEXT", "__swift5_proto", &protoSize)
        {
          image.conformanceRecords = UnsafeRawBufferPointer(start: proto, count: Int(protoSize))
        }
        var fieldSize: UInt = 0
        if let fields = getsectiondata(
          raw.assumingMemoryBound(to: mach_header_64.self), "__TEXT", "__swift5_fieldmd", &fieldSize)
        {
          image.fieldDescriptors = UnsafeRawBufferPointer(start: fields, count: Int(fieldSize))
        }
        body(image)
      }
    #else
      withoutActuallyEscaping(body) { body in
        // Wrapped in a concrete struct so the closure is stored at its natural
        // abstraction (a bare closure behind a generic pointer gets a
        // heap-allocated reabstraction thunk).
        var box = ImageCallbackBox(body: body)
        withUnsafeMutablePointer(to: &box) { context in
          _swiftEnumerateAllMetadataSections(
            { sections, context in
              let sections = sections.assumingMemoryBound(to: MetadataSections.self)
              let records = sections.pointee.swift5_type_metadata
              let conformances = sections.pointee.swift5_protocol_conformances
              let fields = sections.pointee.swift5_fieldmd
              let box = context!.assumingMemoryBound(to: ImageCallbackBox.self)
              guard let key = UnsafeRawPointer(sections.pointee.baseAddress) else { return true }
              box.pointee.body(
                MetadataImage(
                  key: key,
                  typeRecords: UnsafeRawBufferPointer(
                    start: UnsafeRawPointer(bitPattern: records.start),
                    count: Int(records.length)),
                  conformanceRecords: UnsafeRawBufferPointer(
                    start: UnsafeRawPointer(bitPattern: conformances.start),
                    count: Int(conformances.length)),
                  fieldDescriptors: UnsafeRawBufferPointer(
                    start: UnsafeRawPointer(bitPattern: fields.start), count: Int(fields.length))))
              return true  // keep enumerating
            }, context)
        }
      }
    #endif
  }
}

#if !canImport(Darwin)
  private struct ImageCallbackBox {
    let body: (MetadataImage) -> Void
  }

  @_silgen_name("swift_enumerateAllMetadataSections")
  private func _swiftEnumerateAllMetadataSections(
    _ body:
      @convention(c) (
        _ sections: UnsafeRawPointer, _ context: UnsafeMutableRawPointer?
      ) -> Bool,
    _ context: UnsafeMutableRawPointer?
  )
#endif
