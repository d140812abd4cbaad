import InjectPlugin
import InjectionKernel
import TestSupport
import Testing

// A marked property's state is found by the position its wrapper was made at (the `@Inject`
// attribute's `#fileID`, `#line` and `#column`). These fixtures make wrappers elsewhere.

/// One initializer keeps the declared wrappers, the other replaces one with a wrapper made inside it.
private final class ReassignedHost: @unchecked Sendable {
  @Inject var port: Int
  @Inject var label: String

  init() {}

  init(port: Int) {
    _port = Inject(wrappedValue: port)
  }
}

/// Both wrappers made by one helper: one source position for two properties.
private final class SharedPositionHost {
  @Inject var first: Int
  @Inject var second: Int

  init() {
    _first = Self.wrapper()
    _second = Self.wrapper()
  }

  static func wrapper() -> Inject<Int> { Inject() }
}

/// Wrappers made by one generic helper for different properties, each in an initializer of its own:
/// one token names `number` in some instances and `text` in others.
private final class HelperMadeHost {
  @Inject var number: Int = 7
  @Inject var text: String = "t"

  init(helperNumber: Int) { _number = Self.wrapper(helperNumber) }
  init(helperText: String) { _text = Self.wrapper(helperText) }

  static func wrapper<Value>(_ value: Value) -> Inject<Value> { Inject(wrappedValue: value) }
}

/// A base whose second initializer makes its own wrapper, and a subclass that inherits both.
private class PortBase {
  @Inject var port = 1
  init() {}
  init(port: Int) { _port = Inject(wrappedValue: port) }
}

private final class PortSub: PortBase {}

/// Fresh instances from two initializers (two tokens for one field) met first on many threads at once.
private final class RacedPositionHost: @unchecked Sendable {
  @Inject var port: Int
  init() {}
  init(port: Int) { _port = Inject(wrappedValue: port) }
}

@Suite struct WrapperPositionTests {
  @Test func threadsMeetingBothTokensOfOneFieldFirstAllReadAndWriteTheirOwnInstances() throws {
    try Injection.inject(Int.self).declared(in: RacedPositionHost.self).named("port").value(-1)
    let mismatches = Counter()
    concurrently(threads: 8) { thread in
      for round in 0..<200 {
        let declared = RacedPositionHost()
        let made = RacedPositionHost(port: round)
        if declared.port != -1 || made.port != round { mismatches.increment() }
        declared.port = thread
        made.port = thread + round
        if declared.port != thread || made.port != thread + round { mismatches.increment() }
      }
    }
    #expect(mismatches.count == 0)
  }

  @Test func instancesWhoseWrappersWereMadeInDifferentInitializersOfABaseAndASubclassEachReadTheirOwn() {
    #expect(PortBase(port: 5).port == 5)
    #expect(PortSub().port == 1)
    #expect(PortSub(port: 6).port == 6)
    #expect(PortBase().port == 1)
    let sub = PortSub(port: 8)
    sub.port = 9
    #expect(sub.port == 9 && PortSub().port == 1)
  }

  @Test func oneHelperMakingWrappersForTwoPropertiesStopsInsteadOfReadingTheOtherField() async throws {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      #expect(HelperMadeHost(helperNumber: 1).number == 1)
      _ = HelperMadeHost(helperText: "hello").text  // the helper's token already names `number`
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr.contains("HelperMadeHost.number: Swift.Int"))
    #expect(stderr.contains("HelperMadeHost.text: Swift.String"))
    #expect(stderr.contains("were made at one source position"))
  }

  @Test func aWrapperMadeInAnInitializerIsFoundLikeTheDeclaredOne() throws {
    try Injection.inject(Int.self).declared(in: ReassignedHost.self).named("port").value(80)
    try Injection.inject(String.self).declared(in: ReassignedHost.self).named("label").value("main")
    let declared = ReassignedHost()
    let reassigned = ReassignedHost(port: 8080)
    let another = ReassignedHost(port: 9090)
    #expect(declared.port == 80)
    #expect(reassigned.port == 8080)  // a stored value wins over a value injection
    #expect(another.port == 9090)
    #expect(reassigned.label == "main" && declared.label == "main")
    reassigned.port = 1
    declared.port = 2
    #expect([declared.port, reassigned.port, another.port] == [2, 1, 9090])
    #expect(ReassignedHost(port: 7).port == 7)
  }

  @Test func twoPropertiesWithOnePositionStopNamingBothAtTheFirstAccess() async throws {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = SharedPositionHost().first
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(stderr.contains("SharedPositionHost.first: Swift.Int"))
    #expect(stderr.contains("SharedPositionHost.second: Swift.Int"))
    #expect(stderr.contains("were made at one source position"))
  }
}
