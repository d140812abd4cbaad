import InjectionKernel
import Testing

// Fixture classes for this file only (tests run in parallel).
private final class NestedOptionalHost {
  @Tracked var twice: Int??
  init() {}
}

private final class OptionalAnyHost {
  @Tracked var anything: Any?
  init() {}
}

private final class OptionalObjectHost {
  @Tracked var object: OptionalTypesBox?
  init() {}
}

private final class OptionalTypesBox {}

@Suite struct OptionalTypesTests {
  @Test func wrappedTypesOfOptionalsAreReadFromMetadata() {
    #expect(Injection.wrappedType(ofOptional: Int?.self) == Int.self)
    #expect(Injection.wrappedType(ofOptional: Int??.self) == Int?.self)
    #expect(Injection.wrappedType(ofOptional: (any Sendable)?.self) == (any Sendable).self)
    #expect(Injection.wrappedType(ofOptional: Int.self) == nil)
    #expect(Injection.wrappedType(ofOptional: Any.self) == nil)
    #expect(Injection.wrappedType(ofOptional: [Int?].self) == nil)
  }

  @Test func noneIsTheOuterNilOfOptionalTypesOnly() {
    #expect(Injection.none(of: Int?.self) == .some(nil))
    // The outer `nil` of `Int??`, not `.some(nil)`.
    #expect(Injection.none(of: Int??.self).map { $0 == nil } == true)
    #expect(Injection.none(of: Int.self) == nil)
    #expect(Injection.none(of: Any.self) == nil)
    #expect(Injection.none(of: OptionalTypesBox?.self).map { $0 == nil } == true)
  }

  @Test func anOptionalHoldingNilIsStoredNotEmptied() {
    let host = NestedOptionalHost()
    #expect(host.twice == nil)
    host.twice = .some(nil)  // a stored value: an optional holding `nil`
    #expect(host.twice.map { $0 == nil } == true)
    host.twice = 3
    #expect(host.twice == .some(.some(3)))
    host.twice = nil  // the outer `nil` empties the storage
    #expect(host.twice.map { _ in true } == nil)
  }

  @Test func optionalExistentialsAndObjectsEmptyWithNil() {
    let host = OptionalAnyHost()
    host.anything = 5
    #expect(host.anything as? Int == 5)
    host.anything = nil
    #expect(host.anything == nil)

    let objectHost = OptionalObjectHost()
    let box = OptionalTypesBox()
    objectHost.object = box
    #expect(objectHost.object === box)
    objectHost.object = nil
    #expect(objectHost.object == nil)
  }
}
