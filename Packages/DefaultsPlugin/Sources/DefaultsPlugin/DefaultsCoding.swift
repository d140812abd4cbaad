import Foundation
import InjectionKernel

/// How one property's values become stored objects and back: as property-list objects (`@Defaults`) or
/// as JSON data (`@ArchivedDefaults`). Made once per property when `injectDefaults()` commits.
class DefaultsCoding<Value>: @unchecked Sendable {  // immutable; subclasses too
  /// What a write stores.
  enum Encoded {
    /// Store this object.
    case object(Any)
    /// Remove the key (`nil` was written).
    case remove
    /// The value cannot be stored (the reason).
    case failure(String)
  }

  /// What a read finds.
  enum Decoded {
    /// The stored value.
    case value(Value)
    /// What is wrong with the stored object.
    case problem(DefaultsProblem.Kind)
  }

  /// `true` for `@ArchivedDefaults`, for reports.
  var isArchived: Bool { false }

  /// `Value` to a stored object.
  func encode(_ value: Value) -> Encoded { fatalError("abstract") }

  /// A stored object to `Value`, or what is wrong with it.
  func decode(_ object: Any) -> Decoded { fatalError("abstract") }

  /// Whether two values are stored alike (for observers, which report changes only).
  func same(_ lhs: Value, _ rhs: Value) -> Bool { fatalError("abstract") }

  /// The coding of a property-list type or an optional of one; `nil` for any other type.
  static func propertyList(_ type: Value.Type) -> DefaultsCoding? {
    if let direct = type as? any PropertyListValue.Type { return PropertyListCoding(plainType: direct) }
    if let wrapped = Injection.wrappedType(ofOptional: type).flatMap({ $0 as? any PropertyListValue.Type }) {
      return PropertyListCoding(plainType: wrapped)
    }
    return nil
  }

  /// What a stored object of the wrong type is called in a problem.
  static func wrongType(_ object: Any) -> Decoded {
    .problem(.wrongType(found: Injection.sourceSpelling(of: Swift.type(of: object))))
  }
}

/// `@Defaults`: values are stored as property-list objects.
final class PropertyListCoding<Value>: DefaultsCoding<Value>, @unchecked Sendable {  // immutable
  /// `Value`, or the type an optional `Value` wraps.
  let plainType: any PropertyListValue.Type

  init(plainType: any PropertyListValue.Type) { self.plainType = plainType }

  override func encode(_ value: Value) -> Encoded {
    guard let payload = OptionalPayload.of(value) else { return .remove }
    guard let plain = payload as? any PropertyListValue else { return .failure("not a property-list value") }
    return .object(plain.propertyListObject)
  }

  override func decode(_ object: Any) -> Decoded {
    // `as? Value` wraps the plain value in an optional when `Value` is one.
    guard let plain = plainType.init(propertyListObject: object), let value = plain as Any as? Value else {
      return Self.wrongType(object)
    }
    return .value(value)
  }

  override func same(_ lhs: Value, _ rhs: Value) -> Bool { PropertyListEquality.same(lhs, rhs) }
}

/// `@ArchivedDefaults`: values are stored as their `Codable` form in JSON data.
final class ArchivedCoding<Value: Codable>: DefaultsCoding<Value>, @unchecked Sendable {  // immutable
  override var isArchived: Bool { true }

  override func encode(_ value: Value) -> Encoded {
    guard OptionalPayload.of(value) != nil else { return .remove }
    do {
      return .object(try Archive.encoder().encode(value))
    } catch {
      return .failure(Archive.describe(error))
    }
  }

  override func decode(_ object: Any) -> Decoded {
    guard let data = object as? Data else { return Self.wrongType(object) }
    do {
      return .value(try Archive.decoder().decode(Value.self, from: data))
    } catch {
      return .problem(.undecodable(reason: Archive.describe(error)))
    }
  }

  override func same(_ lhs: Value, _ rhs: Value) -> Bool {
    (try? Archive.encoder().encode(lhs)) == (try? Archive.encoder().encode(rhs))
  }
}

/// The JSON form of `@ArchivedDefaults` values.
enum Archive {
  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    return encoder
  }

  static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    return decoder
  }

  /// A one-line reason for a decoding error.
  static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
      DecodingError.keyNotFound(_, let context), DecodingError.dataCorrupted(let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription
    case EncodingError.invalidValue(_, let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription
    default:
      return "\(error)"
    }
  }
}

/// Bad stored data met by a read, or a value a write could not store: reported to the handler set with
/// `InjectionRules/onDefaultsProblem(_:)` and in `Injection/report()`. The read returns the property's
/// initial value (or `nil`) and the stored data is left as it is until the property is next written.
public struct DefaultsProblem: Sendable, Equatable, CustomStringConvertible {
  /// What is wrong.
  public enum Kind: Sendable, Equatable {
    /// The key holds a value of another type (its type's name).
    case wrongType(found: String)
    /// The key holds archived data that does not decode as the property's type (why).
    case undecodable(reason: String)
    /// A written value could not be archived (why); the key was left as it was.
    case unencodable(reason: String)
  }

  /// The property, as `Module.Owner.property: Type`.
  public let property: String
  /// The key.
  public let key: String
  /// The store's name.
  public let store: String
  /// What is wrong.
  public let kind: Kind

  /// Creates a report.
  public init(property: String, key: String, store: String, kind: Kind) {
    self.property = property
    self.key = key
    self.store = store
    self.kind = kind
  }

  /// One line naming the property, the key, the store and what is wrong.
  public var description: String { "\(property): \(reason)" }

  /// What is wrong, naming the key and the store (the description without the property).
  public var reason: String {
    switch kind {
    case .wrongType(let found):
      return "\(store) holds a value of type \(found) under \"\(key)\" that the property's type cannot hold (another "
        + "type, or a number out of its range); reads return the initial value until the property is written"
    case .undecodable(let reason):
      return "the data under \"\(key)\" in \(store) does not decode (\(reason)); reads return the initial value "
        + "until the property is written"
    case .unencodable(let reason):
      return "a written value could not be archived (\(reason)); \"\(key)\" in \(store) was left as it was"
    }
  }
}
