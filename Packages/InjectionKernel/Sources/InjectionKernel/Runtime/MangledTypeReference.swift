// MangledTypeReference.swift
//
// Cheap inspection of mangled type names found in reflection metadata
// (docs/ABI/Mangling.rst, "Symbolic references"). A mangled name is a
// NUL-terminated byte string that may embed binary symbolic references:
//   0x01 + Int32   direct relative pointer to a context descriptor
//   0x02 + Int32   relative pointer to a pointer-sized slot holding the
//                  context descriptor address (cross-module / GOT-like)
//   0x03...0x17 + Int32   other relative references (accessor functions,
//                  extended existential shapes, ObjC protocols, ...)
//   0x18...0x1F + pointer-sized absolute reference
// The Int32 is relative to its own (unaligned) address, i.e. name + 1.
// Payload bytes may contain 0, so the length must be found by skipping them.
//
// Bound generic types are postfix:  <base> 'y' <args...> 'G'
//   e.g. `Inject<String>` = [0x01 rel32] "y" "SS" "G".
// A plain nominal type is just <base>. Anything after the base other than a
// bound-generic argument list (e.g. "Sg" Optional, "XSa" array sugar, "m"
// metatype, "t" tuple, "c" function) makes the OUTERMOST type something else.
//
// Observed (Swift 6.3.1, Linux) for field types in reflection records:
//   same module:                 0x01 (direct)    `{01:Inject}y{01:Foo}G`
//   other module, static link:   0x02 (indirect)  `{02:Inject}y{01:Foo}G`
//   stdlib types: textual standard substitutions (`Si`, `SaySiG`, ...).
// A user-declared marker type is therefore always a symbolic reference; the
// kernel never needs to decode textual names, and compares descriptors by
// pointer (each image's copy of a marker has its own conformance record).

/// A mangled type name in an image. Does not own memory.
struct MangledName: Hashable, @unchecked Sendable {  // immutable image data
  let start: UnsafePointer<UInt8>

  @inline(__always)
  init(_ start: UnsafePointer<UInt8>) { self.start = start }

  /// Number of bytes in the payload of a token starting with `byte`.
  @inline(__always)
  private static func payloadSize(_ byte: UInt8) -> Int {
    if byte >= 0x01 && byte <= 0x17 { return 4 }
    if byte >= 0x18 && byte <= 0x1F { return MemoryLayout<UnsafeRawPointer>.size }
    return 0
  }

  /// Whether the name is `yt`, the empty tuple `()` (also spelled `Void`).
  var isEmptyTuple: Bool { start[0] == UInt8(ascii: "y") && start[1] == UInt8(ascii: "t") && start[2] == 0 }

  /// Length in bytes (excluding the terminating NUL), symbolic payloads skipped.
  var byteCount: Int {
    var i = 0
    while true {
      let c = start[i]
      if c == 0 { return i }
      i += 1 + MangledName.payloadSize(c)
    }
  }

  /// Lead byte of the last token (a symbolic reference counts as its 0x01...0x1F byte).
  var lastToken: UInt8 {
    var i = 0
    var last: UInt8 = 0
    while true {
      let c = start[i]
      if c == 0 { return last }
      last = c
      i += 1 + MangledName.payloadSize(c)
    }
  }

  /// True if the base at `after` is followed by nothing, or by a bound
  /// generic argument list that closes the whole name.
  @inline(__always)
  private func baseIsOutermost(after offset: Int) -> Bool {
    let next = start[offset]
    if next == 0 { return true }
    return next == UInt8(ascii: "y") && lastToken == UInt8(ascii: "G")
  }

  /// The context descriptor a leading symbolic reference (0x01 direct,
  /// 0x02 indirect) points at, without checking what follows it. Cheap: one
  /// byte, one relative pointer. Confirm with `leadingReferenceIsOutermost`.
  @inline(__always)
  var leadingSymbolicDescriptor: ContextDescriptor? {
    let raw = UnsafeRawPointer(start)
    switch start[0] {
    case 0x01: return RelativePointer.direct(at: raw + 1).map(ContextDescriptor.init)
    case 0x02: return RelativePointer.indirect(at: raw + 1).map(ContextDescriptor.init)
    default: return nil
    }
  }

  /// The context descriptors of every direct (0x01) and indirect (0x02) symbolic reference in the name,
  /// in order (textual parts are ASCII, so a byte in 0x01...0x1F always starts a reference).
  var symbolicDescriptors: [ContextDescriptor] {
    var found: [ContextDescriptor] = []
    var i = 0
    while true {
      let c = start[i]
      if c == 0 { return found }
      let raw = UnsafeRawPointer(start + i + 1)
      if c == 0x01, let target = RelativePointer.direct(at: raw) { found.append(ContextDescriptor(target)) }
      if c == 0x02, let target = RelativePointer.indirect(at: raw) { found.append(ContextDescriptor(target)) }
      i += 1 + MangledName.payloadSize(c)
    }
  }

  /// Whether the leading symbolic reference is the outermost type: the name
  /// ends after it, or continues with one bound generic argument list `y…G`
  /// that closes the whole name (so `Inject<Foo>?`, `[Inject<Foo>]` are not).
  var leadingReferenceIsOutermost: Bool { baseIsOutermost(after: 5) }

  /// The context descriptor of the OUTERMOST nominal type when the name is
  /// `<symbolic ref>` or `<symbolic ref> y ... G`. Nil for textual names and
  /// any other shape. No allocation, no metadata instantiation.
  var outermostDescriptor: ContextDescriptor? {
    guard let descriptor = leadingSymbolicDescriptor, leadingReferenceIsOutermost else { return nil }
    return descriptor
  }
}
