// ContextDescriptor.swift
//
// A read-only view of a Swift context descriptor (swift/ABI/Metadata.h,
// MetadataValues.h). Descriptors live in the image's read-only data and are
// immortal, so a plain address is a valid identity.
//
// Common header (TargetContextDescriptor), all kinds:
//   +0  UInt32 Flags
//         bits 0...4   kind (ContextDescriptorKind)
//         bit  6       isUnique
//         bit  7       isGeneric
//         bits 8...15  version
//         bits 16...31 kind-specific flags
//   +4  Int32  Parent   relative INDIRECTABLE pointer to the parent context
//
// Kind-specific layouts used here:
//   Module     (0)  +8 Int32 Name          relative direct -> C string
//   Extension  (1)  +8 Int32 ExtendedContext relative direct -> mangled name
//   Anonymous  (2)  (no name; private and local declarations hang below it)
//   Protocol   (3)  +8 Int32 Name          relative direct -> C string
//   Type contexts (16...31: class 16, struct 17, enum 18)
//                   +8  Int32 Name           relative direct -> C string
//                   +12 Int32 AccessFunction relative direct -> metadata accessor
//                   +16 Int32 Fields         relative direct -> FieldDescriptor
//   Class (16) continues in ClassDescriptor.swift.

/// Address-identified view of a context descriptor. Hashable by address.
struct ContextDescriptor: Hashable, @unchecked Sendable {  // immutable image data
  /// `ContextDescriptorKind`; unknown raw values are preserved.
  struct Kind: RawRepresentable, Hashable, Sendable {
    let rawValue: UInt8
    static let module = Kind(rawValue: 0)
    static let `extension` = Kind(rawValue: 1)
    static let anonymous = Kind(rawValue: 2)
    static let `protocol` = Kind(rawValue: 3)
    static let opaqueType = Kind(rawValue: 4)
    static let `class` = Kind(rawValue: 16)
    static let `struct` = Kind(rawValue: 17)
    static let `enum` = Kind(rawValue: 18)

    /// Kinds 16...31 are nominal type contexts (have Name/Fields).
    var isTypeContext: Bool { rawValue >= 16 && rawValue <= 31 }
  }

  let pointer: UnsafeRawPointer

  @inline(__always)
  init(_ pointer: UnsafeRawPointer) { self.pointer = pointer }

  @inline(__always) var flags: UInt32 { pointer.load(as: UInt32.self) }
  @inline(__always) var kind: Kind { Kind(rawValue: UInt8(truncatingIfNeeded: flags & 0x1F)) }
  @inline(__always) var isGeneric: Bool { flags & 0x80 != 0 }
  @inline(__always) var kindSpecificFlags: UInt16 { UInt16(truncatingIfNeeded: flags >> 16) }

  /// The parent context (indirect references are resolved).
  @inline(__always)
  var parent: ContextDescriptor? {
    RelativePointer.indirectable(at: pointer + 4).map(ContextDescriptor.init)
  }

  /// Declared name for modules, protocols and nominal types; nil for
  /// extensions, anonymous and opaque-type contexts. Points into the image.
  @inline(__always)
  var name: UnsafePointer<CChar>? {
    let k = kind
    guard k == .module || k == .protocol || k.isTypeContext else { return nil }
    return RelativePointer.direct(at: pointer + 8)?.assumingMemoryBound(to: CChar.self)
  }

  /// For extension contexts: the mangled name of the extended type.
  var extendedContextMangledName: MangledName? {
    guard kind == .extension, let p = RelativePointer.direct(at: pointer + 8) else { return nil }
    return MangledName(p.assumingMemoryBound(to: UInt8.self))
  }

  /// For nominal type contexts: the reflection field descriptor, if emitted.
  var fieldDescriptor: FieldDescriptor? {
    guard kind.isTypeContext else { return nil }
    return RelativePointer.direct(at: pointer + 16).map(FieldDescriptor.init)
  }

  /// `Module.Outer.Inner` read from the context chain, when that is exactly how the runtime prints the
  /// type (anonymous contexts elided, as `Injection.typeName` does): the type and every context around it
  /// are non-generic modules, nominal types or anonymous contexts. `nil` otherwise (generic arguments,
  /// extensions, anything unusual), for the runtime's printing — which costs a few thousand
  /// instructions, this a few hundred.
  var plainQualifiedName: String? {
    // First walk: check every context and measure; second walk: copy the names in from the end.
    var count = 0
    var bytes = 0
    var context: ContextDescriptor? = self
    while let current = context {
      guard count < 64, !current.isGeneric else { return nil }
      switch current.kind {
      case .module, .class, .struct, .enum:
        guard let name = current.name else { return nil }
        count += 1
        bytes += cStringLength(name) + 1
      case .anonymous:
        break
      default:
        return nil
      }
      context = current.parent
    }
    guard count >= 2 else { return nil }  // a module and at least one type
    return String(unsafeUninitializedCapacity: bytes - 1) { buffer in
      var end = bytes - 1
      var context: ContextDescriptor? = self
      while let current = context {
        if current.kind != .anonymous, let name = current.name {
          let length = cStringLength(name)
          end -= length
          UnsafeMutableRawPointer(buffer.baseAddress! + end).copyMemory(from: name, byteCount: length)
          if end > 0 {
            end -= 1
            buffer[end] = UInt8(ascii: ".")
          }
        }
        context = current.parent
      }
      return bytes - 1
    }
  }

  /// `Module.Outer.Inner`. Allocates; for diagnostics and reports only.
  /// Anonymous contexts (private / local declarations) are elided, so a
  /// `private class Foo` in module `M` reads `M.Foo`. Types nested in an
  /// extension are shown under the extended type when it can be resolved
  /// without instantiating metadata, otherwise `M.(extension).Inner`.
  var qualifiedName: String {
    var result = ""
    appendQualifiedName(to: &result, depth: 0)
    return result
  }

  private func appendQualifiedName(to result: inout String, depth: Int) {
    guard depth < 64 else { return }  // corrupt-chain guard
    switch kind {
    case .anonymous:
      parent?.appendQualifiedName(to: &result, depth: depth + 1)
      return
    case .extension:
      if let extended = extendedContextMangledName?.outermostDescriptor {
        extended.appendQualifiedName(to: &result, depth: depth + 1)
      } else {
        parent?.appendQualifiedName(to: &result, depth: depth + 1)
        if !result.isEmpty { result += "." }
        result += "(extension)"
      }
      return
    default:
      parent?.appendQualifiedName(to: &result, depth: depth + 1)
      if !result.isEmpty { result += "." }
      if let name { result += String(cString: name) } else { result += "(kind \(kind.rawValue))" }
    }
  }
}

/// strcmp(a, b) == 0 without Foundation/Glibc.
@inline(__always)
func cStringsEqual(_ a: UnsafePointer<CChar>, _ b: UnsafePointer<CChar>) -> Bool {
  if a == b { return true }
  var i = 0
  while true {
    let x = a[i]
    if x != b[i] { return false }
    if x == 0 { return true }
    i += 1
  }
}

/// strlen(s) without Foundation/Glibc.
@inline(__always)
func cStringLength(_ s: UnsafePointer<CChar>) -> Int {
  var i = 0
  while s[i] != 0 { i += 1 }
  return i
}
