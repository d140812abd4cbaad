extension Injection {
  /// A type's qualified name (`Swift.Array<Swift.String>`, `MyApp.Settings`), for reports and messages.
  ///
  /// Private, `fileprivate` and function-local types print without their anonymous context, so the name
  /// is readable and the same in every run: `MyApp.Settings` where Swift prints
  /// `MyApp.(unknown context at $55a5e3787360).Settings` (the address changes from run to run).
  ///
  /// Prefer this to `String(reflecting: SomeType.self)`: that one asks the runtime whether the metatype
  /// conforms to the printing protocols, and each miss scans every conformance record of every loaded
  /// image (tens of microseconds in a Foundation-linked process).
  public static func typeName(_ type: Any.Type) -> String {
    let key = ObjectIdentifier(type)  // type metadata is never deallocated
    if let known = TypeSpelling.names.withLock({ $0[key] }) { return known }
    let name =
      ContextDescriptor(of: type)?.plainQualifiedName
      ?? TypeSpelling.withoutSameTypeRequirements(
        TypeSpelling.withoutPrivateDiscriminators(
          TypeSpelling.withoutAnonymousContexts(_typeName(type, qualified: true))))
    TypeSpelling.names.withLock { $0[key] = name }
    return name
  }

  /// How the type is written in Swift source, without module names: `Int?`, `[String]`,
  /// `[String: Int]`, `any APIClient`, `(any APIClient)?`, `Outer.Inner`. Hints that suggest a call use
  /// it, so they can be pasted: `Injection.inject((any APIClient).self)`.
  public static func sourceSpelling(of type: Any.Type) -> String {
    TypeSpelling.source(type)
  }

  /// The expression that names the type's metatype in source: `Int?.self`, `(any APIClient).self`, for
  /// hints such as `Injection.inject((any APIClient).self)`.
  public static func metatypeExpression(of type: Any.Type) -> String {
    let spelling = TypeSpelling.source(type)
    return TypeSpelling.needsParentheses(spelling) ? "(\(spelling)).self" : "\(spelling).self"
  }
}

/// Spellings of types for people: the runtime's names cleaned of run-specific addresses, and the way
/// a type is written in source.
enum TypeSpelling {
  /// ``Injection/typeName(_:)`` by type: the runtime's printing costs a few thousand instructions per
  /// call, and a catalog names the same value types (`Int`, `String`, …) for many properties.
  static let names = LockedState<[ObjectIdentifier: String]>([:])

  private static let anonymousPrefix = Array("(unknown context at $".utf8)

  /// `name` without `(unknown context at $…).` segments (the anonymous contexts of private and local
  /// declarations, printed with their address).
  static func withoutAnonymousContexts(_ name: String) -> String {
    let bytes = Array(name.utf8)
    guard let first = firstAnonymousContext(in: bytes, from: 0) else { return name }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var position = 0
    var next: Int? = first
    while let start = next {
      result += bytes[position..<start]
      var end = start + anonymousPrefix.count
      while end < bytes.count, bytes[end] != UInt8(ascii: ")") { end += 1 }
      end += 1  // the `)`
      if end < bytes.count, bytes[end] == UInt8(ascii: ".") { end += 1 }
      position = min(end, bytes.count)
      next = firstAnonymousContext(in: bytes, from: position)
    }
    result += bytes[position...]
    // A trailing `.` is left when an anonymous context closed the name (never for a type's name).
    if result.last == UInt8(ascii: ".") { result.removeLast() }
    return String(decoding: result, as: UTF8.self)
  }

  /// `name` with a constrained existential's arguments as written in source: the runtime prints
  /// `any Module.Repository<Swift.String>` as `any Module.Repository<Self.Module.Repository.Item ==
  /// Swift.String>` (found by review H82); each `Self.… == ` is dropped.
  static func withoutSameTypeRequirements(_ name: String) -> String {
    guard name.contains("<Self.") else { return name }
    var result = ""
    var rest = Substring(name)
    while let start = rest.firstRange(of: "Self.") {
      // Only a requirement's left side: `Self.` right after `<` or `, `, up to ` == `.
      let before = rest[..<start.lowerBound]
      guard before.hasSuffix("<") || before.hasSuffix(", "),
        let equals = rest[start.upperBound...].firstRange(of: " == ")
      else {
        result += rest[..<start.upperBound]
        rest = rest[start.upperBound...]
        continue
      }
      result += before
      rest = rest[equals.upperBound...]
    }
    return result + rest
  }

  /// `name` without the discriminators of private declarations: the runtime prints a private protocol of a
  /// constrained existential as `(Repository in _447F612FD1373A86B6F4167EB8315DDB)`; that is `Repository`.
  static func withoutPrivateDiscriminators(_ name: String) -> String {
    guard name.contains(" in _") else { return name }
    var result = ""
    var rest = Substring(name)
    while let marker = rest.firstRange(of: " in _") {
      let before = rest[..<marker.lowerBound]
      let after = rest[marker.upperBound...]
      let digits = after.prefix { $0.isHexDigit }
      guard let open = before.lastIndex(of: "("), digits.count >= 16,
        after.dropFirst(digits.count).first == ")",
        before[before.index(after: open)...].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
      else {
        result += rest[..<marker.upperBound]
        rest = rest[marker.upperBound...]
        continue
      }
      result += before[..<open] + before[before.index(after: open)...]
      rest = after.dropFirst(digits.count + 1)
    }
    return result + rest
  }

  private static func firstAnonymousContext(in bytes: [UInt8], from start: Int) -> Int? {
    guard bytes.count >= anonymousPrefix.count else { return nil }
    var index = start
    while index + anonymousPrefix.count <= bytes.count {
      if bytes[index] == anonymousPrefix[0], bytes[index..<index + anonymousPrefix.count].elementsEqual(anonymousPrefix)
      {
        return index
      }
      index += 1
    }
    return nil
  }

  /// The source spelling of `type` (see ``Injection/sourceSpelling(of:)``).
  static func source(_ type: Any.Type) -> String {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    switch metadata.load(as: UInt.self) {
    case 0x202:  // Optional
      guard let wrapped = MetadataAccess.genericArgument(ofValueType: type, at: 0) else { break }
      let inner = source(wrapped)
      return needsParentheses(inner) ? "(\(inner))?" : "\(inner)?"
    case 0x303:  // an existential: `any P`, `any P & Q`, `Any`, `AnyObject`
      let name = withoutModules(Injection.typeName(type))
      return name == "Any" || name == "AnyObject" ? name : "any \(name)"
    case 0x306:  // an existential metatype: `any P.Type`, `Any.Type`, `AnyObject.Type`
      let name = Injection.typeName(type)
      if name.hasPrefix("Any.") || name.hasPrefix("AnyObject.") { return name }
      if name.hasPrefix("Swift.AnyObject.") { return String(name.dropFirst("Swift.".count)) }
      return "any \(withoutModules(name))"
    case 0x200:
      let name = ContextDescriptor(of: type)?.qualifiedName
      if name == "Swift.Array", let element = MetadataAccess.genericArgument(ofValueType: type, at: 0) {
        return "[\(source(element))]"
      }
      if name == "Swift.Dictionary", let key = MetadataAccess.genericArgument(ofValueType: type, at: 0),
        let value = MetadataAccess.genericArgument(ofValueType: type, at: 1)
      {
        return "[\(source(key)): \(source(value))]"
      }
    default: break
    }
    return withoutModules(Injection.typeName(type))
  }

  /// Whether `spelling` must be parenthesized before a postfix `?` or `.self`: an existential or a
  /// function type (`(Int) -> String`).
  static func needsParentheses(_ spelling: String) -> Bool {
    if spelling.hasPrefix("any ") { return true }
    var depth = 0
    var previous: Character = " "
    for character in spelling {
      switch character {
      case ">" where previous == "-": if depth == 0 { return true }
      case "(", "[", "<": depth += 1
      case ")", "]", ">": depth -= 1
      default: break
      }
      previous = character
    }
    return false
  }

  /// `name` with the leading module of every qualified path removed: `Swift.Int` -> `Int`,
  /// `MyApp.Outer.Inner` -> `Outer.Inner`, inside generic arguments too.
  static func withoutModules(_ name: String) -> String {
    var result = ""
    var path = ""
    func flush() {
      if let dot = path.firstIndex(of: ".") { result += path[path.index(after: dot)...] } else { result += path }
      path = ""
    }
    for character in name {
      if character.isLetter || character.isNumber || character == "_" || character == "." {
        path.append(character)
      } else {
        flush()
        result.append(character)
      }
    }
    flush()
    return result
  }
}
