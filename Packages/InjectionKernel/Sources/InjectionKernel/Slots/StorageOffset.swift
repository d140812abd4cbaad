/// The byte offset of a wrapper's backing storage inside its class instance, read from the key path
/// Swift hands to a wrapper's `static subscript(_enclosingInstance:wrapped:storage:)`.
///
/// Layout relied on (the key path object layout of the Swift ABI, `swift/ABI/KeyPath.h`; W is the word
/// size): a key path is a heap object (two words of header), then its KVC string pointer (one word), then
/// its buffer: a 32-bit buffer header padded to a word, then the components. The storage key path of a
/// property wrapper's backing property is one stored-class-property component, whose 32-bit header holds
/// the class tag (3) in bits 24-30 and, in bits 0-22, the field offset — or the out-of-line marker
/// 0x7FFFFF, in which case the offset is the next 32-bit word.
///
/// The offset is trusted only as far as this: the instance's first access of the property looks it up
/// among the offsets of the marked fields that the class's field records list, and stops the program
/// with a message if it is not one of them, so a runtime that changed this layout fails loudly at the
/// first read instead of touching the wrong memory.
@usableFromInline
enum StorageOffset {
  @inlinable
  @inline(__always)
  static func of(_ keyPath: AnyKeyPath) -> Int {
    let object = UnsafeRawPointer(Unmanaged.passUnretained(keyPath).toOpaque())
    let component = object.load(fromByteOffset: 4 * MemoryLayout<Int>.size, as: UInt32.self)
    let payload = component & 0x7F_FFFF
    guard component & 0x7F00_0000 == 0x0300_0000, payload != 0x7F_FFFD, payload != 0x7F_FFFE else {
      unsupported(keyPath)
    }
    if payload == 0x7F_FFFF {
      return Int(object.load(fromByteOffset: 4 * MemoryLayout<Int>.size + 4, as: UInt32.self))
    }
    return Int(payload)
  }

  @usableFromInline
  @inline(never)
  static func unsupported(_ keyPath: AnyKeyPath) -> Never {
    fatalError(
      "DeluxeInjection: \(keyPath) is not a stored property of a class. Marker wrappers are stored "
        + "properties of Swift classes; this runtime's key paths are not laid out as the kernel expects.")
  }
}
