import InjectionKernel

/// What one `@Defaults` property reads and writes, built when a rule reaches it: its coding, the rule's
/// key and store. The last problem reported per property is kept in ``DefaultsPlugin/lastProblems``.
final class DefaultsBinding<Value>: Sendable {
  let property: PropertyDescriptor
  let coding: DefaultsCoding<Value>
  /// The rule's key: its key closure's answer, else the property's name. A key in the declaration wins.
  let ruleKey: String
  /// The rule's store, if its store closure chose one.
  let ruleStore: (any DefaultsStore)?

  init(property: PropertyDescriptor, coding: DefaultsCoding<Value>, ruleKey: String, ruleStore: (any DefaultsStore)?) {
    self.property = property
    self.coding = coding
    self.ruleKey = ruleKey
    self.ruleStore = ruleStore
  }

  /// The key: the declaration's, else the rule's.
  func key(_ declaration: DefaultsDeclaration?) -> String { declaration?.key ?? ruleKey }

  /// The store the calling task uses: an override's, else the rule's, else `UserDefaults.standard`.
  var store: any DefaultsStore { DefaultsPlugin.storeOverride.value ?? ruleStore ?? UserDefaultsStore.standard }

  /// A read: the stored value, else the property's initial value (`storage`) or `nil`.
  func read(_ storage: Value?, _ original: OriginalAccessor<Value>) -> Value {
    let declaration = original.declarationArguments as? DefaultsDeclaration
    let store = store
    let key = key(declaration)
    guard let object = store.object(forKey: key) else {
      clearProblem()
      return original.get(storage)
    }
    switch coding.decode(object) {
    case .value(let value):
      clearProblem()
      return value
    case .problem(let kind):
      report(DefaultsProblem(property: property.description, key: key, store: store.name, kind: kind), in: store)
      return original.get(storage)
    }
  }

  /// A write: stores the value (`nil` removes the key), synchronizing when the declaration says so.
  func write(_ newValue: Value, _ original: OriginalAccessor<Value>) {
    let declaration = original.declarationArguments as? DefaultsDeclaration
    let store = store
    let key = key(declaration)
    switch coding.encode(newValue) {
    case .object(let object): store.set(object, forKey: key)
    case .remove: store.removeObject(forKey: key)
    case .failure(let reason):
      report(
        DefaultsProblem(
          property: property.description, key: key, store: store.name, kind: .unencodable(reason: reason)),
        in: store)
      return
    }
    if declaration?.options.contains(.synchronized) == true { store.synchronize() }
    clearProblem()
    DefaultsObservation.post()
  }

  /// The line `Injection.report()` adds: the key and store, and the last problem if there is one.
  var reportNote: String {
    let declaration = Injection.declarationArguments(of: property) as? DefaultsDeclaration
    // A key in the declaration is known once an instance was accessed; until then the rule's may not be it.
    var note =
      Injection.declarationArgumentsAreKnown(of: property)
      ? "key \"\(key(declaration))\" in \(store.name)"
      : "key \"\(ruleKey)\" unless the declaration names one (known once this property was read or written) in \(store.name)"
    if declaration?.options.contains(.synchronized) == true { note += ", synchronized" }
    if let last = DefaultsPlugin.lastProblems.value[property], last.store == ObjectIdentifier(store) {
      note += "; \(last.problem.reason)"
    }
    return note
  }

  /// Reports `problem`, found in `store`, to the handler unless it is the one reported last for the
  /// property in that store — in the calling task's override scope, which has its own store and handler,
  /// or in the process.
  private func report(_ problem: DefaultsProblem, in store: any DefaultsStore) {
    let storeID = ObjectIdentifier(store)
    let isNew = DefaultsPlugin.lastProblems.update { last in
      defer { last[property] = (problem, storeID) }
      guard let previous = last[property] else { return true }
      return previous.problem != problem || previous.store != storeID
    }
    if isNew { DefaultsPlugin.problemHandler.value?(problem) }
  }

  private func clearProblem() {
    guard DefaultsPlugin.lastProblems.value[property] != nil else { return }
    DefaultsPlugin.lastProblems.update { $0[property] = nil }
  }
}

/// Opens a property's marker type to build its injection with the property's own value type.
protocol DefaultsMarker {
  static func makeInjection(for property: PropertyDescriptor, ruleKey: String, ruleStore: (any DefaultsStore)?)
    throws -> AnyPropertyInjection
}

extension DefaultsMarker {
  /// Refuses an associated property of a non-optional type: it has no initial value to read while its key
  /// is absent (a stored `@Defaults` property must have one).
  static func checkHasAValueToRead(_ property: PropertyDescriptor) throws {
    guard property.isAssociated, !property.isOptional else { return }
    throw InjectionError.rejected(
      property: property.description,
      reason: "an associated property has no initial value to read while its key is absent: declare its value "
        + "type optional (\(Injection.sourceSpelling(of: property.valueType))?), and read nil until the key is set")
  }
}

extension Defaults: DefaultsMarker {
  static func makeInjection(for property: PropertyDescriptor, ruleKey: String, ruleStore: (any DefaultsStore)?)
    throws -> AnyPropertyInjection
  {
    try checkHasAValueToRead(property)
    guard let coding = DefaultsCoding.propertyList(Value.self) else {
      let type = Injection.sourceSpelling(of: Value.self)
      let archivable = Value.self is any Codable.Type
      throw InjectionError.rejected(
        property: property.description,
        reason: "@Defaults stores property-list types as themselves (Bool, integers, floating point, String, Data, "
          + "Date, URL, and arrays and string-keyed dictionaries of them), and \(type) is not one. "
          + (archivable
            ? "Declare it @ArchivedDefaults to store its Codable form."
            : type.contains(": Any]") || type.contains("[Any]")
              ? "Store a collection of one property-list type ([String: String], [String: Int], …), or a Codable "
                + "type of your own declared @ArchivedDefaults."
              : "Make it Codable and declare it @ArchivedDefaults, or store a property-list type."))
    }
    return DefaultsBinding(property: property, coding: coding, ruleKey: ruleKey, ruleStore: ruleStore).injection
  }
}

extension ArchivedDefaults: DefaultsMarker {
  static func makeInjection(for property: PropertyDescriptor, ruleKey: String, ruleStore: (any DefaultsStore)?)
    throws -> AnyPropertyInjection
  {
    try checkHasAValueToRead(property)
    return DefaultsBinding(property: property, coding: ArchivedCoding<Value>(), ruleKey: ruleKey, ruleStore: ruleStore)
      .injection
  }
}

extension DefaultsBinding {
  /// The property's injection: every read and write goes to the store.
  var injection: AnyPropertyInjection {
    PropertyInjection<Value>(
      read: .getter { [self] _, storage, original in read(storage, original) },
      write: { [self] _, _, newValue, original in write(newValue, original) },
      summary: coding.isArchived ? "defaults, archived" : "defaults",
      reportNote: { [self] in reportNote })
  }
}
