import InjectionKernel
import TestSupport
import Testing

/// A class value whose fields must never be seen torn or freed.
private final class RaceBox: Sendable {
  let id: Int
  let check: Int
  init(_ id: Int) {
    self.id = id
    check = ~id
  }
}

/// Three words that a torn read would show as unequal.
private struct Triple: Sendable {
  let a: Int
  let b: Int
  let c: Int
  init(_ value: Int) { (a, b, c) = (value, value &* 3, value &* 7) }
  var isWhole: Bool { b == a &* 3 && c == a &* 7 }
}

private final class ClassRaceHost: @unchecked Sendable {  // marked properties are atomic
  @Tracked var value: RaceBox?
}

/// A non-optional class value: the instance's state word holds the object itself, with no box.
private final class ObjectRaceHost: @unchecked Sendable {  // marked properties are atomic
  @Tracked var value: RaceBox
}

private final class IntRaceHost: @unchecked Sendable {  // marked properties are atomic
  @Tracked var value: Int
}

private final class TripleRaceHost: @unchecked Sendable {  // marked properties are atomic
  @Tracked var value: Triple
}

private func inject<Value>(_ value: Value, into owner: AnyClass) throws {
  let rules = InjectionRules()
  TrackedPlugin.inject(value, into: owner, rules: rules)
  try Injection.commit(rules)
}

/// One instance written on one thread while four other threads read it: every read returns a whole
/// value that was injected or written (the old or the new one), and nothing is used after it is freed.
/// The thread sanitizer pass of the test command runs these too.
@Suite struct WriteRaceTests {
  static let writes = 20_000

  @Test func classValues() throws {
    try inject(RaceBox?(RaceBox(-1)), into: ClassRaceHost.self)
    let host = ClassRaceHost()
    let bad = Counter()
    whileWriting(readers: 4) {
      for k in 0..<Self.writes { host.value = RaceBox(k) }
    } read: {
      guard let box = host.value, (-1..<Self.writes).contains(box.id), box.check == ~box.id else {
        bad.increment()
        return
      }
    }
    #expect(bad.count == 0)
    #expect(host.value?.id == Self.writes - 1)
  }

  @Test func classValuesStoredWithoutABox() throws {
    try inject(RaceBox(-1), into: ObjectRaceHost.self)
    let host = ObjectRaceHost()
    let bad = Counter()
    whileWriting(readers: 4) {
      for k in 0..<Self.writes { host.value = RaceBox(k) }
    } read: {
      let box = host.value
      if !(-1..<Self.writes).contains(box.id) || box.check != ~box.id { bad.increment() }
    }
    #expect(bad.count == 0)
    #expect(host.value.id == Self.writes - 1)
  }

  @Test func intValues() throws {
    try inject(-1, into: IntRaceHost.self)
    let host = IntRaceHost()
    let bad = Counter()
    whileWriting(readers: 4) {
      for k in 0..<Self.writes { host.value = k }
    } read: {
      if !(-1..<Self.writes).contains(host.value) { bad.increment() }
    }
    #expect(bad.count == 0)
    #expect(host.value == Self.writes - 1)
  }

  @Test func threeWordStructValues() throws {
    try inject(Triple(-1), into: TripleRaceHost.self)
    let host = TripleRaceHost()
    let bad = Counter()
    whileWriting(readers: 4) {
      for k in 0..<Self.writes { host.value = Triple(k) }
    } read: {
      let value = host.value
      if !value.isWhole || !(-1..<Self.writes).contains(value.a) { bad.increment() }
    }
    #expect(bad.count == 0)
    #expect(host.value.a == Self.writes - 1)
  }
}
