public import Foundation

/// A type `@Defaults` stores as itself — a property-list object any other `UserDefaults` user reads:
/// `Bool`, the integer and floating-point types, `String`, `Data`, `Date`, `URL`, and arrays and
/// string-keyed dictionaries of them. (`Optional` of one of these works too: `nil` removes the key.)
///
/// Conform a type of your own only if it has a property-list form; for any other `Codable` type use
/// ``ArchivedDefaults``.
public protocol PropertyListValue: Equatable, SendableMetatype {
  /// The property-list object stored for this value.
  var propertyListObject: Any { get }
  /// The value a stored object holds, or `nil` when it holds something else (it is then reported as bad
  /// stored data).
  init?(propertyListObject: Any)
}

extension Bool: PropertyListValue {
  /// The value itself.
  public var propertyListObject: Any { self }
  /// A stored `Bool`, or an integer 0 or 1.
  public init?(propertyListObject object: Any) {
    if let value = object as? Bool {
      self = value
    } else if let number = object as? any BinaryInteger, let bit = Int(exactly: number), bit == 0 || bit == 1 {
      self = bit == 1
    } else {
      return nil
    }
  }
}

/// Integers read any stored integer that fits, and a floating-point number without a fraction.
public protocol PropertyListInteger: PropertyListValue, FixedWidthInteger {}

extension PropertyListInteger {
  /// The value itself.
  public var propertyListObject: Any { self }
  /// A stored integer that fits, or a whole floating-point number that fits.
  public init?(propertyListObject object: Any) {
    if let value = object as? Self {
      self = value
    } else if object is Bool {
      return nil
    } else if let number = object as? any BinaryInteger, let value = Self(exactly: number) {
      self = value
    } else if let number = object as? Double, let value = Self(exactly: number) {
      self = value
    } else {
      return nil
    }
  }
}

extension Int: PropertyListInteger {}
extension Int8: PropertyListInteger {}
extension Int16: PropertyListInteger {}
extension Int32: PropertyListInteger {}
extension Int64: PropertyListInteger {}
extension UInt: PropertyListInteger {}
extension UInt8: PropertyListInteger {}
extension UInt16: PropertyListInteger {}
extension UInt32: PropertyListInteger {}
extension UInt64: PropertyListInteger {}

extension Double: PropertyListValue {
  /// The value itself.
  public var propertyListObject: Any { self }
  /// A stored floating-point number or integer.
  public init?(propertyListObject object: Any) {
    if let value = object as? Double {
      self = value
    } else if let value = object as? Float {
      self = Double(value)
    } else if object is Bool {
      return nil
    } else if let number = object as? any BinaryInteger {
      self = Double(number)
    } else {
      return nil
    }
  }
}

extension Float: PropertyListValue {
  /// The value itself.
  public var propertyListObject: Any { self }
  /// A stored floating-point number (property lists keep `Double`s) or integer.
  public init?(propertyListObject object: Any) {
    if let value = object as? Float {
      self = value
    } else if let value = Double(propertyListObject: object) {
      self = Float(value)
    } else {
      return nil
    }
  }
}

extension String: PropertyListValue {
  /// The value itself.
  public var propertyListObject: Any { self }
  /// A stored string.
  public init?(propertyListObject object: Any) {
    guard let value = object as? String else { return nil }
    self = value
  }
}

extension Data: PropertyListValue {
  /// The value itself.
  public var propertyListObject: Any { self }
  /// Stored data.
  public init?(propertyListObject object: Any) {
    guard let value = object as? Data else { return nil }
    self = value
  }
}

extension Date: PropertyListValue {
  /// The value itself.
  public var propertyListObject: Any { self }
  /// A stored date.
  public init?(propertyListObject object: Any) {
    guard let value = object as? Date else { return nil }
    self = value
  }
}

extension URL: PropertyListValue {
  /// The URL's absolute string. (Darwin's `UserDefaults.set(_:forKey:)` archives a URL and the Linux one
  /// keeps only its path; a string is what every reader can use: `string(forKey:)` reads it back whole,
  /// while `url(forKey:)` takes a string for a file path.)
  public var propertyListObject: Any { absoluteString }
  /// A stored URL string, or a URL.
  public init?(propertyListObject object: Any) {
    if let value = object as? URL {
      self = value
    } else if let string = object as? String, let value = URL(string: string) {
      self = value
    } else {
      return nil
    }
  }
}

extension Array: PropertyListValue where Element: PropertyListValue {
  /// An array of the elements' objects.
  public var propertyListObject: Any { map(\.propertyListObject) as [Any] }
  /// A stored array whose every element is an `Element`.
  public init?(propertyListObject object: Any) {
    guard let items = object as? [Any] else { return nil }
    var result: [Element] = []
    result.reserveCapacity(items.count)
    for item in items {
      guard let unwrapped = OptionalPayload.of(item), let element = Element(propertyListObject: unwrapped) else {
        return nil
      }
      result.append(element)
    }
    self = result
  }
}

extension Dictionary: PropertyListValue where Key == String, Value: PropertyListValue {
  /// A dictionary of the values' objects.
  public var propertyListObject: Any { mapValues(\.propertyListObject) as [String: Any] }
  /// A stored dictionary with string keys whose every value is a `Value`.
  public init?(propertyListObject object: Any) {
    let entries: [(AnyHashable, Any)]
    if let dictionary = object as? [String: Any] {
      entries = dictionary.map { (AnyHashable($0.key), $0.value) }
    } else if let dictionary = object as? [AnyHashable: Any] {
      entries = Array(dictionary)
    } else {
      return nil
    }
    var result: [String: Value] = [:]
    for (key, item) in entries {
      guard let key = key.base as? String, let unwrapped = OptionalPayload.of(item),
        let value = Value(propertyListObject: unwrapped)
      else { return nil }
      result[key] = value
    }
    self = result
  }
}

/// Looks through `Optional` layers of a value known only as `Any` (stores hand back `Optional<Any>`
/// elements inside collections on Linux).
enum OptionalPayload {
  /// The value inside every `Optional` layer, or `nil` when one of them is `nil`. The layers are found
  /// from the value's type metadata (a protocol cast would scan every conformance record of every image
  /// for each new type).
  static func of(_ value: Any) -> Any? {
    guard let wrapped = Injection.wrappedType(ofOptional: type(of: value)) else { return value }
    return payload(of: value, wrapping: wrapped).flatMap(of)
  }

  /// The payload of `value`, an `Optional<Wrapped>`, or `nil`.
  private static func payload<Wrapped>(of value: Any, wrapping _: Wrapped.Type) -> Any? {
    guard case .some(.some(let payload)) = value as? Optional<Wrapped> else { return nil }
    return payload
  }
}

/// Equality of two values of a property-list type (or an optional of one), known only generically.
enum PropertyListEquality {
  static func same<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
    switch (OptionalPayload.of(lhs), OptionalPayload.of(rhs)) {
    case (nil, nil): return true
    case (let left?, let right?):
      guard let left = left as? any PropertyListValue else { return false }
      return left.isEqual(to: right)
    default: return false
    }
  }
}

extension PropertyListValue {
  /// Whether `other` is a `Self` equal to this value.
  func isEqual(to other: Any) -> Bool { (other as? Self) == self }
}
