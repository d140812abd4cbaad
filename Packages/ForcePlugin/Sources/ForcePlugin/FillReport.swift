public import InjectionKernel

/// What one fill did: the properties it wrote and, for each one it left alone, why.
public struct FillReport: Sendable, Hashable, CustomStringConvertible {
  /// Why a property was not written.
  public enum SkipReason: Sendable, Hashable, CustomStringConvertible {
    /// A service box has a registration under this name, but the object has no stored property so named.
    case noSuchProperty
    /// The registered value does not fit the property's type.
    case typeMismatch(expected: String, given: String)
    /// The fill writes only into empty properties and this one holds a value.
    case notEmpty
    /// The property is a `let`.
    case immutable
    /// The property carries a plugin's marker and belongs to that plugin.
    case marked(plugin: String)
    /// The property's reference storage cannot take the value (see the reason).
    case unsupportedOwnership(ReferenceOwnership, reason: String)
    /// The property's type is one fills cannot write: a function type, a concrete metatype, or a tuple
    /// of them (see the reason).
    case unsupportedType(reason: String)

    /// A few words for logs.
    public var description: String {
      switch self {
      case .noSuchProperty: return "no stored property of that name"
      case .typeMismatch(let expected, let given): return "\(given) does not fit \(expected)"
      case .notEmpty: return "already holds a value"
      case .immutable: return "a let is never written"
      case .marked(let plugin): return "marked for the \(plugin) plugin"
      case .unsupportedOwnership(let ownership, let reason): return "\(ownership): \(reason)"
      case .unsupportedType(let reason): return reason
      }
    }
  }

  /// One property (or registered name) the fill left alone.
  public struct Skip: Sendable, Hashable, CustomStringConvertible {
    /// The property's (or the registration's) name.
    public let name: String
    /// `Module.Owner.property: Type`, or `nil` when the object has no property of that name.
    public let property: String?
    /// Why it was skipped.
    public let reason: SkipReason

    /// `property (or name): reason`.
    public var description: String { "\(property ?? name): \(reason)" }
  }

  /// The class that was filled, as `Module.Name`.
  public let className: String
  /// The properties written, as `Module.Owner.property: Type`, superclass properties first.
  public internal(set) var injected: [String] = []
  /// The names of the properties written.
  public internal(set) var injectedNames: [String] = []
  /// What was left alone, and why.
  public internal(set) var skipped: [Skip] = []

  init(className: String) { self.className = className }

  /// Whether anything was written.
  public var didInject: Bool { !injected.isEmpty }

  /// The reason the property or registration `name` was skipped, if it was.
  public func skipReason(for name: String) -> SkipReason? { skipped.first { $0.name == name }?.reason }

  /// One line per written or skipped property.
  public var description: String {
    let written = injected.map { "filled \($0)" }
    let left = skipped.map { "skipped \($0)" }
    let lines = written + left
    return lines.isEmpty ? "\(className): nothing to fill" : lines.joined(separator: "\n")
  }

  mutating func recordInjected(_ property: ForceProperty) {
    injected.append(property.description)
    injectedNames.append(property.name)
  }

  mutating func recordSkipped(_ name: String, _ property: ForceProperty?, _ reason: SkipReason) {
    skipped.append(Skip(name: name, property: property?.description, reason: reason))
  }
}

/// An object told after a fill that wrote at least one of its properties — OBInjector's
/// `didInjectDependencies`. Not called when the fill wrote nothing.
///
/// ```swift
/// final class Screen: FillObserver {
///   var analytics: Analytics?
///   func didInjectDependencies(_ report: FillReport) { analytics?.track("screen ready") }
/// }
/// ```
public protocol FillObserver: AnyObject {
  /// Called once per fill that wrote something, after every write, on the filling thread.
  func didInjectDependencies(_ report: FillReport)
}
