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
//   e.g. `Inject<String>` = [0x01 rel32] "y" "SS" "G"  or textual
//        "12InjectPlugin6InjectV" "ySSG".
// A plain nominal type is just <base>. Anything after the base other than a
// bound-generic argument list (e.g. "Sg" Optional, "XSa" array sugar, "m"
// metatype, "t" tuple, "c" function) makes the OUTERMOST type something else.
//
// Textual nominal contexts:  <module> (<identifier> [<discriminator> "LL"] <kind>)+
//   module: <len><chars> | "s" (Swift) | "So"/"SC" (__C)
//   kind:   "C" class, "V" struct, "O" enum
//   identifier: decimal length + bytes, or "0..." with word substitutions
//   (decoded, see TextualCursor; the compiler really emits e.g.
//   "12InjectPlugin0A0V" for InjectPlugin.Inject). Punycode ("00") and
//   node substitutions ("A...") are not decoded (-> no match).
//
// Observed (Swift 6.3.1, Linux) for field types in reflection records:
//   same module:                 0x01 (direct)    `{01:Inject}y{01:Foo}G`
//   other module, static link:   0x02 (indirect)  `{02:Inject}y{01:Foo}G`
//   stdlib types: textual standard substitutions (`Si`, `SaySiG`, ...).

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

  /// True if the name starts with a context-descriptor symbolic reference.
  var startsWithSymbolicReference: Bool { start[0] == 0x01 || start[0] == 0x02 }

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

  /// Whether the outermost type is `target` (or an equivalent copy of it in
  /// another image), for both symbolic and textual names. No allocation.
  func outermostTypeMatches(_ target: ContextDescriptor) -> Bool {
    switch start[0] {
    case 0x01, 0x02:
      guard let found = outermostDescriptor else { return false }
      return found == target || found.isEquivalent(to: target)
    case 0x03...0x1F:
      return false
    default:
      return textualOutermostTypeMatches(target)
    }
  }

  // MARK: Textual fallback

  /// Matches a textual nominal name such as `12InjectPlugin0A0VySSG`
  /// (= `InjectPlugin.Inject<String>`, "0A0" being a word substitution of
  /// "Inject") against `target` by module name, each nesting level's name
  /// and kind. Symbolic names return false here. No heap allocation (the
  /// word table lives in a stack buffer).
  func textualOutermostTypeMatches(_ target: ContextDescriptor) -> Bool {
    withUnsafeTemporaryAllocation(of: TextualCursor.Word.self, capacity: TextualCursor.maxWords) { words in
      var cursor = TextualCursor(name: start, words: words)
      guard cursor.matchContext(target, depth: 0) else { return false }
      return baseIsOutermost(after: cursor.offset)
    }
  }

  // MARK: Diagnostics

  /// Printable form: symbolic references shown as `{01:desc-name}`; other
  /// control bytes as hex. Allocates; for reports and tests only.
  var debugDescription: String {
    var out = ""
    var i = 0
    while true {
      let c = start[i]
      if c == 0 { return out }
      let payload = MangledName.payloadSize(c)
      if c == 0x01 || c == 0x02 {
        let raw = UnsafeRawPointer(start + i + 1)
        let target = c == 0x01 ? RelativePointer.direct(at: raw) : RelativePointer.indirect(at: raw)
        let label = target.map { ContextDescriptor($0).qualifiedName } ?? "nil"
        out += "{0\(c):\(label)}"
      } else if payload > 0 {
        out += "{\(String(c, radix: 16))}"
      } else {
        out += String(UnicodeScalar(c))
      }
      i += 1 + payload
    }
  }
}

/// Demangler state for the textual fast path: a read position plus the word
/// table used by word substitutions (Mangling.rst, "Identifiers"):
///   identifier ::= NATURAL CHARS                 (no substitutions)
///   identifier ::= '0' PART* ['0']               (with word substitutions)
///   PART ::= [a-z] (word, more follow) | [A-Z] (last word) | NATURAL CHARS
/// After an upper-case substitution a '0' ends the identifier, otherwise a
/// trailing literal chunk ends it. Words (max 26) are harvested from every
/// literal chunk, in order: a word starts at a non-digit, non-'_' byte and
/// ends at '_', at the end of the chunk, or where a non-upper-case byte is
/// followed by an upper-case one; words shorter than 2 bytes are dropped.
/// "00" (punycode) and node substitutions ('A'...) are not supported: the
/// match then fails, which is the safe answer for a fast path.
private struct TextualCursor {
  typealias Word = (offset: Int32, length: Int32)
  static let maxWords = 26

  let name: UnsafePointer<UInt8>
  let words: UnsafeMutableBufferPointer<Word>
  var wordCount = 0
  var offset = 0

  init(name: UnsafePointer<UInt8>, words: UnsafeMutableBufferPointer<Word>) {
    self.name = name
    self.words = words
  }

  @inline(__always) private func byte(_ i: Int) -> UInt8 { name[i] }
  @inline(__always) private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
  @inline(__always) private static func isUpper(_ c: UInt8) -> Bool { c >= 0x41 && c <= 0x5A }
  @inline(__always) private static func isLower(_ c: UInt8) -> Bool { c >= 0x61 && c <= 0x7A }

  mutating func matchContext(_ context: ContextDescriptor, depth: Int) -> Bool {
    guard depth < 32 else { return false }
    let kind = context.kind
    if kind == .anonymous {
      // Private/local declarations: the discriminator is on the name instead.
      guard let parent = context.parent else { return false }
      return matchContext(parent, depth: depth + 1)
    }
    if kind == .module {
      guard let moduleName = context.name else { return false }
      return matchModule(moduleName)
    }
    let kindByte: UInt8
    switch kind {
    case .class: kindByte = UInt8(ascii: "C")
    case .struct: kindByte = UInt8(ascii: "V")
    case .enum: kindByte = UInt8(ascii: "O")
    default: return false  // extensions, protocols, ...: not handled here
    }
    guard let parent = context.parent, let declName = context.name,
      matchContext(parent, depth: depth + 1),
      matchIdentifier(declName)
    else { return false }
    // Optional private discriminator: <identifier> "LL" (e.g. "33_3F2A...LL").
    let saved = (offset, wordCount)
    if matchIdentifier(nil), byte(offset) == UInt8(ascii: "L"), byte(offset + 1) == UInt8(ascii: "L") {
      offset += 2
    } else {
      (offset, wordCount) = saved
    }
    guard byte(offset) == kindByte else { return false }
    offset += 1
    return true
  }

  private mutating func matchModule(_ moduleName: UnsafePointer<CChar>) -> Bool {
    let c = byte(offset)
    if c == UInt8(ascii: "s") {
      offset += 1
      return cStringsEqual(moduleName, "Swift")
    }
    if c == UInt8(ascii: "S") {
      let d = byte(offset + 1)
      guard d == UInt8(ascii: "o") || d == UInt8(ascii: "C") else { return false }
      offset += 2
      return cStringsEqual(moduleName, "__C")
    }
    return matchIdentifier(moduleName)
  }

  /// Consumes one identifier and compares it with `expected` (a C string);
  /// with `expected == nil` it only consumes. False if malformed/unsupported.
  private mutating func matchIdentifier(_ expected: UnsafePointer<CChar>?) -> Bool {
    var matched = 0  // bytes of `expected` matched so far
    guard byte(offset) == UInt8(ascii: "0") else {
      return matchLiteralChunk(expected, &matched) && isEnd(expected, matched)
    }
    offset += 1
    if byte(offset) == UInt8(ascii: "0") { return false }  // punycode
    while true {
      var lastWord = false
      while !lastWord, Self.isLower(byte(offset)) || Self.isUpper(byte(offset)) {
        let c = byte(offset)
        offset += 1
        let index: Int
        if Self.isLower(c) {
          index = Int(c - UInt8(ascii: "a"))
        } else {
          index = Int(c - UInt8(ascii: "A"))
          lastWord = true
        }
        guard index < wordCount else { return false }
        let word = words[index]
        if !compare(expected, &matched, Int(word.offset), Int(word.length)) { return false }
      }
      if byte(offset) == UInt8(ascii: "0") {
        offset += 1
        break
      }
      guard matchLiteralChunk(expected, &matched) else { return false }
      if lastWord { break }
    }
    return isEnd(expected, matched)
  }

  @inline(__always)
  private func isEnd(_ expected: UnsafePointer<CChar>?, _ matched: Int) -> Bool {
    guard let expected else { return true }
    return expected[matched] == 0
  }

  /// `NATURAL CHARS` at `offset`: compares, records words, advances.
  private mutating func matchLiteralChunk(_ expected: UnsafePointer<CChar>?, _ matched: inout Int) -> Bool {
    var length = 0
    guard Self.isDigit(byte(offset)), byte(offset) != UInt8(ascii: "0") else { return false }
    while Self.isDigit(byte(offset)) {
      length = length * 10 + Int(byte(offset) - UInt8(ascii: "0"))
      offset += 1
      if length > 4096 { return false }
    }
    let chunk = offset
    for k in 0..<length where byte(chunk + k) == 0 { return false }  // truncated
    guard compare(expected, &matched, chunk, length) else { return false }
    recordWords(chunk, length)
    offset = chunk + length
    return true
  }

  /// Compares `length` bytes of the name at `from` with `expected[matched...]`.
  private func compare(_ expected: UnsafePointer<CChar>?, _ matched: inout Int, _ from: Int, _ length: Int) -> Bool {
    if let expected {
      for k in 0..<length {
        let e = UInt8(bitPattern: expected[matched + k])
        if e == 0 || e != byte(from + k) { return false }
      }
    }
    matched += length
    return true
  }

  private mutating func recordWords(_ chunk: Int, _ length: Int) {
    var wordStart = -1
    for k in 0...length {
      let c: UInt8 = k < length ? byte(chunk + k) : 0
      if wordStart >= 0 {
        let previous = byte(chunk + k - 1)
        let ends = c == 0 || c == UInt8(ascii: "_") || (!Self.isUpper(previous) && Self.isUpper(c))
        if ends {
          if k - wordStart >= 2 && wordCount < Self.maxWords {
            words[wordCount] = (Int32(chunk + wordStart), Int32(k - wordStart))
            wordCount += 1
          }
          wordStart = -1
        }
      }
      if wordStart < 0 && c != 0 && c != UInt8(ascii: "_") && !Self.isDigit(c) {
        wordStart = k
      }
    }
  }
}
