import InjectPlugin
import InjectionKernel
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

@Suite struct WrapperPositionTests {
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
