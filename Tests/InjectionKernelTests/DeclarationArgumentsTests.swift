import InjectionKernel
import TestSupport
import Testing

/// A third-party marker with a declaration argument (a key), written against the public API only.
@propertyWrapper
struct Keyed<Value>: MarkedPropertyWrapper {
  static var plugin: PluginID { KeyedPlugin.id }
  let storage: MarkedStorage<Value>
  let key: String
  init(_ key: String, fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    storage = MarkedStorage(fileID: fileID, line: line, column: column)
    self.key = key
  }
  var declarationArguments: (any Sendable)? { key }
  static subscript<Owner: AnyObject>(
    _enclosingInstance object: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    get { read(object, storage) }
    set { write(newValue, object, storage) }
  }
  @available(*, unavailable, message: "@Keyed works in classes only")
  var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }
  }
}

enum KeyedPlugin: InjectionPlugin {
  static let id = PluginID("Keyed")
  static var markerTypes: [any InjectionMarker.Type] { [Keyed<Never>.self] }

  /// Reads answer `key=<the declaration's key>`; writes record `key=value` in `log`.
  static func injectKeys(into owner: AnyClass, log: LockedState<[String]>? = nil) throws {
    let rules = InjectionRules()
    rules.add(
      PropertyInjection<String?>(
        read: .getter { _, _, original in (original.declarationArguments as? String).map { "key=\($0)" } },
        write: { _, _, newValue, original in
          log?.withLock { $0.append("\(original.declarationArguments as? String ?? "nil")=\(newValue ?? "nil")") }
        },
        summary: "keyed"),
      to: PropertySelection(plugin: id).declared(in: owner))
    try Injection.commit(rules)
  }
}

private final class KeyedHost {
  @Keyed("alpha") var first: String?
  @Keyed("beta") var second: String?
}

/// An instance's first access gives its other marked properties their slots; each keeps its own
/// arguments, whichever property a class's first instances read first.
private class KeyedSharingHost {
  @Keyed("one") var one: String?
  @Keyed("two") var two: String?
}

private final class KeyedSharingSubclass: KeyedSharingHost {
  @Keyed("three") var three: String?
}

private final class KeyedWriteHost {
  @Keyed("written") var value: String?
}

private final class KeyedUntouchedHost {
  @Keyed("untouched") var value: String?
}

private final class KeyedProjectionHost {
  @Keyed("projected") var value: String?
  var descriptor: PropertyDescriptor { Keyed.property(of: self, \._value) }
}

private final class KeyedConcurrentHost {
  @Keyed("gamma") var value: String?
}

/// Each specialization has a slot of its own, so each one's first instance races to record the arguments.
private final class KeyedGenericHost<T>: @unchecked Sendable {  // only `value`, thread-safe, is shared
  @Keyed("delta") var value: String?
}

private final class NotedHost {
  @Keyed("noted") var value: String?
}

private final class PlainMarkerHost {
  @Tracked var value: Int?
}

@Suite struct DeclarationArgumentsTests {
  @Test func theGetterSeesEachPropertysOwnArguments() throws {
    try KeyedPlugin.injectKeys(into: KeyedHost.self)
    let host = KeyedHost()
    #expect(host.first == "key=alpha")
    #expect(host.second == "key=beta")
    #expect(KeyedHost().second == "key=beta")
  }

  @Test func everyPropertyKeepsItsOwnArgumentsWhicheverAnInstanceReadsFirst() throws {
    try KeyedPlugin.injectKeys(into: KeyedSharingHost.self)
    try KeyedPlugin.injectKeys(into: KeyedSharingSubclass.self)
    #expect(KeyedSharingHost().one == "key=one")  // `two` has not handed its arguments yet
    #expect(KeyedSharingHost().two == "key=two")
    let both = KeyedSharingHost()
    #expect(both.two == "key=two")  // this first access gives `one` its slot
    #expect(both.one == "key=one")
    let sub = KeyedSharingSubclass()
    #expect(sub.three == "key=three")
    #expect(sub.two == "key=two")
    #expect(sub.one == "key=one")
    let laterSub = KeyedSharingSubclass()
    #expect(laterSub.one == "key=one")
    #expect(laterSub.three == "key=three")
    #expect(laterSub.two == "key=two")
  }

  @Test func aFirstAccessThatIsAWriteRecordsThemToo() throws {
    let log = LockedState<[String]>([])
    try KeyedPlugin.injectKeys(into: KeyedWriteHost.self, log: log)
    KeyedWriteHost().value = "x"
    #expect(log.value == ["written=x"])
  }

  @Test func theyAreKnownOnceAnInstanceWasAccessed() throws {
    let property = try Injection.property(named: "value", of: KeyedUntouchedHost.self)
    _ = KeyedUntouchedHost()  // creating an instance is not an access
    #expect(Injection.declarationArguments(of: property) == nil)
    _ = KeyedUntouchedHost().value
    #expect(Injection.declarationArguments(of: property) as? String == "untouched")
  }

  @Test func aWrapperFindsItsPropertyAndRecordsThemWithoutARead() throws {
    let host = KeyedProjectionHost()
    let descriptor = host.descriptor
    #expect(descriptor == (try Injection.property(named: "value", of: KeyedProjectionHost.self)))
    #expect(Injection.declarationArguments(of: descriptor) as? String == "projected")
  }

  @Test func markersWithoutArgumentsHaveNone() throws {
    _ = PlainMarkerHost().value
    let property = try Injection.property(named: "value", of: PlainMarkerHost.self)
    #expect(Injection.declarationArguments(of: property) == nil)
  }

  @Test func concurrentFirstReadsOfFreshInstancesAllSeeThem() throws {
    try KeyedPlugin.injectKeys(into: KeyedConcurrentHost.self)
    let wrong = Counter()
    concurrently(threads: 8) { _ in
      for _ in 0..<200 where KeyedConcurrentHost().value != "key=gamma" { wrong.increment() }
    }
    #expect(wrong.count == 0)
  }

  @Test func threadsRacingOnAClassesVeryFirstInstanceAllSeeThem() throws {
    func race<T>(_: T.Type) throws -> Int {
      let rules = InjectionRules()
      rules.add(
        PropertyInjection<String?>(
          read: .getter { _, _, original in original.declarationArguments as? String }, summary: "keyed"),
        to: PropertySelection(plugin: KeyedPlugin.id).declared(in: KeyedGenericHost<T>.self))
      try Injection.commit(rules)
      let host = KeyedGenericHost<T>()
      let wrong = Counter()
      concurrently(threads: 6) { _ in if host.value != "delta" { wrong.increment() } }
      return wrong.count
    }
    #expect(try race(Int.self) == 0)
    #expect(try race(String.self) == 0)
    #expect(try race(Double.self) == 0)
    #expect(try race([Int].self) == 0)
  }

  @Test func anInjectionsReportNoteFollowsItsLineInTheReport() throws {
    let note = LockedState<String?>(nil)
    let rules = InjectionRules()
    rules.add(
      PropertyInjection<String?>(read: .value("v"), summary: "noted", reportNote: { note.value }),
      to: PropertySelection(plugin: KeyedPlugin.id).declared(in: NotedHost.self))
    try Injection.commit(rules)
    let line = { Injection.report().split(separator: "\n").first { $0.contains("NotedHost.value") }.map(String.init) }
    #expect(line()?.hasSuffix("<- noted (Keyed)") == true)
    note.withLock { $0 = "something to say" }
    #expect(line()?.hasSuffix("<- noted (Keyed) — something to say") == true)
  }
}
