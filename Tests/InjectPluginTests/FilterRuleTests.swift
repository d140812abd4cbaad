import InjectPlugin
import Synchronization
import Testing

// Rules narrowed with `filter`: a newer rule through the very same closure replaces the older one (before,
// every rule through a filter was kept, with the value it captured, for as long as the process ran: found
// by review H70).

private final class FilteredPayload: Sendable {
  static let live = Atomic<Int>(0)
  let id: Int
  init(_ id: Int) {
    self.id = id
    Self.live.add(1, ordering: .relaxed)
  }
  deinit { Self.live.subtract(1, ordering: .relaxed) }
}
private final class FilteredHost {
  @Inject var payload: FilteredPayload?
}

private final class NamedByFilter: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}
private final class FilteredByNameHost {
  @Inject var first: NamedByFilter
  @Inject var second: NamedByFilter
}

private final class FilteredGenericBox<T>: @unchecked Sendable {  // marked properties only
  @Inject var genericCount: Int?
}
private struct FilteredGenericKey {}

@Suite struct FilterRuleTests {
  @Test func reInjectingThroughTheSameFilterKeepsOneValueAlive() throws {
    // One closure expression, which captures nothing: the same closure each time it runs.
    func payloadProperties() -> InjectSelection<FilteredPayload?> {
      Injection.inject(FilteredPayload?.self).filter { $0.name == "payload" }
    }
    let host = FilteredHost()
    for round in 0..<1000 {
      try payloadProperties().value(FilteredPayload(round))
      let read = host.payload?.id
      #expect(read == round)
    }
    #expect(FilteredPayload.live.load(ordering: .relaxed) == 1)
    try payloadProperties().reject()
    #expect(host.payload == nil)
    #expect(FilteredPayload.live.load(ordering: .relaxed) == 0)
  }

  @Test func filtersCapturingDifferentValuesStaySeparateRules() throws {
    for name in ["first", "second"] {
      try Injection.inject(NamedByFilter.self).filter { $0.name == name }.value(NamedByFilter(name))
    }
    let host = FilteredByNameHost()
    #expect(host.first.name == "first")
    #expect(host.second.name == "second")
  }

  @Test func aFilterMeantForAGenericClassDoesNotThrowBeforeASpecializationIsUsed() throws {
    // Its specializations are cataloged when used: a filter matching nothing now is no mistake (review H73:
    // for a while it threw until some specialization had been used).
    try Injection.inject(Int?.self).filter { $0.name == "genericCount" && $0.className.contains("FilteredGeneric") }
      .value(2)
    #expect(FilteredGenericBox<FilteredGenericKey>().genericCount == 2)
  }
}
