// ConformanceRecords.swift
//
// Walks a protocol-conformance section (`swift5_protocol_conformances` /
// `__swift5_proto`) to find the nominal types that conform to one protocol.
// Each record is an Int32 relative direct pointer to a
// TargetProtocolConformanceDescriptor (swift/ABI/Metadata.h):
//   +0  Int32 Protocol      relative indirectable pointer -> protocol descriptor
//   +4  Int32 TypeRef       relative pointer, meaning set by the flags below
//   +8  Int32 WitnessTablePattern
//   +12 UInt32 Flags        ConformanceFlags (swift/ABI/MetadataValues.h):
//                           bits 3...5 = TypeReferenceKind of TypeRef
//   TypeReferenceKind: 0 DirectTypeDescriptor   TypeRef -> context descriptor
//                      1 IndirectTypeDescriptor TypeRef -> slot -> descriptor
//                      2 DirectObjCClassName, 3 IndirectObjCClass (skipped)
// A protocol descriptor is a context descriptor of kind 3 whose Name (a
// relative direct pointer at +8) is the protocol's name; its parent chain
// leads to the module context.

enum ConformanceRecords {
  /// Calls `body` with the protocol descriptor, the type descriptor and the conformance descriptor of
  /// every conformance in `image` whose protocol satisfies `protocolMatches` (checked first, so other
  /// records cost little). Type references of the Objective-C kinds are skipped. No allocation.
  static func forEachConformance(
    in image: MetadataImage, where protocolMatches: (ContextDescriptor) -> Bool,
    _ body: (_ protocolDescriptor: ContextDescriptor, _ type: ContextDescriptor, _ conformance: UnsafeRawPointer)
      -> Void
  ) {
    let records = image.conformanceRecords
    guard let base = records.baseAddress else { return }
    for index in 0..<(records.count / 4) {
      guard let conformance = RelativePointer.direct(at: base + index * 4),
        let proto = RelativePointer.indirectable(at: conformance),
        protocolMatches(ContextDescriptor(proto))
      else { continue }
      let flags = conformance.load(fromByteOffset: 12, as: UInt32.self)
      let typeReference: UnsafeRawPointer?
      switch (flags >> 3) & 0x7 {
      case 0: typeReference = RelativePointer.direct(at: conformance + 4)
      case 1: typeReference = RelativePointer.indirect(at: conformance + 4)
      default: typeReference = nil
      }
      if let typeReference { body(ContextDescriptor(proto), ContextDescriptor(typeReference), conformance) }
    }
  }

  /// The protocol descriptor of `marker`'s conformance to `InjectionMarker`, read from the witness table
  /// that its existential metatype carries — no scan of conformance records.
  ///
  /// Layout relied on (Swift's stable ABI): an existential metatype `any P.Type` of a protocol whose
  /// conformances have witness tables is two words, the type's metadata then its witness table for `P`
  /// (`InjectionMarker` refines only the marker protocol `SendableMetatype`, which has none); a witness
  /// table's first word is its conformance descriptor, whose first field is a relative indirectable
  /// pointer to the protocol descriptor.
  static func protocolDescriptor(of marker: any InjectionMarker.Type) -> UnsafeRawPointer? {
    // `as` keeps the existential closed: passed as is to the generic `unsafeBitCast`, it would be opened
    // to the concrete metatype (one word).
    let (_, witnessTable) = unsafeBitCast(
      marker as any InjectionMarker.Type, to: (UnsafeRawPointer, UnsafeRawPointer).self)
    return RelativePointer.indirectable(at: witnessTable.load(as: UnsafeRawPointer.self))
  }

  /// The witness table of `conformance` (a conformance descriptor from a record) for `type`, a type the
  /// conformance's type descriptor describes, from the runtime's `swift_getWitnessTable` — without the
  /// conformance lookup of a dynamic cast, which scans every record of every loaded image once per new
  /// type. `nil` when the conformance has conditional requirements (their witness tables would be
  /// needed as instantiation arguments).
  static func witnessTable(of conformance: UnsafeRawPointer, for type: Any.Type) -> UnsafeRawPointer? {
    let flags = conformance.load(fromByteOffset: 12, as: UInt32.self)
    // ConformanceFlags: NumConditionalRequirements in bits 8...15, NumConditionalPackDescriptors in
    // bits 24...31.
    guard (flags >> 8) & 0xFF == 0, (flags >> 24) & 0xFF == 0 else { return nil }
    return runtimeGetWitnessTable?(conformance, unsafeBitCast(type, to: UnsafeRawPointer.self), nil)
  }
}

private typealias GetWitnessTable =
  @convention(c) (UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer?) -> UnsafeRawPointer?

/// The runtime's `const WitnessTable *swift_getWitnessTable(const ProtocolConformanceDescriptor *,
/// const Metadata *, const void * const *instantiationArgs)` (swift/Runtime/Metadata.h), looked up with
/// `dlsym`; `nil` if it is not exported.
private let runtimeGetWitnessTable = RuntimeSymbols.function(named: "swift_getWitnessTable", as: GetWitnessTable.self)

extension ContextDescriptor {
  /// Whether this is the protocol `name` declared at the top level of module
  /// `module`. Byte comparison, no allocation.
  func isProtocol(named name: StaticString, inModule module: StaticString) -> Bool {
    guard kind == .protocol, let ownName = self.name, let parent, parent.kind == .module,
      let moduleName = parent.name
    else { return false }
    return name.withUTF8Buffer { expected in
      expected.withMemoryRebound(to: CChar.self) { cStringsEqual(ownName, $0.baseAddress!) }
    }
      && module.withUTF8Buffer { expected in
        expected.withMemoryRebound(to: CChar.self) { cStringsEqual(moduleName, $0.baseAddress!) }
      }
  }
}
