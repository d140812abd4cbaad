import InjectionKernel

/// A third-party plugin written only against `InjectionKernel`: `@Audited` properties count their reads.
@propertyWrapper
public struct Audited<Value>: MarkedPropertyWrapper {
  /// The plugin owning `@Audited`.
  public static var plugin: PluginID { AuditPlugin.id }
  /// The per-instance storage.
  public let storage: MarkedStorage<Value>

  /// A property holding `wrappedValue`.
  public init(wrappedValue: Value, fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    storage = MarkedStorage(storing: wrappedValue, fileID: fileID, line: line, column: column)
  }

  /// The property of a class instance, read and written through its slot.
  @inlinable
  public static subscript<Owner: AnyObject>(
    _enclosingInstance object: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    get { read(object, storage) }
    set { write(newValue, object, storage) }
  }

  /// Unavailable: `@Audited` works in classes only.
  @available(*, unavailable, message: "@Audited works in classes only")
  public var wrappedValue: Value {
    get { fatalError("@Audited works in classes only") }
    set { fatalError("@Audited works in classes only") }  // swift-format-ignore
  }

  /// How to turn auditing on.
  public static func injectionHint(for property: PropertyDescriptor) -> String { "Injection.audit(log)" }
}

/// The `@Audited` plugin.
public enum AuditPlugin: InjectionPlugin {
  /// `Audit`.
  public static let id = PluginID("Audit")
  /// `Audited`'s marker.
  public static var markerTypes: [any InjectionMarker.Type] { [Audited<Never>.self] }
}

/// Where audited reads are counted.
public final class AuditLog: @unchecked Sendable {  // `counts` is guarded by `lock`
  private let lock = AuditLock()
  private var counts: [String: Int] = [:]

  /// An empty log.
  public init() {}

  /// How many reads of `property` (`name`) were audited.
  public func reads(of name: String) -> Int { lock.locked { counts[name, default: 0] } }

  func record(_ name: String) { lock.locked { counts[name, default: 0] += 1 } }
}

extension InjectionRules {
  /// Turns auditing on for every `@Audited` property of `classes` (of every class when none are
  /// given): each read is counted in `log`.
  public func audit(_ log: AuditLog, in classes: AnyClass...) {
    add(to: AuditPlugin.selection(classes)) { property in
      guard let marker = property.markerType as? any AuditMarker.Type else { return nil }
      return marker.auditInjection(name: property.name, log: log)
    }
  }

  /// Turns auditing off for the `@Audited` properties of `classes` (of every class when none are
  /// given): they are plain stored properties again.
  public func rejectAudit(in classes: AnyClass...) {
    reject(AuditPlugin.selection(classes))
  }
}

extension Injection {
  /// Turns auditing on at once (see ``InjectionKernel/InjectionRules/audit(_:in:)``).
  public static func audit(_ log: AuditLog, in classes: AnyClass...) throws {
    let rules = InjectionRules()
    rules.add(to: AuditPlugin.selection(classes)) { property in
      (property.markerType as? any AuditMarker.Type)?.auditInjection(name: property.name, log: log)
    }
    try commit(rules)
  }

  /// Turns auditing off at once (see ``InjectionKernel/InjectionRules/rejectAudit(in:)``).
  public static func rejectAudit(in classes: AnyClass...) throws {
    let rules = InjectionRules()
    rules.reject(AuditPlugin.selection(classes))
    try commit(rules)
  }
}

extension AuditPlugin {
  /// The `@Audited` properties of `classes`, or all of them.
  static func selection(_ classes: [AnyClass]) -> PropertySelection {
    let all = PropertySelection(plugin: id)
    return classes.isEmpty ? all : all.declared(in: classes)
  }
}

/// Opens the marker to build an injection with the property's own value type.
protocol AuditMarker {
  static func auditInjection(name: String, log: AuditLog) -> AnyPropertyInjection
}

extension Audited: AuditMarker {
  static func auditInjection(name: String, log: AuditLog) -> AnyPropertyInjection {
    PropertyInjection<Value>(
      read: .getter { _, storage, original in
        log.record(name)
        return original.get(storage)
      }, summary: "audited")
  }
}
