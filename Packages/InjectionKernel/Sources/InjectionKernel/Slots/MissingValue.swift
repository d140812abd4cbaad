internal import InjectionReadSections

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension PropertyDescriptor {
  /// What a read of this property says when it finds nothing to return (a non-optional with nothing
  /// injected and nothing stored), on one line, the property first:
  ///
  /// `MyApp.Downloader.retries: Swift.Int was read with nothing injected or stored: inject it with
  /// Injection.inject(Int.self).value(…), or assign it a value first (a didSet that uses oldValue reads
  /// the property before each assignment).`
  ///
  /// When a rule's builder (``InjectionRules/add(to:builder:)``) threw for this property when the kernel
  /// met it after the commit (a generic specialization, a class loaded later), the message says so,
  /// with the error: `… was read with nothing injected or stored: the rule for Config: all threw when it
  /// met this property (no key "item"); …`.
  public var missingValueMessage: String {
    let hint = markerType?.injectionHint(for: self) ?? "an injection"
    let failure = BuilderFailures.failure(for: self).map { "\($0); " } ?? ""
    return "\(description) was read with nothing injected or stored: \(failure)\(fittingRuleNote)\(scopeNote)"
      + "inject it with "
      + "\(hint), or assign it a value first (a didSet that uses oldValue reads the property before each "
      + "assignment)."
  }

  /// For a property that a committed rule by type alone was most likely meant for — its values fit the
  /// declared type (`Console` for `any Analytics`) but it selects properties of its own type only — a
  /// note naming that rule; empty otherwise, when the calling thread holds the commit lock (a read
  /// during a commit, which must not wait for it), and inside an override scope, whose rules decide there
  /// (found by review H73: it named a process rule a scope had rejected).
  private var fittingRuleNote: String {
    guard let plugin, !RuleLog.shared.isHeldByCurrentThread, InjectionScope.current == nil else { return "" }
    let declared = MetadataAccess.optionalWrappedType(valueType) ?? valueType
    let types = RuleLog.shared.withCommitLock { $0.injectedTypesSelectedAlone(by: plugin) }
    // A rule for the optional of a non-optional property's type (found by review H82: silent).
    if MetadataAccess.optionalWrappedType(valueType) == nil,
      let optional = types.first(where: { MetadataAccess.optionalWrappedType($0) == valueType })
    {
      return "a rule injects \(Injection.sourceSpelling(of: optional)), which selects the properties declared "
        + "with that optional type (a rule for \(Injection.sourceSpelling(of: valueType)) reaches both); "
    }
    guard let fitting = types.first(where: { $0 != declared && Injection.isConvertible($0, to: declared) == true })
    else { return "" }
    return "a rule injects \(Injection.sourceSpelling(of: fitting)), whose values fit it, but a rule by type "
      + "selects the properties declared with that very type; "
  }

  /// For a read inside an override scope or a child injector of a property the process injects, a note
  /// that the scope's rules decide there (found by review H82: a scope that rejected the property stopped
  /// saying "nothing injected" while the process had an injection; H84: not for properties the process
  /// does not inject either). Empty otherwise, and when the calling thread holds the commit lock.
  private var scopeNote: String {
    guard InjectionScope.current != nil, !RuleLog.shared.isHeldByCurrentThread else { return "" }
    let processInjects = RuleLog.shared.withCommitLock { log -> Bool in
      guard let found = log.decisionAndLevel(for: self), case .some(.some) = found.decision else { return false }
      return true
    }
    guard processInjects else { return "" }
    return "the process injects it, but the read ran inside an override scope or a child injector whose rules "
      + "decide there (a rejection there hides the process's injection); "
  }
}

/// The errors the process's builders threw for properties the kernel met after their rule's commit,
/// which a commit could not throw: kept per property for the read that then finds nothing (its stop says
/// why), until the next commit, which may change the rules (a read met after it notes a failure again).
enum BuilderFailures {
  private static let failures = LockedState<[PropertyDescriptor: String]>([:])

  /// Forgets every failure (at a commit of the process's rules).
  static func forgetAll() {
    failures.withLock { if !$0.isEmpty { $0.removeAll() } }
  }

  static func note(_ error: any Error, of selection: PropertySelection, for property: PropertyDescriptor) {
    let text = "the rule for \(selection) threw when it met this property (\(error))"
    failures.withLock { $0[property] = text }
  }

  static func forget(_ property: PropertyDescriptor) {
    failures.withLock { _ = $0.removeValue(forKey: property) }
  }

  static func failure(for property: PropertyDescriptor) -> String? {
    failures.withLock { $0[property] }
  }
}

extension Injection {
  /// The marked property whose read the calling thread is in, while that read runs plugin code (a
  /// factory building a shared value or a fill, a getter); the outermost one when that code reads other
  /// properties. `nil` outside such reads (and for `static` and struct owners). A plugin whose value
  /// cannot be built during a read names it first in its message, as reads that cannot return anything
  /// do.
  public static var propertyBeingRead: PropertyDescriptor? { property(ofSlotAt: ik_reading_current()) }

  /// The marked property whose read runs plugin code right now on the calling thread: the innermost one
  /// when a factory or a getter read other properties (``propertyBeingRead`` is the outermost), `nil`
  /// outside such reads. What a value built for it, and failing, belongs to.
  public static var innermostPropertyBeingRead: PropertyDescriptor? { property(ofSlotAt: ik_reading_innermost()) }

  private static func property(ofSlotAt bits: UInt) -> PropertyDescriptor? {
    guard bits != 0 else { return nil }
    // Slots are immortal: the address stays valid.
    return Unmanaged<InjectionSlot>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue().property
  }

  /// Stops the program after writing `message` to standard error as one line (line breaks become
  /// spaces), so that the first thing a crash log says is what the user's code did — not a library file
  /// and line, as `fatalError` would print first. For reads that cannot return anything.
  public static func stop(_ message: String) -> Never {
    writeToStandardError(message)
    abort()
  }

  /// Writes `message` to standard error as one line (line breaks become spaces), unbuffered.
  static func writeToStandardError(_ message: String) {
    let line = String(message.map { $0.isNewline ? " " : $0 }) + "\n"
    let bytes = Array(line.utf8)
    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { write(2, $0.baseAddress! + written, $0.count - written) }
      if result <= 0 { break }
      written += result
    }
  }
}
